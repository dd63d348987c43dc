// The 4x4 tilt-maze evaluator (kernels/tiltmaze/four_by_four.hpp): the config encoding, the
// plain references on hand-drawn mazes, and the fast bulk functions held equal to the
// references on random configs and on whole aligned and unaligned ranges.
//
// Drawings: '+' corners, '|' an east wall, '-' a south wall, 'S' the start (cell 0, top
// left); cell (r, c) is r * 4 + c.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/tiltmaze/four_by_four.hpp"
#include "kernels/tiltmaze/maze.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/solver.hpp"

namespace levelforge::tiltmaze::four_by_four_test {
namespace {

using namespace levelforge::tiltmaze;
using namespace levelforge::tiltmaze::four;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

std::uint32_t east_bit(int row, int column) { return 1U << (row * 3 + column); }
std::uint32_t south_bit(int row, int column) { return 1U << (12 + column * 3 + row); }

// Random configs, fixed seed: uniform, plus denser and sparser wall densities so that
// both tiny and wide-open reachable sets show up.
std::vector<std::uint32_t> random_configs(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> uniform(0, config_count - 1);
  std::vector<std::uint32_t> configs;
  configs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t config = uniform(rng);
    if (i % 4 == 1) config |= uniform(rng);  // ~75% walls
    if (i % 4 == 2) config &= uniform(rng);  // ~25% walls
    configs.push_back(config);
  }
  return configs;
}

std::string describe(std::uint32_t config) {
  return "config " + std::to_string(config) + "\n" + format_maze(maze_of(config));
}

void expect_summary(const Summary& summary, int reachable, int components, int distance,
                    int farthest) {
  EXPECT_EQ(summary.reachable, reachable);
  EXPECT_EQ(summary.components, components);
  EXPECT_EQ(summary.distance, distance);
  EXPECT_EQ(summary.farthest, farthest);
}

Summary fast_summary(std::uint32_t config) {
  std::vector<Summary> out(1);
  summarize_many(config, out);
  return out[0];
}

PairSummary fast_pair(std::uint32_t config) {
  std::vector<PairSummary> out(1);
  hardest_pairs_many(config, out);
  return out[0];
}

// The wall-free maze. From 0 the ball reaches the corners 3 (R) and 12 (D), from either
// 15, and every roll between corners can be undone:
//   +-+-+-+-+
//   |S . . .|
//   + + + + +
//   |. . . .|
//   + + + + +
//   |. . . .|
//   + + + + +
//   |. . . .|
//   +-+-+-+-+
// 4 resting cells in one component; 3 and 12 at distance 1, 15 at distance 2.
// Pairs: {3,12}: 0->3->0->12 or 0->12->0->3 (or via 15): 1 + 2 = 3; {3,15}: 0->3->15 = 2;
// {12,15}: 0->12->15 = 2. The hardest is {3,12} with 3 tilts.
TEST(FourByFour, OpenMaze) {
  for (const Summary& summary : {summarize_reference(0), fast_summary(0)})
    expect_summary(summary, 4, 1, 2, 15);
  const PairSummary expected{3, 3, 12};
  EXPECT_EQ(hardest_pair_reference(0), expected);
  EXPECT_EQ(fast_pair(0), expected);
}

// Walls east and south of the start: no tilt moves the ball.
//   +-+-+-+-+
//   |S|. . .|
//   +-+ + + +
//   ...
TEST(FourByFour, BoxedStart) {
  const std::uint32_t config = east_bit(0, 0) | south_bit(0, 0);
  for (const Summary& summary : {summarize_reference(config), fast_summary(config)})
    expect_summary(summary, 1, 1, 0, 0);
  const PairSummary none{0, -1, -1};
  EXPECT_EQ(hardest_pair_reference(config), none);
  EXPECT_EQ(fast_pair(config), none);
}

// A wall east of 0 and one south of 8:
//   +-+-+-+-+
//   |S|. . .|
//   + + + + +
//   |. . . .|
//   + + + + +
//   |. . . .|
//   +-+ + + +
//   |. . . .|
//   +-+-+-+-+
// 0 -D-> 8 -R-> 11 and back (8 -U-> 0, 11 -L-> 8). From 11 the ball leaves for 3 (U) and
// 15 (D); 3 -L-> 1, 15 -L-> 12, 1 -D-> 13, and from {1, 3, 12, 13, 15} every roll stays
// inside (12 -U-> 12: the wall), so the group can be entered but not left.
// Resting cells: 0 8 11 3 15 1 12 13 (8); components {0, 8, 11} and {1, 3, 12, 13, 15}.
// Distances: 8:1 11:2 3:3 15:3 1:4 12:4 13:5 -> distance 5, farthest 13.
// Hardest pair: {1,12} = min(0..1 (4) + 1-D->13-L->12 (2), 0..12 (4) + 12->15->3->1 (3)) = 6;
// {12,13} and {13,15} also need 6 but come later.
TEST(FourByFour, OneWayGroup) {
  const std::uint32_t config = east_bit(0, 0) | south_bit(2, 0);
  ASSERT_EQ(config, 0x4001U);
  for (const Summary& summary : {summarize_reference(config), fast_summary(config)})
    expect_summary(summary, 8, 2, 5, 13);
  const PairSummary expected{6, 1, 12};
  EXPECT_EQ(hardest_pair_reference(config), expected);
  EXPECT_EQ(fast_pair(config), expected);
}

// One wall east of 1:
//   +-+-+-+-+
//   |S .|. .|
//   + + + + +
//   ...
// 0 -R-> 1, 0 -D-> 12; 1 -D-> 13; 12 -R-> 15; 13 -R-> 15; 15 -U-> 3; 3 -L-> 2; 2 -D-> 14.
// Resting: 0 1 12 13 15 3 2 14 (8), all mutually reachable (every roll can be undone
// through the corners): one component. Distances 1:1 12:1 13:2 15:2 3:3 2:4 14:5.
TEST(FourByFour, WallInTheTopRow) {
  const std::uint32_t config = east_bit(0, 1);
  for (const Summary& summary : {summarize_reference(config), fast_summary(config)})
    expect_summary(summary, 8, 1, 5, 14);
}

// The start sees one cell only: 0 -R-> 1, and 1 can only roll back.
//   +-+-+-+-+
//   |S .|. .|
//   +-+-+ + +
TEST(FourByFour, SingleOtherCellHasNoPair) {
  const std::uint32_t config = east_bit(0, 1) | south_bit(0, 0) | south_bit(0, 1);
  for (const Summary& summary : {summarize_reference(config), fast_summary(config)})
    expect_summary(summary, 2, 1, 1, 1);
  const PairSummary none{0, -1, -1};
  EXPECT_EQ(hardest_pair_reference(config), none);
  EXPECT_EQ(fast_pair(config), none);
}

// A maze with unsolvable pairs (two groups that cannot reach each other), values from an
// independent Python model of the rolls: 10 resting cells in 4 components, distance 5 at
// 14; the hardest solvable pair is {4, 14} with 6 tilts.
TEST(FourByFour, UnsolvablePairsAreSkipped) {
  const std::uint32_t config = 1120268;
  for (const Summary& summary : {summarize_reference(config), fast_summary(config)})
    expect_summary(summary, 10, 4, 5, 14);
  const PairSummary expected{6, 4, 14};
  EXPECT_EQ(hardest_pair_reference(config), expected);
  EXPECT_EQ(fast_pair(config), expected);
}

TEST(FourByFour, MazeOfFollowsTheBitLayout) {
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 3; ++column) {
      const Maze maze = maze_of(east_bit(row, column));
      EXPECT_EQ(maze.start, 0);
      EXPECT_TRUE(maze.targets.empty());
      for (int cell = 0; cell < 16; ++cell) {
        EXPECT_EQ(maze.east[at(cell)], cell == row * 4 + column ? 1 : 0);
        EXPECT_EQ(maze.south[at(cell)], 0);
      }
    }
  for (int column = 0; column < 4; ++column)
    for (int row = 0; row < 3; ++row) {
      const Maze maze = maze_of(south_bit(row, column));
      for (int cell = 0; cell < 16; ++cell) {
        EXPECT_EQ(maze.south[at(cell)], cell == row * 4 + column ? 1 : 0);
        EXPECT_EQ(maze.east[at(cell)], 0);
      }
    }
  EXPECT_THROW(maze_of(config_count), std::out_of_range);
}

