#pragma once
// The `monsters` kernel: JSwing's motive-driven monster AI (docs/monsters.md) played out in
// many independent worlds per task. The sweep measures how the hero fares and which motives
// win; the GA evolves one species' motive weights and strength to a target hero survival.

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/monsters/simulation.hpp"

namespace levelforge::kernels {

// The genome is real (RealGenome): the evolved species' aggression, fear, desire, wander,
// misc and strength, each within its range; the game reads each rounded to the whole stat the
// document's rules count in. The GA's own operators keep the genes whole.
class Monsters : public RealGenome {
 public:
  static constexpr std::string_view name = "monsters";
  static constexpr std::string_view summary =
      "JSwing's monster AI (motives in 8 directions) in batches of worlds, tuned to a hero "
      "survival target";
  static constexpr Capabilities capabilities{Capability::ga,         Capability::validate,
                                             Capability::measures,   Capability::sweep,
                                             Capability::objectives, Capability::real_genome};

  static std::vector<ParamSpec> parameters();
  explicit Monsters(const ParamSet& params);

  // sweep driver
  static std::vector<FieldSpec> record_fields();
  Record run(Rng& rng) const;

  // ga driver
  static std::vector<FieldSpec> evaluation_fields();
  // Whole genes, uniform in their ranges.
  Genome random_genome(Rng& rng) const;
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const;
  void mutate(Genome& genome, double rate, Rng& rng) const;
  Evaluation evaluate(const Genome& genome, Rng& rng) const;
  // RealGenome's, refusing a gene outside its range (or NaN).
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const;

  // The final best genomes are measured again with fresh worlds.
  static std::vector<FieldSpec> validation_fields();
  Record validate(const Genome& genome, Rng& rng) const;

  // qd driver: the hero's survival and how often the monsters flee rather than fight, both
  // from the evaluation (docs/monsters.md, "Measures").
  [[nodiscard]] std::vector<MeasureSpec> measures() const;
  // NSGA-II (docs/monsters.md, "Two objectives"): the fitness against the hero's turns.
  [[nodiscard]] std::vector<ObjectiveSpec> objectives() const;
  [[nodiscard]] std::vector<double> measure(const Genome& genome,
                                            const Evaluation& evaluation) const;

  [[nodiscard]] const monsters::Scenario& scenario() const { return scenario_; }

 private:
  // 1 - |target - p|: evaluations and validations score alike.
  [[nodiscard]] double fitness(double p_survive) const;

  monsters::Scenario scenario_;
  monsters::Layout layout_;
  monsters::Scoring scoring_;
  int width_;
  int height_;
  std::int64_t worlds_;
  std::int64_t validation_worlds_;
  double target_;
};

static_assert(capabilities_hold<Monsters>());

}  // namespace levelforge::kernels
