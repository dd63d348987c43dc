#include "runner/drivers/ga/ga_spec.hpp"

#include <limits>

namespace levelforge {

std::vector<ParamSpec> GaSpec::settings() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return {
      int_param("population", 64, 2, 10'000'000, "individuals per generation"),
      int_param("generations", 50, 1, 10'000'000, "generations, the initial one included"),
      int_param("tournament", 3, 1, 1024, "tournament size of parent selection"),
      real_param("crossover_rate", 0.9, 0.0, 1.0, "probability that a pair of parents is crossed"),
      real_param("mutation_rate", 0.01, 0.0, 1.0, "mutation rate passed to the kernel's mutate"),
      bool_param("reevaluate_elites", false,
                 "evaluate elites again every generation (noisy fitness: the winner's curse)"),
      int_param("elitism", 1, 0, 10'000'000,
                "best individuals copied unchanged (not re-evaluated)"),
      real_param("stop_fitness", inf, -inf, inf,
                 "stop a task once its best fitness reaches this (.inf: never)"),
      int_param("keep_best", 5, 1, 100'000, "best genomes of the final population stored"),
      int_param("ranks_per_task", 0, 0, 1'000'000,
                "ranks evaluating one task together (0: ranks / tasks, at least 1)"),
      choice_param("breeding", ga_breeding_words,
                   "how a generation is bred: tournament (selection, crossover, mutation), "
                   "cma_es (a CMA-ES with restarts) for a kernel with a real genome, or nsga2 "
                   "(NSGA-II: ga.population offspring by crowded tournaments of ga.tournament, "
                   "parents and offspring sorted into fronts; ga.elitism does not apply) for a "
                   "kernel with objectives"),
      real_param("sigma0", 0.3, 1e-9, 10.0,
                 "cma_es: the initial step, a fraction of each gene's range"),
      int_param("islands", 1, 1, 1'000'000,
                "subpopulations that breed apart (1: one population); island i holds "
                "individuals [i P / N, (i + 1) P / N)"),
      int_param("migration.every", 10, 1, 10'000'000,
                "islands exchange migrants after generations K, 2K, ..."),
      int_param("migration.count", 1, 0, 10'000'000,
                "migrants an island sends to each destination (0: islands never meet)"),
      choice_param("migration.topology", migration_topology_words,
                   "destinations: ring (the next island), all (every other island) or random "
                   "(the next island on a cycle through all islands, drawn per migration)"),
      choice_param("migration.policy", migration_policy_words,
                   "best-replace-worst (an island's best replace the destination's worst) or "
                   "random-replace-random"),
  };
}

}  // namespace levelforge
