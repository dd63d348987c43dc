#pragma once
// ga.breeding cma_es (docs/drivers.md, "CMA-ES"): the `ga` driver's generations sampled from
// one CMA-ES over a real genome in its genes' unit box, its ga.elitism best kept unchanged
// in front. The search starts at the best of the random first generation, moves toward the
// best half of each generation's candidates, and when it stalls restarts at a random
// genome with its first step.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "kernels/api/real_genome.hpp"
#include "runner/engine/cma_es.hpp"
#include "runner/engine/ga_settings.hpp"

namespace levelforge {

class CmaBreeding {
 public:
  CmaBreeding(const RealGenome& genome_half, const GaSettings& settings);

  // The candidates of `generation` (ga.population - ga.elitism of them). `ranked`: the
  // previous generation's candidates best first, or at the first call the whole random
  // population; `random_genome` draws a restart's genome from the rng it is given, on
  // (emitter_restart, task, generation, 0). Candidate k is drawn on (emitter, task,
  // generation, k).
  std::vector<RealGenome::Genome> next(
      std::uint64_t seed, std::uint64_t task, std::uint64_t generation,
      const std::vector<RealGenome::Genome>& ranked,
      const std::function<RealGenome::Genome(Rng&)>& random_genome);

  [[nodiscard]] std::int64_t restarts() const { return restarts_; }
  // Whether a search runs: `ranked` is then the last generation's candidates.
  [[nodiscard]] bool started() const { return search_.has_value(); }

  // The search, for a checkpoint; restore() throws std::invalid_argument for numbers of
  // another shape.
  [[nodiscard]] std::vector<double> state() const;
  void restore(std::span<const double> state);

 private:
  const RealGenome& genome_half_;
  double sigma0_;
  std::size_t candidates_;
  std::optional<CmaEs> search_;  // none before the first generation is bred
  std::int64_t restarts_ = 0;
};

}  // namespace levelforge
