// What a rank of a `sweep` run keeps in memory (memory_estimate.hpp).

#include "runner/drivers/sweep/sweep_driver.hpp"

#include "kernels/api/record_layout.hpp"
#include "runner/drivers/memory_estimate.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

std::vector<MemoryPart> SweepDriver::result_memory(const ResultMemoryQuery& query) const {
  std::vector<MemoryPart> parts;
  if (const auto* sweep = query.kernel.binding<SweepSpec>()) {
    const auto record_row = RecordLayout(sweep->record_fields).row_size();
    parts.push_back({"the records of " + query.per_rank, times(query.own_tasks, record_row), true});
  }
  const auto tasks = task_list_parts(query);
  parts.insert(parts.end(), tasks.begin(), tasks.end());
  return parts;
}

}  // namespace levelforge
