#pragma once

#include <cstdint>

#include "kernels/api/params.hpp"

namespace levelforge {

// The `ga` section of a config point, typed.
struct GaSettings {
  std::int64_t population;
  std::int64_t generations;
  std::int64_t tournament;
  double crossover_rate;
  double mutation_rate;
  std::int64_t elitism;
  bool reevaluate_elites;
  double stop_fitness;
  std::int64_t keep_best;
  std::int64_t ranks_per_task;

  // Evaluations of every generation after the first.
  [[nodiscard]] std::uint64_t evaluations_per_generation() const;

  // Throws KernelError when the settings contradict each other (elitism >= population).
  static GaSettings from(const ParamSet& section);
};

}  // namespace levelforge
