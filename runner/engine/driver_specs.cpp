#include "runner/engine/driver_specs.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>

#include "runner/engine/ga_settings.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/memory_estimate.hpp"
#include "runner/engine/qd_settings.hpp"

namespace levelforge {

namespace {

std::vector<ParamSpec> no_settings() { return {}; }

}  // namespace

const DriverSpec ga_driver_spec{"ga",
                                "task",
                                "evals",
                                ga_settings,
                                [](const KernelEntry& kernel) { return kernel.ga.has_value(); },
                                ga_result_memory,
                                sizeof(GaSettings) + sizeof(std::uint64_t)};
const DriverSpec qd_driver_spec{"qd",
                                "task",
                                "evals",
                                qd_settings,
                                [](const KernelEntry& kernel) { return kernel.qd.has_value(); },
                                qd_result_memory,
                                sizeof(QdSettings) + sizeof(std::uint64_t)};
const DriverSpec sweep_driver_spec{
    "sweep",
    "task",
    "runs",
    no_settings,
    [](const KernelEntry& kernel) { return kernel.sweep.has_value(); },
    sweep_result_memory,
    0};
const DriverSpec exhaustive_driver_spec{
    "exhaustive",
    "chunk",
    "indices",
    exhaustive_settings,
    [](const KernelEntry& kernel) { return kernel.exhaustive.has_value(); },
    exhaustive_result_memory,
    0};

namespace {

constexpr std::array<const DriverSpec*, 4> all_drivers{&ga_driver_spec, &qd_driver_spec,
                                                       &sweep_driver_spec, &exhaustive_driver_spec};

}  // namespace

std::span<const DriverSpec* const> driver_specs() { return all_drivers; }

const DriverSpec* find_driver_spec(std::string_view name) {
  const auto found = std::find_if(all_drivers.begin(), all_drivers.end(),
                                  [&](const DriverSpec* spec) { return spec->name == name; });
  return found == all_drivers.end() ? nullptr : *found;
}

const DriverSpec& driver_spec(std::string_view name) {
  const auto* spec = find_driver_spec(name);
  if (spec == nullptr) throw std::logic_error("no driver is named '" + std::string(name) + "'");
  return *spec;
}

std::vector<ParamSpec> ga_settings() {
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

std::vector<ParamSpec> qd_settings() {
  constexpr double big = 1e300;
  return {
      int_param("bins", 20, 1, 1 << 20, "cells per measure (qd.measures may say otherwise)"),
      table_param("measures",
                  "per-measure overrides, {NAME: {bins: N, range: [low, high]}}; a measure "
                  "not named keeps qd.bins and the kernel's range"),
      int_param("init", 100, 1, 100'000'000, "random genomes evaluated first"),
      int_param("iterations", 100, 0, 100'000'000, "batches of offspring after the first"),
      int_param("batch", 100, 1, 100'000'000, "offspring per iteration"),
      real_param("mutation_rate", 0.05, 0.0, 1.0, "mutation rate passed to the kernel's mutate"),
      real_param("crossover_rate", 0.0, 0.0, 1.0,
                 "probability that an offspring is the kernel's crossover of two elites"),
      real_param("score_offset", 0.0, -big, big,
                 "QD score: sum over occupied cells of (fitness - score_offset); set it below "
                 "every fitness"),
      int_param("ranks_per_task", 0, 0, 1'000'000,
                "ranks evaluating one task together (0: ranks / tasks, at least 1)"),
  };
}

std::vector<ParamSpec> exhaustive_settings() {
  constexpr std::int64_t max_index = std::numeric_limits<std::int64_t>::max();
  return {
      int_param("begin", 0, 0, max_index, "first index visited"),
      int_param("end", -1, -1, max_index,
                "one past the last index visited (-1: the kernel's index count)"),
      int_param("chunk", 65536, 1, max_index,
                "indices per chunk pulled by a rank (the run's last chunks are smaller)"),
  };
}

IndexRange exhaustive_range(const ParamSet& settings, std::uint64_t index_count) {
  const auto begin = static_cast<std::uint64_t>(settings.integer("begin"));
  const auto end = settings.integer("end") < 0
                       ? index_count
                       : static_cast<std::uint64_t>(settings.integer("end"));
  if (end > index_count || begin > end) {
    throw KernelError("exhaustive range [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") does not fit the kernel's index space [0, " + std::to_string(index_count) +
                      ")");
  }
  return {begin, end};
}

}  // namespace levelforge
