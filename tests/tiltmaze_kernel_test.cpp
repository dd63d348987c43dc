// The tiltmaze kernel's generation, GA operators and records (kernels/tiltmaze/tiltmaze.hpp).
#include "kernels/tiltmaze/tiltmaze.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/solver.hpp"
#include "tests/kernel_params.hpp"

namespace levelforge::kernels {
namespace {

using testing::params_with;

using tiltmaze::Maze;

Rng maze_rng_for(std::uint64_t individual) { return Rng({7, Stream::init, 0, 0, individual}); }
Rng tilt_measure_rng(std::uint64_t individual) {
  return Rng({8, Stream::evaluation, 0, 0, individual});
}

// The 3 x 2 example of docs/tiltmaze.md. The ball never rests on the lower T (it rolls
// from one side of the bottom row to the other), so in stop mode it is unsolvable; in
// pass mode D R U collects both: D to the bottom-left, R over the lower T, U to the
// upper T.
const char* const example = R"(+-+-+-+
|S  |T|
+ +-+ +
|  T  |
+-+-+-+
)";

// Targets of a maze the kernel produced are distinct, sorted, off the start and, under
// `resting` placement, on cells the ball can rest on.
void expect_valid_targets(const Maze& maze, tiltmaze::Placement placement, std::size_t wanted) {
  const auto allowed = tiltmaze::target_candidates(maze, placement);
  EXPECT_TRUE(std::is_sorted(maze.targets.begin(), maze.targets.end()));
  EXPECT_EQ(std::set<int>(maze.targets.begin(), maze.targets.end()).size(), maze.targets.size());
  for (const int target : maze.targets) {
    EXPECT_NE(target, maze.start);
    EXPECT_TRUE(std::binary_search(allowed.begin(), allowed.end(), target)) << target;
  }
  EXPECT_EQ(maze.targets.size(), std::min(wanted, allowed.size()));
}

TEST(TiltMazeGeneration, DensityZeroAndOneGiveNoAndAllInnerWalls) {
  auto rng = maze_rng_for(0);
  tiltmaze::GenerationSpec spec{
      5, 4, 0.0, 2, tiltmaze::Placement::anywhere, tiltmaze::StartPlacement::corner};
  const auto open = tiltmaze::random_maze(spec, rng);
  EXPECT_EQ(std::count(open.east.begin(), open.east.end(), 1), 0);
  EXPECT_EQ(std::count(open.south.begin(), open.south.end(), 1), 0);
  spec.wall_density = 1.0;
  const auto closed = tiltmaze::random_maze(spec, rng);
  EXPECT_EQ(std::count(closed.east.begin(), closed.east.end(), 1), 4 * 4);    // (W-1) * H
  EXPECT_EQ(std::count(closed.south.begin(), closed.south.end(), 1), 5 * 3);  // W * (H-1)
  EXPECT_EQ(closed.start, 0);
  // Every cell walled in: no resting cell but the start, so `resting` places nothing.
  spec.placement = tiltmaze::Placement::resting;
  EXPECT_TRUE(tiltmaze::random_maze(spec, rng).targets.empty());
}

TEST(TiltMazeGeneration, TargetsFollowThePlacement) {
  for (const auto placement : {tiltmaze::Placement::resting, tiltmaze::Placement::anywhere}) {
    for (std::uint64_t i = 0; i < 300; ++i) {
      auto rng = maze_rng_for(i);
      const tiltmaze::GenerationSpec spec{2 + static_cast<int>(i % 9),
                                          2 + static_cast<int>(i % 7),
                                          0.1 * static_cast<double>(i % 8),
                                          1 + static_cast<int>(i % 6),
                                          placement,
                                          tiltmaze::StartPlacement::random};
      const auto maze = tiltmaze::random_maze(spec, rng);
      expect_valid_targets(maze, placement, static_cast<std::size_t>(spec.targets));
    }
  }
}

TEST(TiltMazeGeneration, SameStreamSameMaze) {
  const tiltmaze::GenerationSpec spec;
  auto a = maze_rng_for(3);
  auto b = maze_rng_for(3);
  auto c = maze_rng_for(4);
  const auto first = tiltmaze::random_maze(spec, a);
  EXPECT_EQ(first, tiltmaze::random_maze(spec, b));
  EXPECT_NE(first, tiltmaze::random_maze(spec, c));
}

TEST(TiltMazeKernel, TooManyTargetsIsAKernelError) {
  EXPECT_THROW(
      TiltMaze(params_with<TiltMaze>(
          {{"width", std::int64_t{2}}, {"height", std::int64_t{2}}, {"targets", std::int64_t{4}}})),
      KernelError);
}

TEST(TiltMazeKernel, FitnessOfTheDocumentExample) {
  const auto maze = tiltmaze::parse_maze(example);
  auto rng = maze_rng_for(0);
  const TiltMaze pass(params_with<TiltMaze>({{"width", std::int64_t{3}},
                                             {"height", std::int64_t{2}},
                                             {"targets", std::int64_t{2}},
                                             {"collect", std::string("pass")},
                                             {"target_length", std::int64_t{5}}}));
  const auto solved = pass.evaluate(maze, rng);
  EXPECT_EQ(solved.fitness, -2.0);  // length 3, wanted 5
  ASSERT_EQ(solved.record.size(), TiltMaze::evaluation_fields().size());
  EXPECT_EQ(std::get<std::int64_t>(solved.record[0]), 1);
  EXPECT_EQ(std::get<std::int64_t>(solved.record[1]), 3);
  EXPECT_EQ(std::get<std::int64_t>(solved.record[2]), 1);
  EXPECT_EQ(std::get<std::int64_t>(solved.record[3]), 2);
  EXPECT_EQ(std::get<std::int64_t>(solved.record[4]), 5);  // every cell but the lower T
  // Inner walls: right of (0,1) and under (0,1).
  EXPECT_EQ(std::get<std::int64_t>(solved.record[6]), 2);
  EXPECT_EQ(std::get<std::string>(solved.record[7]), tiltmaze::to_compact(maze));

  const TiltMaze stop(params_with<TiltMaze>({{"width", std::int64_t{3}},
                                             {"height", std::int64_t{2}},
                                             {"targets", std::int64_t{2}},
                                             {"target_length", std::int64_t{5}}}));
  const auto unsolved = stop.evaluate(maze, rng);
  EXPECT_EQ(std::get<std::int64_t>(unsolved.record[0]), 0);
  EXPECT_EQ(std::get<std::int64_t>(unsolved.record[1]), -1);
  EXPECT_EQ(unsolved.fitness, -((2 + 1) * 6 + 5));
}

TEST(TiltMazeKernel, UnsolvableRanksBelowEverySolvable) {
  const TiltMaze kernel(params_with<TiltMaze>({{"width", std::int64_t{6}},
                                               {"height", std::int64_t{6}},
                                               {"targets", std::int64_t{2}},
                                               {"wall_density", 0.25},
                                               {"placement", std::string("anywhere")},
                                               {"target_length", std::int64_t{3}}}));
  double worst_solvable = 0;
  double best_unsolvable = -1e300;
  int solvable = 0;
  for (std::uint64_t i = 0; i < 400; ++i) {
    auto rng = maze_rng_for(i);
    const auto evaluation = kernel.evaluate(kernel.random_genome(rng), rng);
    if (std::get<std::int64_t>(evaluation.record[0]) != 0) {
      ++solvable;
      worst_solvable = std::min(worst_solvable, evaluation.fitness);
    } else {
      best_unsolvable = std::max(best_unsolvable, evaluation.fitness);
    }
  }
  EXPECT_GT(solvable, 20);
  EXPECT_LT(solvable, 380);
  EXPECT_LT(best_unsolvable, worst_solvable);
  EXPECT_EQ(best_unsolvable, -((2 + 1) * 36 + 3));
}

TEST(TiltMazeKernel, EncodeDecodeRoundTrip) {
  const TiltMaze kernel(params_with<TiltMaze>({{"start", std::string("random")}}));
  for (std::uint64_t i = 0; i < 100; ++i) {
    auto rng = maze_rng_for(i);
    const auto genome = kernel.random_genome(rng);
    std::vector<std::int64_t> stored(kernel.genome_length(), 99);
    kernel.encode(genome, stored);
    EXPECT_EQ(kernel.decode(stored), genome);
  }
}

TEST(TiltMazeKernel, MutationRateZeroKeepsRateOneFlipsEveryWall) {
  const TiltMaze kernel(params_with<TiltMaze>({}));
  auto rng = maze_rng_for(1);
  const auto genome = kernel.random_genome(rng);
  auto same = genome;
  kernel.mutate(same, 0.0, rng);
  EXPECT_EQ(same, genome);
  auto flipped = genome;
  kernel.mutate(flipped, 1.0, rng);
  for (int cell = 0; cell < 64; ++cell) {
    const auto c = static_cast<std::size_t>(cell);
    if (cell % 8 < 7) {
      EXPECT_NE(flipped.east[c], genome.east[c]) << cell;
    }
    if (cell / 8 < 7) {
      EXPECT_NE(flipped.south[c], genome.south[c]) << cell;
    }
  }
  EXPECT_EQ(flipped.start, 0);  // start: corner never moves
}

TEST(TiltMazeKernel, VariationKeepsTargetsValid) {
  for (const auto* placement : {"resting", "anywhere"}) {
    const TiltMaze kernel(params_with<TiltMaze>({{"placement", std::string(placement)},
                                                 {"start", std::string("random")},
                                                 {"targets", std::int64_t{5}}}));
    const auto kind = std::string(placement) == "resting" ? tiltmaze::Placement::resting
                                                          : tiltmaze::Placement::anywhere;
    for (std::uint64_t i = 0; i < 200; ++i) {
      auto rng = maze_rng_for(i);
      const auto a = kernel.random_genome(rng);
      const auto b = kernel.random_genome(rng);
      auto [first, second] = kernel.crossover(a, b, rng);
      kernel.mutate(first, 0.1, rng);
      for (const auto* child : {&first, &second}) expect_valid_targets(*child, kind, 5);
      // Walls come from one parent or the other, cell by cell.
      for (std::size_t c = 0; c < 64; ++c)
        EXPECT_EQ(second.east[c] == a.east[c] || second.east[c] == b.east[c], true);
    }
  }
}

TEST(TiltMazeKernel, RenderedLevelIsTheTextForm) {
  const TiltMaze kernel(params_with<TiltMaze>(
      {{"width", std::int64_t{3}}, {"height", std::int64_t{2}}, {"targets", std::int64_t{2}}}));
  const auto maze = tiltmaze::parse_maze(example);
  const auto shape = kernel.level_shape();
  ASSERT_EQ(shape, (std::vector<std::size_t>{5, 7}));
  std::vector<std::uint8_t> cells(std::size_t{5} * 7);
  kernel.render_level(maze, cells);
  std::string text;
  for (std::size_t row = 0; row < 5; ++row) {
    text.append(cells.begin() + static_cast<long>(row * 7),
                cells.begin() + static_cast<long>(row * 7 + 7));
    text += '\n';
  }
  EXPECT_EQ(text, example);
}

TEST(TiltMazeKernel, SweepRecordDescribesTheGeneratedMaze) {
  const TiltMaze kernel(params_with<TiltMaze>({{"targets", std::int64_t{2}}}));
  for (std::uint64_t i = 0; i < 50; ++i) {
    auto rng = maze_rng_for(i);
    const auto record = kernel.run(rng);
    ASSERT_EQ(record.size(), TiltMaze::record_fields().size());
    const auto maze = tiltmaze::from_compact(std::get<std::string>(record[7]));
    auto again = maze_rng_for(i);
    EXPECT_EQ(maze, tiltmaze::random_maze(tiltmaze::GenerationSpec{8, 8, 0.3, 2}, again));
    const auto solution = tiltmaze::shortest_solution(maze, tiltmaze::Collect::stop);
    EXPECT_EQ(std::get<std::int64_t>(record[0]), solution.solvable ? 1 : 0);
    EXPECT_EQ(std::get<std::int64_t>(record[1]), solution.length);
    EXPECT_EQ(std::get<std::int64_t>(record[4]),
              static_cast<std::int64_t>(tiltmaze::roll_graph(maze).resting.size()));
  }
}

// ------------------------------------------------------------------------- qd measures

// docs/tiltmaze.md's hardest one-target 4 x 4 maze (config 595218): 13 tilts,
// RDLDRURDRULDR. Inner walls counted on the drawing: east walls right of (0,1), (1,1), (2,2)
// and (3,1), south walls under (0,0), (1,1) and (1,2): 7 of the 3 x 4 + 4 x 3 = 24.
const char* const hardest_four_by_four = R"(+-+-+-+-+
|S  |   |
+-+ + + +
|   |  T|
+ +-+-+ +
|     | |
+ + + + +
|   |   |
+-+-+-+-+
)";

