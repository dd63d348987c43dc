#pragma once
// How a task's engine (GaRun, QdRun) meets the ranks that run the task together, free of
// MPI: the MPI driver implements it by splitting each step's evaluations across the ranks of
// a group, tests by a group of one.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/api/params.hpp"

namespace levelforge {

// [begin, end) of `count` evaluations that member `rank` of `size` performs.
inline std::pair<std::size_t, std::size_t> share_of(std::size_t count, std::size_t rank,
                                                    std::size_t size) {
  return {count * rank / size, count * (rank + 1) / size};
}

// What a group decides after a step (a GA generation, a QD iteration); every member must
// decide alike.
struct GenerationCheck {
  bool save = false;  // hand a snapshot to EvaluationGroup::save
  bool stop = false;  // leave the task unfinished here (after saving)
};

// The ranks that evaluate one task together (a GA or QD task, whose state after a step is a
// `Snapshot`). A group of one needs no communication.
template <class Snapshot>
class EvaluationGroupOf {
 public:
  virtual ~EvaluationGroupOf() = default;
  [[nodiscard]] virtual std::size_t rank() const = 0;
  [[nodiscard]] virtual std::size_t size() const = 0;
  // Concatenates every member's `local` rows in member order into `all`.
  virtual void all_gather(std::span<const std::byte> local, std::span<std::byte> all) = 0;
  // Called by every member after each step's evaluations with the message of the
  // first of its own evaluations that threw (empty: none). Returns the first member's
  // non-empty message, the same on every member: the group fails the task together.
  virtual std::string first_failure(const std::string& local) { return local; }
  // Called once per step by every member with the evaluations the group made.
  virtual void generation_done(std::uint64_t evaluations) = 0;
  // Called by every member after each step that is not the task's last.
  virtual GenerationCheck after_generation(std::int64_t /*generations_run*/) { return {}; }
  virtual void save(const Snapshot& /*snapshot*/) {}
};

// Runs `produce(i, row)` for this member's share of items [0, count), each filling its row
// of `row_size` bytes, and returns every member's rows in item order. The first item that
// throws fails the whole group alike with `describe(i) + ": " + what()`: shares are
// contiguous, so the first member's first failure is the first item's, whatever the size.
template <class Snapshot, class Produce, class Describe>
std::vector<std::byte> evaluate_shared(EvaluationGroupOf<Snapshot>& group, std::size_t count,
                                       std::size_t row_size, Produce&& produce,
                                       Describe&& describe) {
  const auto [begin, end] = share_of(count, group.rank(), group.size());
  std::vector<std::byte> local((end - begin) * row_size);
  std::string failure;
  for (std::size_t i = begin; i < end && failure.empty(); ++i) {
    try {
      produce(i, std::span(local).subspan((i - begin) * row_size, row_size));
    } catch (const std::exception& error) {
      failure = describe(i) + ": " + error.what();
    }
  }
  failure = group.first_failure(failure);
  if (!failure.empty()) throw KernelError(failure);
  if (group.size() == 1) return local;
  std::vector<std::byte> all(count * row_size);
  group.all_gather(local, all);
  return all;
}

}  // namespace levelforge