TEST(FourByFour, ReflectionTransposesTheMaze) {
  for (int cell = 0; cell < 16; ++cell) {
    EXPECT_EQ(reflect_cell(reflect_cell(cell)), cell);
    EXPECT_EQ(reflect_cell(cell), (cell % 4) * 4 + cell / 4);
  }
  for (const std::uint32_t config : random_configs(2000, 7)) {
    ASSERT_EQ(reflect(reflect(config)), config);
    const Maze maze = maze_of(config);
    const Maze mirror = maze_of(reflect(config));
    for (int cell = 0; cell < 16; ++cell) {
      const auto other = at(reflect_cell(cell));
      ASSERT_EQ(mirror.east[other], maze.south[at(cell)]) << describe(config);
      ASSERT_EQ(mirror.south[other], maze.east[at(cell)]) << describe(config);
    }
  }
}

TEST(FourByFour, SummariesAreInvariantUnderReflection) {
  const auto configs = random_configs(5000, 11);
  for (const std::uint32_t config : configs) {
    const Summary summary = fast_summary(config);
    const Summary mirror = fast_summary(reflect(config));
    ASSERT_EQ(summary.reachable, mirror.reachable) << describe(config);
    ASSERT_EQ(summary.components, mirror.components) << describe(config);
    ASSERT_EQ(summary.distance, mirror.distance) << describe(config);
    // The farthest cells are the same set mirrored; the smallest index may differ.
    const Summary reference = summarize_reference(reflect(config));
    ASSERT_EQ(mirror, reference) << describe(reflect(config));
  }
}