TEST(TiltMazeMeasures, HandCountedLengthAndWalls) {
  const TiltMaze kernel(params_with<TiltMaze>(
      {{"width", std::int64_t{4}}, {"height", std::int64_t{4}}, {"targets", std::int64_t{1}}}));
  const auto specs = kernel.measures();
  ASSERT_EQ(specs.size(), 2U);
  EXPECT_EQ(specs[0].name, "length");
  EXPECT_EQ(specs[0].low, 0);
  EXPECT_EQ(specs[0].high, (1 + 1) * (4 + 2));
  EXPECT_EQ(specs[1].name, "wall_density");
  EXPECT_EQ(specs[1].low, 0);
  EXPECT_EQ(specs[1].high, 1);

  const auto maze = tiltmaze::parse_maze(hardest_four_by_four);
  auto rng = tilt_measure_rng(0);
  const auto evaluation = kernel.evaluate(maze, rng);
  EXPECT_EQ(kernel.measure(maze, evaluation), (std::vector<double>{13, 7.0 / 24}));

  // The document's 3 x 2 example: walls right of (0,1) and under (0,1), 2 of 2 x 2 + 3 x 1 = 7.
  // Stop mode: unsolvable, length -1, below the range (the qd driver's first cell). Pass mode:
  // D R U, 3 tilts (two cannot reach the upper T).
  const auto example_maze = tiltmaze::parse_maze(example);
  const auto small = [](const char* collect) {
    return TiltMaze(params_with<TiltMaze>({{"width", std::int64_t{3}},
                                           {"height", std::int64_t{2}},
                                           {"targets", std::int64_t{2}},
                                           {"collect", std::string(collect)}}));
  };
  const TiltMaze stop = small("stop");
  const TiltMaze pass = small("pass");
  EXPECT_EQ(stop.measure(example_maze, stop.evaluate(example_maze, rng)),
            (std::vector<double>{-1, 2.0 / 7}));
  EXPECT_LT(-1, stop.measures()[0].low);
  EXPECT_EQ(pass.measure(example_maze, pass.evaluate(example_maze, rng)),
            (std::vector<double>{3, 2.0 / 7}));
  EXPECT_EQ(pass.measures()[0].high, (2 + 1) * (3 + 2));
}

