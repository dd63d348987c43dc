// What a rank of a `ga` run keeps in memory (memory_estimate.hpp).

#include "runner/drivers/ga/ga_driver.hpp"

#include "kernels/api/record_layout.hpp"
#include "runner/drivers/memory_estimate.hpp"
#include "runner/engine/ga_engine.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

std::vector<MemoryPart> GaDriver::result_memory(const ResultMemoryQuery& query) const {
  std::vector<MemoryPart> parts;
  if (const auto* ga = query.kernel.binding<GaSpec>()) {
    const auto& driver = query.point.driver;
    const auto& own = query.kernel_memory;
    const auto population = unsigned_of(driver.integer("population"));
    const auto generations = unsigned_of(driver.integer("generations"));
    const auto keep_best = unsigned_of(driver.integer("keep_best"));
    const std::string population_key = "ga.population = " + std::to_string(population);
    // Two generations of genomes live at once while the next one is bred.
    parts.push_back(
        {population_key + (own.genome_cause.empty() ? " genomes" : " x " + own.genome_cause),
         times(times(2, population), own.genome_bytes)});
    // Evaluation rows of both generations and a fitness per individual.
    const auto evaluation_row = ga_evaluation_layout(ga->evaluation_fields).row_size();
    parts.push_back({population_key + " evaluation rows",
                     times(population, plus(times(2, evaluation_row), sizeof(double)))});
    // Every task's history (a row per generation) and best genomes wait for the writer.
    const auto history_row = ga_history_layout(ga->evaluation_fields).row_size();
    const auto best_row = plus(ga_best_layout(ga->evaluation_fields).row_size(), own.genome_bytes);
    parts.push_back(
        {"ga.generations = " + std::to_string(generations) + " history rows and ga.keep_best = " +
             std::to_string(keep_best) + " genomes for " + query.per_rank,
         times(query.own_tasks, plus(times(generations, history_row), times(keep_best, best_row))),
         true});
    if (records_fronts(query.experiment) && query.facts != nullptr &&
        !query.facts->objective_reference.empty()) {
      // Each generation's front row and its members' objectives wait for the writer.
      const auto objectives = query.facts->objective_reference.size();
      const auto front_bytes = plus(ga_pareto_history_layout().row_size(),
                                    times(times(population, objectives), sizeof(double)));
      parts.push_back({"ga.generations = " + std::to_string(generations) +
                           " Pareto fronts of ga.population = " + std::to_string(population) +
                           " for " + query.per_rank,
                       times(query.own_tasks, times(generations, front_bytes)), true});
    }
    const auto settings = GaSettings::from(driver);
    if (settings.islands > 1) {
      const auto islands = unsigned_of(settings.islands);
      const auto island_rows =
          plus(times(generations, ga_island_history_layout().row_size()),
               plus(ga_island_best_layout(ga->evaluation_fields).row_size(), own.genome_bytes));
      const auto migrations = times(settings.migration_events(), ga_migration_layout().row_size());
      parts.push_back({"ga.islands = " + std::to_string(islands) + " histories and " +
                           std::to_string(settings.migration_events()) +
                           " migration rows (ga.migration) for " + query.per_rank,
                       times(query.own_tasks, plus(times(islands, island_rows), migrations)),
                       true});
    }
  }
  const auto tasks = task_list_parts(query);
  parts.insert(parts.end(), tasks.begin(), tasks.end());
  return parts;
}

std::uint64_t GaDriver::point_bytes() const { return sizeof(GaSettings) + sizeof(std::uint64_t); }

}  // namespace levelforge
