#pragma once
// The `spawn` kernel (docs/spawn.md): enemies chosen for each level by recency-weighted
// random selection under a difficulty budget (the Treasure Rogue document's
// WeightedMultiSpawnLevelProcessor), measured over many long runs (sweep), and its weight
// increment, decay and max ratios tuned for variety under an error bound (ga).

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/spawn/curve.hpp"
#include "kernels/spawn/selection.hpp"
#include "kernels/spawn/simulation.hpp"

namespace levelforge::kernels {

// The genome is real (RealGenome): [0] the weight increment in [0, max_increment], [1] the
// recency decay in [0, 1], then each object's max ratio in [0, 1], in table order.
class Spawn : public RealGenome {
 public:
  static constexpr std::string_view name = "spawn";
  static constexpr std::string_view summary =
      "enemy spawns by recency-weighted selection under a difficulty budget, over long runs";
  static constexpr Capabilities capabilities{
      Capability::ga,    Capability::validate,        Capability::measures,
      Capability::sweep, Capability::memory_estimate, Capability::real_genome};

  static std::vector<ParamSpec> parameters();
  explicit Spawn(const ParamSet& params);

  // A kernel holds each level's required difficulty and plan (15 MB at 100,000 levels); a GA
  // evaluation or validation builds a simulator of the genome's rules, with plans of its own.
  static MemoryEstimate memory_estimate(const ParamSet& params);

  // sweep driver: `runs` runs of `levels` levels.
  static std::vector<FieldSpec> record_fields();
  Record run(Rng& rng) const;

  // ga driver: fitness 1 - repetition while error_share <= max_error_share, else
  // -(error_share - max_error_share).
  static std::vector<FieldSpec> evaluation_fields();
  // Random genomes, encoding: RealGenome's (uniform genes; a gene's float64 bits).
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const;
  void mutate(Genome& genome, double rate, Rng& rng) const;
  Evaluation evaluate(const Genome& genome, Rng& rng) const;
  // RealGenome's, refusing a gene outside its bounds (a file of another object table).
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const;
  // The kept genomes measured again over validation_runs runs.
  static std::vector<FieldSpec> validation_fields();
  Record validate(const Genome& genome, Rng& rng) const;

  // qd driver: enemy types per level and the mean longest absence of an enemy, both from the
  // evaluation (docs/spawn.md, "Measures").
  [[nodiscard]] std::vector<MeasureSpec> measures() const;
  [[nodiscard]] std::vector<double> measure(const Genome& genome,
                                            const Evaluation& evaluation) const;

  [[nodiscard]] const spawn::Simulator& simulator() const { return simulator_; }
  [[nodiscard]] const std::vector<double>& required() const { return required_; }
  // The rules and object table a genome stands for.
  [[nodiscard]] spawn::Simulator simulator_for(const Genome& genome) const;

 private:
  // The ga driver's fitness of measured metrics: evaluations and validations score alike.
  [[nodiscard]] double fitness(const spawn::Metrics& metrics) const;

  std::vector<spawn::SpawnObject> objects_;
  std::vector<double> required_;
  spawn::Rules rules_;
  spawn::Simulator simulator_;
  std::int64_t runs_;
  std::int64_t validation_runs_;
  double max_error_share_;
};

static_assert(capabilities_hold<Spawn>());

}  // namespace levelforge::kernels