TEST(TiltMazeMeasures, RandomMazesMeasureInRange) {
  const TiltMaze kernel(params_with<TiltMaze>({}));  // 8 x 8, 3 targets, wall density 0.3
  const auto specs = kernel.measures();
  ASSERT_EQ(specs.size(), 2U);
  EXPECT_EQ(specs[0].high, (3 + 1) * (8 + 2));
  double density_sum = 0;
  int unsolvable = 0;
  int longer_than_ten = 0;
  for (std::uint64_t i = 0; i < 200; ++i) {
    auto rng = tilt_measure_rng(100 + i);
    auto genome = kernel.random_genome(rng);
    if (i % 2 == 1) kernel.mutate(genome, 0.2, rng);
    const auto evaluation = kernel.evaluate(genome, rng);
    const auto values = kernel.measure(genome, evaluation);
    ASSERT_EQ(values.size(), specs.size());
    const auto length = std::get<std::int64_t>(evaluation.record[1]);
    EXPECT_EQ(values[0], static_cast<double>(length));
    if (std::get<std::int64_t>(evaluation.record[0]) == 0) {
      EXPECT_EQ(values[0], -1);
      ++unsolvable;
    } else {
      EXPECT_GE(values[0], specs[0].low);
      EXPECT_LE(values[0], specs[0].high);
      longer_than_ten += values[0] > 10 ? 1 : 0;
    }
    EXPECT_GE(values[1], specs[1].low);
    EXPECT_LE(values[1], specs[1].high);
    density_sum += values[1];
  }
  EXPECT_LT(unsolvable, 20);  // resting placement: nearly all solvable
  EXPECT_GT(longer_than_ten, 0);
  // 112 inner walls, each present with probability 0.3 (0.2 flips on the mutated half move
  // the expectation to 0.3 + 0.2 * (1 - 2 * 0.3) = 0.38): the mean density lies near 0.34.
  EXPECT_NEAR(density_sum / 200, 0.34, 0.02);

  // No wall and every wall.
  for (const double density : {0.0, 1.0}) {
    const TiltMaze extreme(params_with<TiltMaze>({{"wall_density", density}}));
    auto rng = tilt_measure_rng(7);
    const auto genome = extreme.random_genome(rng);
    EXPECT_EQ(extreme.measure(genome, extreme.evaluate(genome, rng))[1], density);
  }
}

}  // namespace
}  // namespace levelforge::kernels

