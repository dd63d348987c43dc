#include "kernels/api/real_genome.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "tests/random_cases.hpp"

namespace levelforge {
namespace {

const std::vector<GeneBounds> mixed_bounds{{-1, 1}, {0, 10}, {-5.12, 5.12}, {2, 2.5}};

bool within(const RealGenome& genome_half, const RealGenome::Genome& genome) {
  for (std::size_t i = 0; i < genome.size(); ++i) {
    const auto& bounds = genome_half.bounds()[i];
    if (!(genome[i] >= bounds.low && genome[i] <= bounds.high)) return false;
  }
  return true;
}

TEST(GeneBounds, ClipsToTheClosedInterval) {
  const GeneBounds bounds{-2, 3};
  EXPECT_EQ(bounds.clip(-2.5), -2);
  EXPECT_EQ(bounds.clip(-2), -2);
  EXPECT_EQ(bounds.clip(0.25), 0.25);
  EXPECT_EQ(bounds.clip(3), 3);
  EXPECT_EQ(bounds.clip(7), 3);
  EXPECT_EQ(bounds.width(), 5);
}

TEST(RealGenome, RandomGenomesFillEachGenesBounds) {
  const RealGenome genome_half(mixed_bounds);
  std::vector<double> lowest(mixed_bounds.size(), 1e9);
  std::vector<double> highest(mixed_bounds.size(), -1e9);
  for (int i = 0; i < testing::random_cases(2000); ++i) {
    Rng rng({1, Stream::init, 0, 0, static_cast<std::uint64_t>(i)});
    const auto genome = genome_half.random_genome(rng);
    ASSERT_EQ(genome.size(), mixed_bounds.size());
    ASSERT_TRUE(within(genome_half, genome));
    for (std::size_t g = 0; g < genome.size(); ++g) {
      lowest[g] = std::min(lowest[g], genome[g]);
      highest[g] = std::max(highest[g], genome[g]);
    }
  }
  // The extremes of 200+ uniform draws lie within 5% of each end (chance of failing < 1e-4).
  for (std::size_t g = 0; g < mixed_bounds.size(); ++g) {
    EXPECT_LT(lowest[g], mixed_bounds[g].low + 0.05 * mixed_bounds[g].width()) << g;
    EXPECT_GT(highest[g], mixed_bounds[g].high - 0.05 * mixed_bounds[g].width()) << g;
  }
}

TEST(RealGenome, MutationStepsScaleWithRateAndWidthAndStayWithinBounds) {
  const RealGenome genome_half({{-100, 100}});
  // Far from the bounds, the step's standard deviation is rate x width = 0.01 x 200 = 2.
  double squares = 0;
  const int cases = testing::random_cases(4000);
  for (int i = 0; i < cases; ++i) {
    Rng rng({2, Stream::mutation, 0, 0, static_cast<std::uint64_t>(i)});
    RealGenome::Genome genome{0.0};
    genome_half.mutate(genome, 0.01, rng);
    squares += genome[0] * genome[0];
  }
  EXPECT_NEAR(std::sqrt(squares / cases), 2, 0.25);

  const RealGenome mixed(mixed_bounds);
  for (int i = 0; i < testing::random_cases(2000); ++i) {
    Rng rng({3, Stream::mutation, 0, 0, static_cast<std::uint64_t>(i)});
    auto genome = mixed.random_genome(rng);
    mixed.mutate(genome, 0.5, rng);
    ASSERT_TRUE(within(mixed, genome)) << "case " << i;
  }
  Rng rng({4, Stream::mutation, 0, 0, 0});
  RealGenome::Genome unchanged{0.5, 5, 1, 2.25};
  mixed.mutate(unchanged, 0, rng);
  EXPECT_EQ(unchanged, (RealGenome::Genome{0.5, 5, 1, 2.25}));
}

// Simulated binary crossover spreads the children symmetrically about the parents' mean, so
// a gene's two children sum to its two parents' sum where neither child was clipped; a gene
// is crossed or left, never half of each.
TEST(RealGenome, CrossoverKeepsTheParentsMeanGeneByGene) {
  const RealGenome genome_half(std::vector<GeneBounds>(8, {-1000, 1000}));
  int crossed = 0;
  int genes = 0;
  for (int i = 0; i < testing::random_cases(1000); ++i) {
    Rng init({5, Stream::init, 0, 0, static_cast<std::uint64_t>(i)});
    RealGenome::Genome a(8);
    RealGenome::Genome b(8);
    for (auto& gene : a) gene = init.uniform() * 10 - 5;
    for (auto& gene : b) gene = init.uniform() * 10 - 5;
    Rng rng({5, Stream::crossover, 0, 0, static_cast<std::uint64_t>(i)});
    const auto [first, second] = genome_half.crossover(a, b, rng);
    for (std::size_t g = 0; g < a.size(); ++g) {
      ++genes;
      if (first[g] == a[g] && second[g] == b[g]) continue;
      ++crossed;
      EXPECT_NEAR(first[g] + second[g], a[g] + b[g], 1e-9) << "case " << i << ", gene " << g;
    }
  }
  // Each gene is crossed with probability 1/2.
  EXPECT_NEAR(static_cast<double>(crossed) / genes, 0.5, 0.05);
}

// A crossed gene's two values go to either child alike: without that swap a child stays its
// own parent plus noise.
TEST(RealGenome, CrossedGenesGoToEitherChildAlike) {
  const RealGenome genome_half(std::vector<GeneBounds>(8, {-1000, 1000}));
  int crossed = 0;
  int swapped = 0;
  for (int i = 0; i < testing::random_cases(1000); ++i) {
    const RealGenome::Genome a(8, -1.0);
    const RealGenome::Genome b(8, 1.0);
    Rng rng({9, Stream::crossover, 0, 0, static_cast<std::uint64_t>(i)});
    const auto [first, second] = genome_half.crossover(a, b, rng);
    for (std::size_t g = 0; g < a.size(); ++g) {
      if (first[g] == a[g] && second[g] == b[g]) continue;
      ++crossed;
      if (first[g] > 0) ++swapped;  // the first child took the value on the second's side
    }
  }
  EXPECT_NEAR(static_cast<double>(swapped) / crossed, 0.5, 0.05);
}

// Polynomial mutation moves a gene with the given probability, never past its bounds, by
// steps that shrink as the distribution index grows; from the middle of its range it moves
// either way alike.
TEST(RealGenome, PolynomialMutationMovesGenesWithItsProbabilityWithinBounds) {
  const RealGenome genome_half(std::vector<GeneBounds>(10, {-2, 2}));
  const auto mean_step = [&](double probability, double index, double start) {
    double total = 0;
    double moved = 0;
    double signed_total = 0;
    const int cases = testing::random_cases(2000);
    for (int i = 0; i < cases; ++i) {
      RealGenome::Genome genome(10, start);
      Rng rng({10, Stream::mutation, 0, 0, static_cast<std::uint64_t>(i)});
      genome_half.polynomial_mutation(genome, probability, index, rng);
      for (const double gene : genome) {
        EXPECT_TRUE(gene >= -2 && gene <= 2) << gene;
        if (gene == start) continue;
        moved += 1;
        total += std::abs(gene - start);
        signed_total += gene - start;
      }
    }
    return std::tuple{moved / (10.0 * cases), total / moved, signed_total / moved};
  };
  const auto [share, step, drift] = mean_step(0.3, 20, 0);
  EXPECT_NEAR(share, 0.3, 0.02);
  EXPECT_NEAR(drift, 0, 0.01);
  EXPECT_GT(std::get<1>(mean_step(0.3, 2, 0)), 3 * step);
  // Next to a bound: never beyond it.
  (void)mean_step(1.0, 2, 1.999);
  RealGenome::Genome unchanged(10, 0.5);
  Rng rng({10, Stream::mutation, 1, 0, 0});
  genome_half.polynomial_mutation(unchanged, 0, 20, rng);
  EXPECT_EQ(unchanged, RealGenome::Genome(10, 0.5));
}

TEST(RealGenome, CrossoverChildrenStayWithinBounds) {
  const RealGenome genome_half(mixed_bounds);
  for (int i = 0; i < testing::random_cases(2000); ++i) {
    Rng rng({6, Stream::crossover, 0, 0, static_cast<std::uint64_t>(i)});
    const auto a = genome_half.random_genome(rng);
    const auto b = genome_half.random_genome(rng);
    const auto [first, second] = genome_half.crossover(a, b, rng);
    ASSERT_TRUE(within(genome_half, first)) << "case " << i;
    ASSERT_TRUE(within(genome_half, second)) << "case " << i;
  }
}

TEST(RealGenome, EncodingKeepsEveryBit) {
  const RealGenome genome_half(std::vector<GeneBounds>(6, {-1, 1}));
  const RealGenome::Genome genome{-0.0, 0.0, std::numeric_limits<double>::denorm_min(),
                                  0.1,  -1,  std::nextafter(1.0, 0.0)};
  std::vector<std::int64_t> stored(genome.size());
  genome_half.encode(genome, stored);
  EXPECT_EQ(stored[4], std::bit_cast<std::int64_t>(-1.0));
  const auto decoded = genome_half.decode(stored);
  for (std::size_t g = 0; g < genome.size(); ++g) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(decoded[g]), std::bit_cast<std::uint64_t>(genome[g]))
        << g;
  }
}

}  // namespace
}  // namespace levelforge
