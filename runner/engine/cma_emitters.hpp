#pragma once
// The `qd` driver's CMA-ES emitters for a real genome (docs/drivers.md, "Emitters"): CMA-ME
// (Fontaine, Togelius, Nikolaidis & Hoover 2020), each emitter a CMA-ES that ranks its
// candidates by what they did to the archive, new cells first, and restarts from a random
// elite when none was added; and CMA-MAE (Fontaine & Nikolaidis 2023), ranking by how far a
// candidate passes its cell's threshold, a threshold that moves toward each fitness passing
// it by the archive learning rate, restarting when its CMA-ES stalls. The searches run in the
// genes' ranges scaled to [0, 1], so one step size fits genes of any range.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "kernels/api/real_genome.hpp"
#include "runner/engine/cma_es.hpp"
#include "runner/engine/qd_settings.hpp"

namespace levelforge {

// What inserting one candidate into the archive did, in the order the candidates were
// inserted: the ranking's inputs.
struct Insertion {
  enum Status : std::uint8_t { not_added, improved, new_cell };
  Status status = not_added;
  // cma_me: for a new cell the fitness, for an improved one the gain over the elite it
  // replaced; cma_mae: pass_threshold's value.
  double value = 0;
};

class CmaEmitters {
 public:
  // For qd.emitter cma_me or cma_mae; `cells` of the archive (the thresholds).
  CmaEmitters(const RealGenome& genome_half, const QdSettings& settings, std::size_t cells);

  // Candidates an emitter draws each iteration.
  [[nodiscard]] std::size_t per_emitter() const { return per_emitter_; }

  // The candidates of `iteration`, emitter by emitter: candidate k of emitter e drawn on
  // (emitter, task, iteration, e x per_emitter + k); an emitter without a search first starts
  // one at the elite that `pick_elite` draws on (emitter_restart, task, iteration, e).
  std::vector<RealGenome::Genome> ask(
      std::uint64_t seed, std::uint64_t task, std::uint64_t iteration,
      const std::function<const RealGenome::Genome&(Rng&)>& pick_elite);

  // CMA-MAE: a candidate of `fitness` in `cell`: its value (fitness minus the threshold) and
  // the threshold moved toward the fitness when it passes.
  double pass_threshold(std::size_t cell, double fitness);

  // The insertions of the candidates ask() gave, in their order: each emitter's search moves
  // toward its best, or ends, to restart at the next ask().
  void tell(std::span<const Insertion> insertions);

  // Restarts so far, emitter by emitter.
  [[nodiscard]] std::vector<std::int64_t> restarts() const;

  // The thresholds and every emitter's search, for a checkpoint; restore() takes them back
  // and throws std::invalid_argument for numbers of another shape.
  [[nodiscard]] std::vector<double> state() const;
  void restore(std::span<const double> state);

 private:
  struct Emitter {
    std::optional<CmaEs> search;  // none: (re)start at the next ask
    std::int64_t restarts = 0;
  };

  const RealGenome& genome_half_;
  QdEmitter kind_;
  double sigma0_;
  double learning_rate_;
  std::size_t per_emitter_;
  std::vector<Emitter> emitters_;
  std::vector<double> thresholds_;               // cma_mae, per cell
  std::vector<std::vector<double>> candidates_;  // the last ask's, scaled to [0, 1]
};

}  // namespace levelforge