// All 2^24 configs through the fast kernel: the mirror image of every maze has the same
// counts and distance, and the values are consistent with each other. Mirroring moves the
// walls that vary inside a batch to the bits that are fixed in it, so this checks those
// two paths of the kernel against each other everywhere.
TEST(FourByFour, WholeSpaceIsConsistentUnderReflection) {
  std::vector<Summary> all(config_count);
  summarize_many(0, all);
  std::size_t mismatches = 0, symmetric = 0;
  for (std::uint32_t config = 0; config < config_count; ++config) {
    const Summary& summary = all[config];
    const Summary& mirror = all[reflect(config)];
    const bool consistent = summary.reachable >= 1 && summary.components >= 1 &&
                            summary.components <= summary.reachable &&
                            summary.distance < summary.reachable && summary.farthest < 16 &&
                            (summary.distance > 0 || summary.farthest == 0);
    if (!consistent || summary.reachable != mirror.reachable ||
        summary.components != mirror.components || summary.distance != mirror.distance) {
      if (++mismatches <= 5) ADD_FAILURE() << describe(config);
    }
    if (reflect(config) == config) ++symmetric;
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_EQ(symmetric, 1U << 12);  // the mazes equal to their mirror image
}

// summarize_many over [first, first + size) against the reference, config by config.
void expect_range_matches(std::uint32_t first, std::size_t size) {
  std::vector<Summary> out(size);
  summarize_many(first, out);
  for (std::size_t i = 0; i < size; ++i) {
    const auto config = first + static_cast<std::uint32_t>(i);
    ASSERT_EQ(out[i], summarize_reference(config)) << describe(config);
  }
}

TEST(FourByFour, SummarizeManyMatchesTheReferenceOnRanges) {
  expect_range_matches(0, 4099);                    // aligned start, ragged tail
  expect_range_matches(12345, 777);                 // unaligned head and tail
  expect_range_matches(config_count - 1000, 1000);  // the last configs
  expect_range_matches(0x5A5A00, 512);              // exactly one batch
  expect_range_matches(0xABCDE7, 3);                // inside one batch
  expect_range_matches(0x7FFFF0, 40000);            // across the change of the top bit
  expect_range_matches(999, 0);
}

TEST(FourByFour, SummarizeManyMatchesTheReferenceOnRandomConfigs) {
  // Blocks of 512 (the AVX-512 kernel's batch; two of AVX2's, four of the portable one's)
  // at random places: every pattern of the 9 walls that vary inside one, under 320 settings
  // of the others.
  std::vector<Summary> batch(512);
  for (const std::uint32_t config : random_configs(320, 3)) {
    const std::uint32_t base = config & ~511U;
    summarize_many(base, batch);
    for (std::uint32_t i = 0; i < 512; ++i)
      ASSERT_EQ(batch[i], summarize_reference(base + i)) << describe(base + i);
  }
  // Single configs: one-config ranges, a batch's head and tail at once.
  for (const std::uint32_t config : random_configs(3000, 4))
    ASSERT_EQ(fast_summary(config), summarize_reference(config)) << describe(config);
}

// The kernel compiled for each instruction set this CPU runs (the dispatcher only ever
// uses the best one; each has its own batch width, 512, 256 or 128 configs): the reference
// on an unaligned range and on random blocks of 512.
TEST(FourByFour, EveryInstructionSetGivesTheSameSummaries) {
  const std::uint32_t first = 0x9A0000 - 1234;
  std::vector<Summary> out(3000), got(512);
  for (const Isa isa : {Isa::portable, Isa::avx2, Isa::avx512}) {
    if (!isa_supported(isa)) {
      std::cout << "instruction set " << static_cast<int>(isa) << " not available here\n";
      continue;
    }
    summarize_many(first, out, isa);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const auto config = first + static_cast<std::uint32_t>(i);
      ASSERT_EQ(out[i], summarize_reference(config)) << describe(config);
    }
    for (const std::uint32_t config : random_configs(100, 13)) {
      const std::uint32_t base = config & ~511U;
      summarize_many(base, got, isa);
      for (std::uint32_t i = 0; i < 512; ++i)
        ASSERT_EQ(got[i], summarize_reference(base + i))
            << describe(base + i) << ", isa " << static_cast<int>(isa);
    }
  }
}

