#pragma once
// The ZDT1, ZDT2 and ZDT3 problems of Zitzler, Deb & Thiele 2000 ("Comparison of
// Multiobjective Evolutionary Algorithms: Empirical Results"), on which Deb et al. 2002 showed
// NSGA-II: minimize f1 = x1 and f2 = g h(f1, g), g = 1 + 9 sum(x2..xn) / (n - 1), every gene in
// [0, 1]. The Pareto front is g = 1 (x2..xn = 0): f2 = 1 - sqrt(f1) (ZDT1, convex),
// 1 - f1^2 (ZDT2, concave), 1 - sqrt(f1) - f1 sin(10 pi f1) (ZDT3, five disconnected pieces).
// Its variation is Deb's: simulated binary crossover and polynomial mutation, both of
// distribution index 20, ga.mutation_rate the probability that a gene mutates (1 / n in the
// paper).

#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/api/real_genome.hpp"

namespace levelforge::kernels {

class Zdt : public RealGenome {
 public:
  static constexpr std::string_view name = "zdt";
  static constexpr std::string_view summary =
      "the ZDT1-3 two-objective problems (Zitzler, Deb & Thiele 2000; a test kernel)";
  static constexpr Capabilities capabilities{Capability::ga, Capability::real_genome,
                                             Capability::objectives};

  static constexpr double variation_index = 20;  // Deb et al. 2002's eta_c and eta_m
  static constexpr double reference = 1.1;       // the hypervolume's reference in f1 and f2

  static std::vector<ParamSpec> parameters() {
    return {int_param("problem", 1, 1, 3,
                      "1, 2 or 3: ZDT1 (convex front), ZDT2 (concave), "
                      "ZDT3 (disconnected)"),
            int_param("dimension", 30, 2, 100'000, "genes in a genome (30 in the paper)")};
  }

  explicit Zdt(const ParamSet& params)
      : RealGenome(std::vector<GeneBounds>(static_cast<std::size_t>(params.integer("dimension")),
                                           {0.0, 1.0})),
        problem_(params.integer("problem")) {}

  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const {
    return simulated_binary_crossover(a, b, variation_index, rng);
  }
  void mutate(Genome& genome, double rate, Rng& rng) const {
    polynomial_mutation(genome, rate, variation_index, rng);
  }

  static std::vector<FieldSpec> evaluation_fields() {
    return {real_field("f1", "first objective, x1 (minimized)"),
            real_field("f2", "second objective, g h(f1, g) (minimized)"),
            real_field("g", "1 + 9 mean(x2..xn): 1 on the Pareto front")};
  }

  // Fitness, for a single-objective GA: -(f1 + f2).
  Evaluation evaluate(const Genome& genome, Rng& /*rng*/) const {
    double rest = 0;
    for (std::size_t i = 1; i < genome.size(); ++i) rest += genome[i];
    const double g = 1 + 9 * rest / static_cast<double>(genome.size() - 1);
    const double f1 = genome[0];
    const double ratio = f1 / g;
    double h = 0;
    switch (problem_) {
      case 1: h = 1 - std::sqrt(ratio); break;
      case 2: h = 1 - ratio * ratio; break;
      default: h = 1 - std::sqrt(ratio) - ratio * std::sin(10 * std::numbers::pi * f1); break;
    }
    const double f2 = g * h;
    return {-(f1 + f2), {f1, f2, g}};
  }

  [[nodiscard]] std::vector<ObjectiveSpec> objectives() const {
    return {{"f1", true, reference, "x1, the position along the front"},
            {"f2", true, reference, "g h(f1, g), which the front trades against f1"}};
  }

 private:
  std::int64_t problem_;
};

static_assert(capabilities_hold<Zdt>());

}  // namespace levelforge::kernels