namespace levelforge::kernels {
namespace {

// A row of sweep/records or ga/best with what the summary reads.
Record maze_row(std::int64_t solvable, std::int64_t length) { return {solvable, length}; }

TEST(TiltMazeSummary, CountsSolvableMazesAndTheirLengths) {
  ResultTables results{"sweep", {}};
  // Lengths 3, 7, 9, 12 solvable: median (the upper one) 9, longest 12; one unsolvable.
  results.tables.emplace(
      "sweep/records",
      ResultTable({"solvable", "length"}, {maze_row(1, 7), maze_row(0, -1), maze_row(1, 12),
                                           maze_row(1, 3), maze_row(1, 9)}));
  EXPECT_EQ(TiltMaze::summarize(results),
            std::vector<std::string>{"random mazes: 4 of 5 solvable (80.0%); shortest solutions: "
                                     "median 9 tilts, longest 12"});
}

TEST(TiltMazeSummary, TheGaCountsEachTasksBestOnly) {
  ResultTables results{"ga", {}};
  results.tables.emplace("ga/best",
                         ResultTable({"position", "solvable", "length"},
                                     {{std::int64_t{0}, std::int64_t{0}, std::int64_t{-1}},
                                      {std::int64_t{1}, std::int64_t{1}, std::int64_t{5}},
                                      {std::int64_t{0}, std::int64_t{1}, std::int64_t{8}},
                                      {std::int64_t{1}, std::int64_t{1}, std::int64_t{2}}}));
  EXPECT_EQ(TiltMaze::summarize(results),
            std::vector<std::string>{"each task's best maze: 1 of 2 solvable (50.0%); shortest "
                                     "solutions: median 8 tilts, longest 8"});
  EXPECT_TRUE(TiltMaze::summarize(ResultTables{"exhaustive", {}}).empty());
}

}  // namespace
}  // namespace levelforge::kernels