// count_summaries against a counter per field, on random bytes (values past 16 are not
// counted), for lengths around its 16-summary vectors and 255-vector folds.
TEST(FourByFour, CountSummariesMatchesCountingOneByOne) {
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> value(0, 20);
  for (const std::size_t size : {0UL, 1UL, 15UL, 16UL, 17UL, 4079UL, 4080UL, 4097UL, 20000UL}) {
    std::vector<Summary> summaries(size);
    for (auto& s : summaries)
      s = {static_cast<std::uint8_t>(value(rng)), static_cast<std::uint8_t>(value(rng)),
           static_cast<std::uint8_t>(value(rng)), static_cast<std::uint8_t>(value(rng))};
    SummaryCounts expected;
    for (const auto& s : summaries) {
      if (s.reachable <= 16) ++expected.reachable[s.reachable];
      if (s.components <= 16) ++expected.components[s.components];
      if (s.distance <= 16) ++expected.distance[s.distance];
    }
    for (const Isa isa : {Isa::portable, Isa::avx2, Isa::avx512}) {
      if (!isa_supported(isa)) continue;
      SummaryCounts got;
      got.reachable[3] = 7;  // added to, not overwritten
      count_summaries(summaries, got, isa);
      got.reachable[3] -= 7;
      EXPECT_EQ(got.reachable, expected.reachable) << size << " summaries, isa " << isa_name(isa);
      EXPECT_EQ(got.components, expected.components) << size << " summaries, isa " << isa_name(isa);
      EXPECT_EQ(got.distance, expected.distance) << size << " summaries, isa " << isa_name(isa);
    }
  }
}

