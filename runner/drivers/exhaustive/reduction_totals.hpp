#pragma once
// The exhaustive driver's reductions summed per task: what a rank banked of the chunks it
// visited, what a checkpoint segment holds of them, what a shard's result file holds, and
// the totals over all ranks that the result file gets.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "kernels/api/reductions.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/drivers/idle_clock.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

// Where a task's counts and histogram bins sit among its integers.
struct SlotMap {
  std::vector<std::size_t> offset;  // per reduction
  std::size_t per_task = 0;

  explicit SlotMap(const std::vector<ReductionSpec>& specs);
};

// The rows of a top-k table: score, index, then the entry's record.
RecordLayout top_layout(const ReductionSpec& spec);

// Two packs of top-k rows with a leading task column (`layout`: task, score, index, ...),
// each ordered by task and then rank, merged in that order keeping each task's k best:
// ranks merge their tables as bytes, without records. Throws std::logic_error for a pack
// that is not whole rows.
std::vector<std::byte> merge_top_rows(const RecordLayout& layout, std::size_t k,
                                      std::span<const std::byte> a, std::span<const std::byte> b);

struct TaskTotals {
  std::vector<std::int64_t> integers;       // counts and histogram bins, as SlotMap places them
  std::vector<std::vector<TopEntry>> tops;  // per reduction (top_k only): the k best, best first
};

// The totals over all ranks, as the result file gets them: each task's counts and histogram
// bins, and its top-k tables as the rows the ranks merged (a tagged_top_layout row: the task,
// then a top_layout row, or only its score and index where the records are built on
// request), never unpacked into records.
class MergedTotals {
 public:
  // Counts and histogram bins of `task`, as SlotMap places them.
  [[nodiscard]] std::span<const std::int64_t> integers(std::uint64_t task) const;
  // Entries of top-k table `r` of `task`.
  [[nodiscard]] std::size_t top_count(std::size_t r, std::uint64_t task) const;
  // Its entry `i` (0: the best) as a top_layout row (records_on_request: score and index).
  [[nodiscard]] std::span<const std::byte> top_row(std::size_t r, std::uint64_t task,
                                                   std::size_t i) const;

 private:
  friend class ReductionTotals;
  struct TopRows {
    std::vector<std::byte> rows;      // tagged, ordered by task and then rank
    std::size_t row_size = 0;         // of a tagged row
    std::vector<std::size_t> starts;  // per task and one more: its first row
  };

  std::size_t per_task_ = 0;
  std::vector<std::int64_t> integers_;  // task_count x per_task
  std::vector<TopRows> tops_;           // per reduction (top_k only)
};

class ReductionTotals {
 public:
  explicit ReductionTotals(const std::vector<ReductionSpec>& specs);

  [[nodiscard]] const std::vector<ReductionSpec>& specs() const { return *specs_; }
  [[nodiscard]] const SlotMap& slots() const { return slots_; }
  [[nodiscard]] bool empty() const { return tasks_.empty(); }
  // nullptr: nothing of the task was added.
  [[nodiscard]] const TaskTotals* find(std::uint64_t task) const;
  // The task's totals, zero when first asked.
  TaskTotals& at(std::uint64_t task);

  // Adds what a kernel reduced for `task`; its top-k tables are moved out.
  void add(std::uint64_t task, Reductions& reductions);
  void add(ReductionTotals&& other);
  // Adds `entries` to top-k table `r` of `task`, keeping the k best.
  void add_top(std::size_t r, std::uint64_t task, std::vector<TopEntry> entries);

  // As a checkpoint segment holds them.
  void save_into(Segment& segment) const;
  // Adds a segment's reductions; throws CheckpointError for a task of `task_count` or more
  // or reductions that do not match their task list.
  void absorb(const Segment& segment, std::uint64_t task_count);

  // Collective: every rank's totals added up, for each of the `task_count` tasks, on every rank.
  [[nodiscard]] MergedTotals merged(const mpi::Comm& comm, std::uint64_t task_count,
                                    IdleClock& idle) const;

 private:
  // Rows of top-k table `r` with a leading task column; for records_on_request, the task,
  // score and index alone (segments and merges carry no records).
  [[nodiscard]] RecordLayout tagged_top_layout(std::size_t r) const;
  [[nodiscard]] std::vector<std::byte> pack_tops(std::size_t r) const;
  void absorb_tops(std::size_t r, std::span<const std::byte> rows, std::uint64_t task_count);

  const std::vector<ReductionSpec>* specs_;
  SlotMap slots_;
  std::map<std::uint64_t, TaskTotals> tasks_;
};

}  // namespace levelforge
