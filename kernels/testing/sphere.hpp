#pragma once
// The sphere function with the linear-projection measures of Fontaine et al. 2020 ("Covariance
// Matrix Adaptation for the Rapid Illumination of Behavior Space", GECCO), the benchmark on
// which CMA-ME and CMA-MAE were shown; defined as pyribs defines it. Fitness is
// 100 (1 - f(x) / f(-5.12, ..., -5.12)) for f(x) = sum (x_i - 2.048)^2, so 100 at the optimum
// x_i = 2.048 (0.4 x 5.12); each measure sums half of the genes, a gene outside [-5.12, 5.12]
// counting as 5.12 / x_i, which folds the space beyond that box back into it and makes the
// edges of the measure space hard to reach.

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/api/real_genome.hpp"

namespace levelforge::kernels {

class Sphere : public RealGenome {
 public:
  static constexpr std::string_view name = "sphere";
  static constexpr std::string_view summary =
      "shifted sphere with linear-projection measures (Fontaine et al. 2020; a test kernel)";
  static constexpr Capabilities capabilities{Capability::ga, Capability::measures,
                                             Capability::real_genome};

  static constexpr double fold = 5.12;  // the box beyond which a gene's projection folds back
  static constexpr double optimum = 0.4 * fold;

  static std::vector<ParamSpec> parameters() {
    return {int_param("dimension", 20, 2, 100'000, "genes in a genome"),
            real_param("bound", 2 * fold, 0.01, 1e6,
                       "each gene lies in [-bound, bound]; beyond 5.12 its projection folds back")};
  }

  explicit Sphere(const ParamSet& params)
      : RealGenome(std::vector<GeneBounds>(static_cast<std::size_t>(params.integer("dimension")),
                                           {-params.real("bound"), params.real("bound")})),
        worst_(static_cast<double>(genome_length()) * (fold + optimum) * (fold + optimum)) {}

  // Standard normal genes, clipped to the bounds: where the papers' and pyribs' searches
  // start (RealGenome's uniform genes would start most of them beyond the fold).
  Genome random_genome(Rng& rng) const {
    Genome genome(genome_length());
    for (std::size_t i = 0; i < genome.size(); ++i) genome[i] = bounds()[i].clip(rng.normal());
    return genome;
  }

  static std::vector<FieldSpec> evaluation_fields() {
    return {real_field("sphere", "sum over genes of (x - 2.048)^2, 0 at the optimum")};
  }

  Evaluation evaluate(const Genome& genome, Rng& /*rng*/) const {
    double sphere = 0;
    for (const double gene : genome) sphere += (gene - optimum) * (gene - optimum);
    return {100 * (1 - sphere / worst_), {sphere}};
  }

  // The first genome_length() / 2 genes, then the others; a half's range is its genes times
  // [-5.12, 5.12], the most the folded projection can reach.
  std::vector<MeasureSpec> measures() const {
    const auto [first, second] = halves();
    return {{"projection_first", -first * fold, first * fold,
             "sum of the first half's genes, each beyond +-5.12 as 5.12 / x"},
            {"projection_second", -second * fold, second * fold,
             "sum of the second half's genes, each beyond +-5.12 as 5.12 / x"}};
  }

  std::vector<double> measure(const Genome& genome, const Evaluation& /*evaluation*/) const {
    const auto half = genome_length() / 2;
    std::vector<double> sums(2, 0.0);
    for (std::size_t i = 0; i < genome.size(); ++i) {
      const double gene = genome[i];
      sums[i < half ? 0 : 1] += std::abs(gene) <= fold ? gene : fold / gene;
    }
    return sums;
  }

 private:
  [[nodiscard]] std::pair<double, double> halves() const {
    const auto half = genome_length() / 2;
    return {static_cast<double>(half), static_cast<double>(genome_length() - half)};
  }

  double worst_;  // f(-5.12, ..., -5.12)
};

static_assert(capabilities_hold<Sphere>());

}  // namespace levelforge::kernels
