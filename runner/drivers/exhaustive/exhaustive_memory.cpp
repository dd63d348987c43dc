// What a rank of a `exhaustive` run keeps in memory (memory_estimate.hpp).

#include "runner/drivers/exhaustive/exhaustive_driver.hpp"

#include "runner/drivers/memory_estimate.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

std::vector<MemoryPart> ExhaustiveDriver::result_memory(const ResultMemoryQuery& query) const {
  const auto& experiment = query.experiment;
  const auto tasks = experiment.task_count();
  // Every rank plans every task's chunks (ChunkPlan's TaskRange) and keeps its seconds, its
  // restored indices and those of failed chunks (8 bytes each).
  constexpr std::uint64_t task_plan_bytes = 5 * sizeof(std::uint64_t) + 3 * sizeof(double);
  std::vector<MemoryPart> parts{{"the task list of " + std::to_string(tasks) + " tasks",
                                 times(tasks, plus(query.task_row_bytes, task_plan_bytes))}};
  // The chunks come from the kernel's index space, known once the point's kernel was checked:
  // the point's share of them, at its size, stands for the run's.
  if (query.facts != nullptr) {
    const auto [begin, end] = exhaustive_range(query.point.driver, query.facts->index_count);
    const auto chunk = unsigned_of(query.point.driver.integer("chunk"));
    const auto chunks_per_task = (end - begin) / chunk + ((end - begin) % chunk != 0 ? 1 : 0);
    parts.push_back(units_to_pull(times(tasks, chunks_per_task), "chunk"));
  }
  return parts;
}

}  // namespace levelforge
