#pragma once
// The genome half of a GaKernel over vectors of reals, each gene within its own bounds, for
// a kernel to inherit (kernels/testing/sphere.hpp). The runner knows such a genome
// (Capability::real_genome): it writes genomes as float64, and the search algorithms made for
// real vectors (Gaussian and line variation, CMA-ES) work on it within bounds().

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "kernels/api/rng.hpp"

namespace levelforge {

struct GeneBounds {
  double low = 0;
  double high = 1;

  [[nodiscard]] double clip(double value) const {
    return value < low ? low : (value > high ? high : value);
  }
  [[nodiscard]] double width() const { return high - low; }
};

class RealGenome {
 public:
  using Genome = std::vector<double>;

  // Simulated binary crossover's distribution index (Deb & Agrawal 1995) as NSGA-II uses it:
  // larger keeps children nearer their parents.
  static constexpr double crossover_index = 15;

  // Every bound finite with low < high (KernelError otherwise, from the kernel's checks).
  explicit RealGenome(std::vector<GeneBounds> bounds) : bounds_(std::move(bounds)) {}

  [[nodiscard]] const std::vector<GeneBounds>& bounds() const { return bounds_; }
  [[nodiscard]] std::size_t genome_length() const { return bounds_.size(); }

  // Each gene uniform within its bounds.
  Genome random_genome(Rng& rng) const {
    Genome genome(bounds_.size());
    for (std::size_t i = 0; i < genome.size(); ++i)
      genome[i] = bounds_[i].low + rng.uniform() * bounds_[i].width();
    return genome;
  }

  // Simulated binary crossover, gene by gene with probability 1/2 (a gene not crossed keeps
  // its parent's value), children clipped to the bounds.
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const {
    return simulated_binary_crossover(a, b, crossover_index, rng);
  }

  // Every gene takes a Gaussian step of standard deviation `rate` times its bounds' width,
  // clipped to the bounds.
  void mutate(Genome& genome, double rate, Rng& rng) const {
    for (std::size_t i = 0; i < bounds_.size(); ++i)
      genome[i] = bounds_[i].clip(genome[i] + rate * bounds_[i].width() * rng.normal());
  }

  // crossover() with distribution index `index`. A crossed gene's two values go to the
  // children in random order, as in Deb's code and pymoo's: without that swap a
  // child is its own parent plus noise, and the genes of two parents never combine (NSGA-II
  // on ZDT1 then ends at g = 1.6 instead of 1.00). Every gene draws three times, crossed or
  // not.
  std::pair<Genome, Genome> simulated_binary_crossover(const Genome& a, const Genome& b,
                                                       double index, Rng& rng) const {
    std::pair<Genome, Genome> children{a, b};
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
      const double u = rng.uniform();
      const bool crossed = rng.bernoulli(0.5);
      const bool swapped = rng.bernoulli(0.5);
      if (!crossed) continue;
      const double spread = u <= 0.5 ? std::pow(2 * u, 1 / (index + 1))
                                     : std::pow(1 / (2 * (1 - u)), 1 / (index + 1));
      const double mean = (a[i] + b[i]) / 2;
      const double half = spread * (b[i] - a[i]) / 2;
      children.first[i] = bounds_[i].clip(swapped ? mean + half : mean - half);
      children.second[i] = bounds_[i].clip(swapped ? mean - half : mean + half);
    }
    return children;
  }

  // Deb's polynomial mutation as his NSGA-II code bounds it: each gene with probability
  // `probability` moves by a step whose spread shrinks with `index`, never past its bounds.
  // Every gene draws twice, mutated or not.
  void polynomial_mutation(Genome& genome, double probability, double index, Rng& rng) const {
    const double power = 1 / (index + 1);
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
      const double u = rng.uniform();
      if (!rng.bernoulli(probability)) continue;
      const auto& bounds = bounds_[i];
      const double below = (genome[i] - bounds.low) / bounds.width();
      const double above = (bounds.high - genome[i]) / bounds.width();
      double step = 0;
      if (u <= 0.5) {
        const double value = 2 * u + (1 - 2 * u) * std::pow(1 - below, index + 1);
        step = std::pow(value, power) - 1;
      } else {
        const double value = 2 * (1 - u) + 2 * (u - 0.5) * std::pow(1 - above, index + 1);
        step = 1 - std::pow(value, power);
      }
      genome[i] = bounds.clip(genome[i] + step * bounds.width());
    }
  }

  // A gene's stored form is its float64's bits, so that a checkpoint restores it exactly.
  void encode(const Genome& genome, std::span<std::int64_t> out) const {
    for (std::size_t i = 0; i < genome.size(); ++i) out[i] = std::bit_cast<std::int64_t>(genome[i]);
  }
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const {
    Genome genome(bounds_.size());
    for (std::size_t i = 0; i < genome.size(); ++i) genome[i] = std::bit_cast<double>(stored[i]);
    return genome;
  }

 private:
  std::vector<GeneBounds> bounds_;
};

}  // namespace levelforge