// summarize_and_count, the default and each instruction set's copy this CPU runs: the
// summaries of summarize_many and the counts of counting them one by one, on whole batches
// (counted in the bit planes with AVX-512 VPOPCNTDQ or AVX2) and on ranges with a head and a
// tail (those parts counted from the summaries).
TEST(FourByFour, SummarizeAndCountMatchesCountingTheSummaries) {
  std::cout << "counts in the bit planes: " << (counts_in_planes() ? "yes" : "no") << "\n";
  for (const std::optional<Isa> isa : {std::optional<Isa>{}, std::optional{Isa::portable},
                                       std::optional{Isa::avx2}, std::optional{Isa::avx512}}) {
    if (isa && !isa_supported(*isa)) continue;
    for (const auto& [first, size] : {std::pair<std::uint32_t, std::size_t>{0, 65536},
                                      {0x9A0000 - 1234, 5000},
                                      {config_count - 700, 700}}) {
      std::vector<Summary> expected(size), got(size);
      summarize_many(first, expected);
      SummaryCounts counts;
      if (isa) {
        summarize_and_count(first, got, counts, *isa);
      } else {
        summarize_and_count(first, got, counts);
      }
      const std::string where = "from " + std::to_string(first) + ", isa " +
                                (isa ? std::to_string(static_cast<int>(*isa)) : "default");
      ASSERT_EQ(got, expected) << where;
      SummaryCounts one_by_one;
      for (const auto& s : expected) {
        ++one_by_one.reachable[s.reachable];
        ++one_by_one.components[s.components];
        ++one_by_one.distance[s.distance];
      }
      EXPECT_EQ(counts.reachable, one_by_one.reachable) << where;
      EXPECT_EQ(counts.components, one_by_one.components) << where;
      EXPECT_EQ(counts.distance, one_by_one.distance) << where;
    }
  }
}

// Hand-counted: three summaries.
TEST(FourByFour, CountSummariesOfThreeMazes) {
  const std::vector<Summary> summaries{{16, 1, 5, 3}, {16, 2, 0, 0}, {1, 1, 0, 0}};
  SummaryCounts counts;
  count_summaries(summaries, counts);
  EXPECT_EQ(counts.reachable[16], 2);
  EXPECT_EQ(counts.reachable[1], 1);
  EXPECT_EQ(counts.components[1], 2);
  EXPECT_EQ(counts.components[2], 1);
  EXPECT_EQ(counts.distance[0], 2);
  EXPECT_EQ(counts.distance[5], 1);
  EXPECT_EQ(counts.distance[3], 0);
}

TEST(FourByFour, HardestPairsManyMatchesTheReference) {
  for (const std::uint32_t config : random_configs(20000, 5))
    ASSERT_EQ(fast_pair(config), hardest_pair_reference(config)) << describe(config);
  const std::uint32_t first = 0x3C0FF0 - 700;
  std::vector<PairSummary> out(1500);
  hardest_pairs_many(first, out);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto config = first + static_cast<std::uint32_t>(i);
    ASSERT_EQ(out[i], hardest_pair_reference(config)) << describe(config);
  }
}

// The pair length is what the project's solver finds for a two-target stop-mode maze.
TEST(FourByFour, HardestPairLengthIsTheSolversShortestSolution) {
  int checked = 0;
  for (const std::uint32_t config : random_configs(1000, 17)) {
    const PairSummary pair = hardest_pair_reference(config);
    if (pair.length == 0) continue;
    Maze maze = maze_of(config);
    maze.targets = {pair.first, pair.second};
    const Solution solution = shortest_solution(maze, Collect::stop);
    ASSERT_TRUE(solution.solvable) << describe(config);
    ASSERT_EQ(solution.length, pair.length) << describe(config);
    ++checked;
  }
  EXPECT_GT(checked, 400);  // many dense-walled configs have no pair
}

TEST(FourByFour, RangesPastTheEndThrow) {
  std::vector<Summary> summaries(2);
  std::vector<PairSummary> pairs(2);
  EXPECT_THROW(summarize_many(config_count - 1, summaries), std::out_of_range);
  EXPECT_THROW(hardest_pairs_many(config_count - 1, pairs), std::out_of_range);
  EXPECT_NO_THROW(summarize_many(config_count - 2, summaries));
  EXPECT_NO_THROW(hardest_pairs_many(config_count - 2, pairs));
}

}  // namespace
}  // namespace levelforge::tiltmaze::four_by_four_test
