#pragma once

#include <cstdint>

#include "kernels/api/params.hpp"

namespace levelforge {

// Where an island's migrants go: the next island, every other island, or the next island
// along a cycle drawn anew for every migration.
enum class MigrationTopology { ring, all, random };
// Which individuals leave an island and which they replace on arrival.
enum class MigrationPolicy { best_replace_worst, random_replace_random };

inline constexpr Vocabulary<MigrationTopology, 3> migration_topology_words{{{
    {"ring", MigrationTopology::ring},
    {"all", MigrationTopology::all},
    {"random", MigrationTopology::random},
}}};
inline constexpr Vocabulary<MigrationPolicy, 2> migration_policy_words{{{
    {"best-replace-worst", MigrationPolicy::best_replace_worst},
    {"random-replace-random", MigrationPolicy::random_replace_random},
}}};

// How a generation is bred: tournaments, crossover and mutation; for a real genome by
// sampling a CMA-ES (docs/drivers.md, "CMA-ES"); or for a kernel of several objectives by
// NSGA-II (docs/drivers.md, "NSGA-II").
enum class GaBreeding : std::uint8_t { tournament, cma_es, nsga2 };
inline constexpr Vocabulary<GaBreeding, 3> ga_breeding_words{{{
    {"tournament", GaBreeding::tournament},
    {"cma_es", GaBreeding::cma_es},
    {"nsga2", GaBreeding::nsga2},
}}};

// The `ga` section of a config point, typed.
struct GaSettings {
  std::int64_t population;
  std::int64_t generations;
  std::int64_t tournament;
  double crossover_rate;
  double mutation_rate;
  std::int64_t elitism;  // per island
  bool reevaluate_elites;
  double stop_fitness;
  std::int64_t keep_best;
  std::int64_t ranks_per_task;
  std::int64_t islands = 1;
  std::int64_t migration_every = 10;
  std::int64_t migration_count = 1;  // migrants an island sends to each of its destinations
  MigrationTopology migration_topology = MigrationTopology::ring;
  MigrationPolicy migration_policy = MigrationPolicy::best_replace_worst;
  // Set by the driver when another point of the run has islands, so that every point's
  // results have the same datasets.
  bool record_islands = false;
  GaBreeding breeding = GaBreeding::tournament;
  // Set by the driver when a point of the run breeds by nsga2 (and so on every point: the
  // fronts of the breedings compare in one file); nsga2 records them regardless.
  bool record_fronts = false;
  double sigma0 = 0.3;  // cma_es: the initial step, a fraction of each gene's range

  // Evaluations of every generation after the first.
  [[nodiscard]] std::uint64_t evaluations_per_generation() const;
  // Whether a task records its islands' history and best (a task of one island too).
  [[nodiscard]] bool records_islands() const { return islands > 1 || record_islands; }
  [[nodiscard]] bool records_fronts() const {
    return breeding == GaBreeding::nsga2 || record_fronts;
  }
  // Whether islands exchange migrants after `generation` (before breeding the next one).
  [[nodiscard]] bool migrates_after(std::int64_t generation) const;
  // Destinations of each island at every migration.
  [[nodiscard]] std::int64_t destinations_per_island() const;
  // Migration events (one per migrant) of a task that runs all its generations.
  [[nodiscard]] std::uint64_t migration_events() const;

  // Throws KernelError when the settings contradict each other (elitism >= an island's size).
  static GaSettings from(const ParamSet& section);
};

}  // namespace levelforge
