// What a rank of a `qd` run keeps in memory (memory_estimate.hpp).

#include "runner/drivers/qd/qd_driver.hpp"

#include "kernels/api/record_layout.hpp"
#include "runner/drivers/memory_estimate.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/qd_engine.hpp"

namespace levelforge {

std::vector<MemoryPart> QdDriver::result_memory(const ResultMemoryQuery& query) const {
  std::vector<MemoryPart> parts;
  // The cells come from the kernel's measures, known once the point's kernel was checked.
  if (const auto* qd = query.kernel.binding<QdSpec>(); qd != nullptr && query.facts != nullptr) {
    const auto settings = QdSettings::from(query.point.driver);
    const auto& axes = query.facts->axes;
    const auto cells = cell_count(axes);
    const auto& own = query.kernel_memory;
    const auto archive_row = qd_archive_layout(qd->evaluation_fields, axes).row_size();
    const std::string cells_key = std::to_string(cells) + " archive cells (qd.bins)";
    // The archive of the task in progress: a genome and an evaluation row per cell.
    parts.push_back({cells_key + " of the task in progress",
                     times(cells, plus(own.genome_bytes, archive_row))});
    const auto history_row = qd_history_layout().row_size();
    parts.push_back(
        {cells_key + " and qd.iterations = " + std::to_string(settings.iterations) +
             " history rows for " + query.per_rank,
         times(query.own_tasks, plus(times(cells, plus(archive_row, own.genome_bytes)),
                                     times(unsigned_of(settings.iterations + 1), history_row))),
         true});
  }
  const auto tasks = task_list_parts(query);
  parts.insert(parts.end(), tasks.begin(), tasks.end());
  return parts;
}

std::uint64_t QdDriver::point_bytes() const { return sizeof(QdSettings) + sizeof(std::uint64_t); }

}  // namespace levelforge
