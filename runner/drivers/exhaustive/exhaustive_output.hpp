#pragma once
// What the result file holds of an exhaustive run, declared once: the driver's writes and
// `merge`'s reading of a shard both come from these declarations. Per task: /exhaustive/ranges,
// /exhaustive/counts, one histogram and one top-k table per reduction; then the solutions,
// ordered by (task, index).

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/api/row_buffer.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/drivers/exhaustive/chunk_plan.hpp"
#include "runner/drivers/exhaustive/reduction_totals.hpp"
#include "runner/drivers/idle_clock.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge {

// The merged results the per-task datasets are filled from.
struct ExhaustiveResults {
  const ChunkPlan& plan;
  const MergedTotals& totals;
  const std::vector<std::uint64_t>& uncovered;  // per task: indices of failed chunks
  // The model of a task's point, which builds the records of the top-k tables whose records
  // are built on request (ReductionSpec::records_on_request) for the rows written.
  std::function<const ExhaustiveModel&(std::uint64_t task)> model_of;
};

struct ExhaustiveDataset {
  TaskDataset dataset;
  // Fills a task's block, which starts out missing.
  std::function<void(const ExhaustiveResults& results, std::uint64_t task,
                     std::span<std::byte> block)>
      fill;
  // A shard's block of `task` added to `totals`; empty for what follows from the plan.
  std::function<void(std::span<const std::byte> block, std::uint64_t task, ReductionTotals& totals)>
      read_back;
};

std::vector<ExhaustiveDataset> exhaustive_datasets(const ExhaustiveSpec::Binding& capability);

// The tasks whose per-task rows (and /tasks row) this rank writes: round robin over the ranks.
std::vector<std::uint64_t> rank_tasks(std::uint64_t task_count, const mpi::Comm& comm);

// Collective: every per-task dataset, each task's rows written by one rank.
void write_task_datasets(ResultFile& file, const std::vector<ExhaustiveDataset>& datasets,
                         const ExhaustiveResults& results, const mpi::Comm& comm);
// One process: a shard's per-task datasets added to `totals`.
void read_task_datasets(const h5::File& file, const std::vector<ExhaustiveDataset>& datasets,
                        std::uint64_t task_count, ReductionTotals& totals);

// The solutions found, in the order of their chunks, and what of them is saved.
// Where each chunk's solutions start in /exhaustive/solutions.
struct SolutionOffsets {
  std::map<std::uint64_t, std::uint64_t> first_row;  // of the chunks this rank holds
  std::uint64_t total_rows = 0;                      // of all ranks
};

class SolutionStore {
 public:
  explicit SolutionStore(const ExhaustiveSpec::Binding& capability);

  // The next solutions of `reductions` are written straight into this store's rows, their
  // task and index columns filled in by add.
  void receive_from(Reductions& reductions);
  // Appends the solutions `chunk` of `task` found (copied unless written in place); empties
  // them.
  void add(std::uint64_t chunk, std::uint64_t task, Reductions& found);
  // The solutions added since the last call into `segment`.
  void save_new(Segment& segment);
  // Appends a segment's solutions; throws CheckpointError when they do not match their chunks.
  void absorb(const Segment& segment);
  // Collective: the first row of each chunk this rank holds, after all rows of earlier chunks
  // on any rank, and the total.
  [[nodiscard]] SolutionOffsets offsets(std::uint64_t chunk_count, const mpi::Comm& comm) const;
  // Collective: /exhaustive/solutions, every chunk's rows after those of earlier chunks.
  void write(ResultFile& file, std::uint64_t chunk_count, const mpi::Comm& comm,
             IdleClock& idle) const;
  // One process: a shard's solutions into `segment` as save_new puts them; throws
  // CheckpointError for a row outside the run.
  void read(const h5::File& file, const ChunkPlan& plan, Segment& segment) const;

 private:
  RecordLayout layout_;  // task, index, then the kernel's solution fields
  RowBuffer rows_;
  std::vector<std::pair<std::uint64_t, std::size_t>> chunks_;  // (chunk, rows), in row order
  std::size_t saved_chunks_ = 0;
  std::size_t saved_bytes_ = 0;
};

}  // namespace levelforge
