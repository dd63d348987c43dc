// The match3 kernel's GA operators, statistics and records (kernels/match3/match3.hpp).
#include "kernels/match3/match3.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/kernel_params.hpp"

namespace levelforge::kernels {
namespace {

using testing::params_with;

Rng rng_for(std::uint64_t individual) { return Rng({1, Stream::init, 0, 0, individual}); }

TEST(Match3Stats, HandComputedSummary) {
  const std::vector<double> scores{10, 20, 30};
  const auto stats = match3::summarize(scores, 15);
  EXPECT_DOUBLE_EQ(stats.mean, 20);
  EXPECT_DOUBLE_EQ(stats.std, 10);                         // sample std: sqrt((100 + 0 + 100) / 2)
  EXPECT_NEAR(stats.p_normal, 0.6914624612740131, 1e-12);  // P(Z > -0.5)
  EXPECT_DOUBLE_EQ(stats.p_empirical, 2.0 / 3);
}

TEST(Match3Stats, ZeroSpreadIsAStep) {
  const std::vector<double> scores{16, 16};
  EXPECT_EQ(match3::summarize(scores, 15).p_normal, 1.0);
  EXPECT_EQ(match3::summarize(scores, 16).p_normal, 0.0);  // "exceeds": 16 > 16 is false
}

TEST(Match3Kernel, SeedCrossoverTakesEachBitFromAParent) {
  const Match3 kernel(params_with<Match3>({}));
  const Match3::Genome a{0xFFFF0000U, {}};
  const Match3::Genome b{0x0000FFFFU, {}};
  for (std::uint64_t i = 0; i < 50; ++i) {
    auto rng = rng_for(i);
    const auto [first, second] = kernel.crossover(a, b, rng);
    // One cut: the low bits of one parent and the high bits of the other.
    EXPECT_EQ(first.gene ^ second.gene, a.gene ^ b.gene);
    EXPECT_EQ(first.gene & second.gene, a.gene & b.gene);
  }
}

TEST(Match3Kernel, GridCrossoverSwapsARectangle) {
  const Match3 kernel(params_with<Match3>({{"genome", std::string("grid")}}));
  Match3::Genome a{0, std::vector<std::uint8_t>(50, 1)};
  Match3::Genome b{0, std::vector<std::uint8_t>(50, 2)};
  for (std::uint64_t i = 0; i < 50; ++i) {
    auto rng = rng_for(i);
    const auto [first, second] = kernel.crossover(a, b, rng);
    int rows_min = 10, rows_max = -1, cols_min = 5, cols_max = -1, swapped = 0;
    for (int cell = 0; cell < 50; ++cell) {
      const auto c = static_cast<std::size_t>(cell);
      EXPECT_EQ(first.colors[c] + second.colors[c], 3);
      if (first.colors[c] == 2) {
        ++swapped;
        rows_min = std::min(rows_min, cell / 5);
        rows_max = std::max(rows_max, cell / 5);
        cols_min = std::min(cols_min, cell % 5);
        cols_max = std::max(cols_max, cell % 5);
      }
    }
    ASSERT_GT(swapped, 0);
    EXPECT_EQ(swapped, (rows_max - rows_min + 1) * (cols_max - cols_min + 1)) << "a rectangle";
  }
}

TEST(Match3Kernel, MutationRates) {
  const Match3 seed_kernel(params_with<Match3>({}));
  Match3::Genome genome{0x12345678U, {}};
  auto rng = rng_for(0);
  seed_kernel.mutate(genome, 0.0, rng);
  EXPECT_EQ(genome.gene, 0x12345678U);
  seed_kernel.mutate(genome, 1.0, rng);
  EXPECT_EQ(genome.gene, ~0x12345678U);

  const Match3 grid_kernel(params_with<Match3>({{"genome", std::string("grid")}}));
  Match3::Genome grid{0, std::vector<std::uint8_t>(50, 3)};
  grid_kernel.mutate(grid, 1.0, rng);
  for (auto color : grid.colors) {
    EXPECT_NE(color, 3) << "recolored to another color";
    EXPECT_LT(color, 5);
  }
}

TEST(Match3Kernel, EncodeDecodeRoundTrip) {
  const Match3 seed_kernel(params_with<Match3>({}));
  std::vector<std::int64_t> stored(1);
  seed_kernel.encode({static_cast<std::uint32_t>(-977507440), {}}, stored);
  EXPECT_EQ(stored[0], -977507440) << "the paper's signed spelling";
  EXPECT_EQ(seed_kernel.decode(stored).gene, static_cast<std::uint32_t>(-977507440));

  const Match3 grid_kernel(params_with<Match3>({{"genome", std::string("grid")}}));
  auto rng = rng_for(3);
  const auto genome = grid_kernel.random_genome(rng);
  std::vector<std::int64_t> cells(grid_kernel.genome_length());
  grid_kernel.encode(genome, cells);
  EXPECT_EQ(grid_kernel.decode(cells).colors, genome.colors);
}

TEST(Match3Kernel, FitnessIsOneMinusDistanceToTarget) {
  const Match3 normal(params_with<Match3>({{"target", 0.4}, {"playouts", std::int64_t{300}}}));
  const Match3 counted(params_with<Match3>(
      {{"target", 0.4}, {"playouts", std::int64_t{300}}, {"estimator", std::string("empirical")}}));
  const Match3::Genome genome{804118649U, {}};
  auto first = rng_for(9);
  auto second = rng_for(9);
  const auto by_normal = normal.evaluate(genome, first);
  const auto by_count = counted.evaluate(genome, second);
  const double p_normal = std::get<double>(by_normal.record[2]);
  const double p_empirical = std::get<double>(by_normal.record[3]);
  EXPECT_DOUBLE_EQ(by_normal.fitness, 1 - std::abs(0.4 - p_normal));
  EXPECT_DOUBLE_EQ(by_count.fitness, 1 - std::abs(0.4 - p_empirical));
  EXPECT_EQ(by_normal.record, by_count.record) << "same playouts, same statistics";
}

TEST(Match3Kernel, EvaluationIsAFunctionOfItsStream) {
  const Match3 kernel(params_with<Match3>({{"playouts", std::int64_t{50}}}));
  const Match3::Genome genome{67428686U, {}};
  auto a = rng_for(4);
  auto b = rng_for(4);
  auto c = rng_for(5);
  const auto first = kernel.evaluate(genome, a);
  EXPECT_EQ(first.record, kernel.evaluate(genome, b).record);
  EXPECT_NE(first.record, kernel.evaluate(genome, c).record);
}

TEST(Match3Kernel, LevelIsTheBoardBeforePlay) {
  const Match3 kernel(
      params_with<Match3>({{"width", std::int64_t{6}}, {"height", std::int64_t{4}}}));
  EXPECT_EQ(kernel.level_shape(), (std::vector<std::size_t>{4, 6}));
  const Match3::Genome genome{123U, {}};
  std::vector<std::uint8_t> level(24);
  kernel.render_level(genome, level);
  EXPECT_EQ(level, kernel.board(genome).cells);
}

TEST(Match3Kernel, SweepRunReportsItsGene) {
  const Match3 kernel(
      params_with<Match3>({{"gene", std::int64_t{-977507440}}, {"playouts", std::int64_t{20}}}));
  auto rng = rng_for(1);
  const auto record = kernel.run(rng);
  ASSERT_EQ(record.size(), Match3::record_fields().size());
  EXPECT_EQ(std::get<std::int64_t>(record[0]), -977507440);
}

}  // namespace
}  // namespace levelforge::kernels
