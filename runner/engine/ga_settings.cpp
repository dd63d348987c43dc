#include "runner/engine/ga_settings.hpp"

#include <string>

namespace levelforge {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw KernelError(what); }

}  // namespace

GaSettings GaSettings::from(const ParamSet& section) {
  GaSettings settings{};
  settings.population = section.integer("population");
  settings.generations = section.integer("generations");
  settings.tournament = section.integer("tournament");
  settings.crossover_rate = section.real("crossover_rate");
  settings.mutation_rate = section.real("mutation_rate");
  settings.elitism = section.integer("elitism");
  settings.reevaluate_elites = section.boolean("reevaluate_elites");
  settings.stop_fitness = section.real("stop_fitness");
  settings.keep_best = section.integer("keep_best");
  settings.ranks_per_task = section.integer("ranks_per_task");
  settings.breeding = section.choice_as("breeding", ga_breeding_words);
  settings.sigma0 = section.real("sigma0");
  settings.islands = section.integer("islands");
  settings.migration_every = section.integer("migration.every");
  settings.migration_count = section.integer("migration.count");
  settings.migration_topology = section.choice_as("migration.topology", migration_topology_words);
  settings.migration_policy = section.choice_as("migration.policy", migration_policy_words);
  // Islands are [i P / N, (i + 1) P / N): the smallest holds floor(P / N).
  const auto smallest = settings.population / settings.islands;
  if (settings.islands > 1 && smallest < 2) {
    refuse("ga.islands (" + std::to_string(settings.islands) +
           ") leaves islands of fewer than 2 individuals in ga.population (" +
           std::to_string(settings.population) + ")");
  }
  if (settings.elitism >= smallest) {
    refuse("ga.elitism (" + std::to_string(settings.elitism) + ") must be less than " +
           (settings.islands > 1 ? "the smallest island (" + std::to_string(smallest) +
                                       " individuals: ga.population / ga.islands)"
                                 : "ga.population (" + std::to_string(settings.population) + ")"));
  }
  if (settings.breeding == GaBreeding::cma_es && settings.islands > 1)
    refuse("ga.breeding: cma_es samples one population; ga.islands must be 1");
  if (settings.breeding == GaBreeding::cma_es && settings.population - settings.elitism < 2) {
    refuse("ga.breeding: cma_es samples ga.population - ga.elitism (" +
           std::to_string(settings.population - settings.elitism) +
           ") candidates a generation; at least 2");
  }
  if (settings.breeding == GaBreeding::nsga2 && settings.islands > 1)
    refuse("ga.breeding: nsga2 sorts one population into fronts; ga.islands must be 1");
  if (settings.breeding == GaBreeding::nsga2 && settings.reevaluate_elites) {
    refuse(
        "ga.reevaluate_elites: nsga2 keeps parents by their first evaluation; it cannot be "
        "true");
  }
  if (settings.breeding == GaBreeding::nsga2) settings.elitism = 0;  // survival keeps the best
  // Ring and random: one source per island; all: every other island.
  const auto incoming_at_most = settings.migration_count * settings.destinations_per_island();
  if (settings.islands > 1 && incoming_at_most > smallest) {
    refuse("ga.migration.count (" + std::to_string(settings.migration_count) + ") with topology " +
           std::string(migration_topology_words.name(settings.migration_topology)) + " can bring " +
           std::to_string(incoming_at_most) +
           " migrants to one island, more than the smallest island holds (" +
           std::to_string(smallest) + ")");
  }
  return settings;
}

std::uint64_t GaSettings::evaluations_per_generation() const {
  if (breeding == GaBreeding::nsga2) return static_cast<std::uint64_t>(population);
  return static_cast<std::uint64_t>(reevaluate_elites ? population
                                                      : population - islands * elitism);
}

bool GaSettings::migrates_after(std::int64_t generation) const {
  return islands > 1 && migration_count > 0 && generation > 0 && generation % migration_every == 0;
}

std::int64_t GaSettings::destinations_per_island() const {
  return migration_topology == MigrationTopology::all ? islands - 1 : 1;
}

std::uint64_t GaSettings::migration_events() const {
  if (islands <= 1 || migration_count == 0 || generations < 2) return 0;
  // Migrations follow generations K, 2K, ... up to the last but one.
  const auto migrations = static_cast<std::uint64_t>((generations - 2) / migration_every);
  return migrations *
         static_cast<std::uint64_t>(islands * destinations_per_island() * migration_count);
}

}  // namespace levelforge
