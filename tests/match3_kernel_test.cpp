// The match3 kernel's GA operators, statistics and records (kernels/match3/match3.hpp).
#include "kernels/match3/match3.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

// ------------------------------------------------------------------------- qd measures

// A 5 x 10 grid without runs, colored (row + 2 * column) mod 5 (neighbours differ by 1 across
// rows and by 2 across columns), then with row 0 all color 0 (a run of 5) and column 4's
// bottom three cells color 1 (a run of 3; the cell above is 4 and the cells to their left
// are never equal to one another). Resolving removes the 8 blocks; column 4's rows 1..6 fall
// by 3 and make no new run (rows 4..9 then read r mod 5 there, never equal to column 3's
// (r + 1) mod 5). The board before play has 8 empty cells: row 0 of columns 0..3 and rows
// 0..3 of column 4.
Match3::Genome match3_two_run_grid() {
  Match3::Genome genome{0, std::vector<std::uint8_t>(50)};
  for (int row = 0; row < 10; ++row) {
    for (int column = 0; column < 5; ++column) {
      genome.colors[static_cast<std::size_t>(row) * 5 + static_cast<std::size_t>(column)] =
          static_cast<std::uint8_t>((row + 2 * column) % 5);
    }
  }
  for (int column = 0; column < 5; ++column) genome.colors[static_cast<std::size_t>(column)] = 0;
  for (std::size_t row = 7; row < 10; ++row) genome.colors[row * 5 + 4] = 1;
  return genome;
}

TEST(Match3Measures, EmptyFractionCountsTheResolvedBoardsEmptyCells) {
  const Match3 kernel(params_with<Match3>({{"genome", std::string("grid")}}));
  const auto genome = match3_two_run_grid();
  const auto cells = kernel.board(genome).cells;
  ASSERT_EQ(std::count(cells.begin(), cells.end(), match3::empty_cell), 8);
  for (int column = 0; column < 4; ++column) {
    EXPECT_EQ(cells[static_cast<std::size_t>(column)], match3::empty_cell) << column;
  }
  for (int row = 0; row < 4; ++row) {
    EXPECT_EQ(cells[static_cast<std::size_t>(row * 5 + 4)], match3::empty_cell) << row;
  }
  const Evaluation evaluation{0.5, {10.0, 2.0, 0.25, 0.75}};
  EXPECT_EQ(kernel.measure(genome, evaluation), (std::vector<double>{0.25, 8.0 / 50}));

  // Kept as generated (or rerolled), a board is full: nothing is empty.
  for (const char* const initial_runs : {"keep", "reroll"}) {
    const Match3 full(params_with<Match3>(
        {{"genome", std::string("grid")}, {"initial_runs", std::string(initial_runs)}}));
    EXPECT_EQ(full.measure(genome, evaluation)[1], 0.0) << initial_runs;
  }
}

TEST(Match3Measures, PIsTheOneTheFitnessUsed) {
  const Match3 normal(params_with<Match3>({{"target", 0.4}, {"playouts", std::int64_t{100}}}));
  const Match3 counted(params_with<Match3>(
      {{"target", 0.4}, {"playouts", std::int64_t{100}}, {"estimator", std::string("empirical")}}));
  // By hand: record (mean, std, p_normal, p_empirical) = (10, 2, 0.25, 0.75).
  const Evaluation by_hand{0.5, {10.0, 2.0, 0.25, 0.75}};
  const Match3::Genome genome{804118649U, {}};
  EXPECT_EQ(normal.measure(genome, by_hand)[0], 0.25);
  EXPECT_EQ(counted.measure(genome, by_hand)[0], 0.75);
  // On a real evaluation the measured p is the p of the fitness 1 - |target - p|, and the two
  // estimators differ on this board.
  auto first = rng_for(11);
  auto second = rng_for(11);
  const auto by_normal = normal.evaluate(genome, first);
  const auto by_count = counted.evaluate(genome, second);
  const double p_normal = normal.measure(genome, by_normal)[0];
  const double p_empirical = counted.measure(genome, by_count)[0];
  EXPECT_NE(p_normal, p_empirical);
  EXPECT_DOUBLE_EQ(by_normal.fitness, 1 - std::abs(0.4 - p_normal));
  EXPECT_DOUBLE_EQ(by_count.fitness, 1 - std::abs(0.4 - p_empirical));
}

TEST(Match3Measures, RandomGenomesMeasureInRange) {
  int boards_with_empty_cells = 0;
  for (const char* const encoding : {"seed", "grid"}) {
    for (const char* const estimator : {"normal", "empirical"}) {
      const Match3 kernel(params_with<Match3>({{"genome", std::string(encoding)},
                                               {"estimator", std::string(estimator)},
                                               {"playouts", std::int64_t{20}}}));
      const auto specs = kernel.measures();
      ASSERT_EQ(specs.size(), 2U);
      EXPECT_EQ(specs[0].name, "p");
      EXPECT_EQ(specs[1].name, "empty_fraction");
      for (std::uint64_t i = 0; i < 50; ++i) {
        auto rng = rng_for(100 + i);
        const auto genome = kernel.random_genome(rng);
        const auto evaluation = kernel.evaluate(genome, rng);
        const auto values = kernel.measure(genome, evaluation);
        ASSERT_EQ(values.size(), specs.size());
        for (std::size_t m = 0; m < specs.size(); ++m) {
          EXPECT_GE(values[m], specs[m].low) << specs[m].name;
          EXPECT_LE(values[m], specs[m].high) << specs[m].name;
        }
        std::vector<std::uint8_t> level(50);
        kernel.render_level(genome, level);
        const auto empty = std::count(level.begin(), level.end(), match3::empty_cell);
        EXPECT_DOUBLE_EQ(values[1] * 50, static_cast<double>(empty));
        boards_with_empty_cells += empty > 0 ? 1 : 0;
      }
    }
  }
  EXPECT_GT(boards_with_empty_cells, 20) << "resolved runs leave random boards holes";
}

}  // namespace
}  // namespace levelforge::kernels
