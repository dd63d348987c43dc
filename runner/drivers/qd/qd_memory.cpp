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
    const auto cells = archive_of(*query.facts, settings).count();
    const auto& own = query.kernel_memory;
    const auto archive_row = qd_archive_layout(qd->evaluation_fields, axes).row_size();
    const std::string cells_key = std::to_string(cells) + " archive cells (" +
                                  (settings.archive == QdArchive::grid ? "qd.bins" : "qd.cells") +
                                  ")";
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
    if (settings.archive == QdArchive::cvt) {
      // Every rank keeps each point's centroids, and fits them to samples first.
      const auto measures = unsigned_of(static_cast<std::int64_t>(axes.size()));
      const auto points = static_cast<std::uint64_t>(query.experiment.points.size());
      parts.push_back(
          {"qd.cells = " + std::to_string(cells) + " CVT centroids of each of " +
               std::to_string(points) + " points, and qd.cvt_samples = " +
               std::to_string(settings.cvt_samples) + " samples they are fitted to",
           plus(times(points, times(cells, times(measures, sizeof(double)))),
                times(unsigned_of(settings.cvt_samples), times(measures, sizeof(double))))});
    }
  }
  const auto tasks = task_list_parts(query);
  parts.insert(parts.end(), tasks.begin(), tasks.end());
  return parts;
}

std::uint64_t QdDriver::point_bytes() const { return sizeof(QdSettings) + sizeof(std::uint64_t); }

}  // namespace levelforge
