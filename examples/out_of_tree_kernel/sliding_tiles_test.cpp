// The sliding-tile kernel against boards counted by hand and the known 8-puzzle figures.
#include "sliding_tiles.hpp"

#include <gtest/gtest.h>

namespace tiles {
namespace {

levelforge::ParamSet board(std::int64_t rows, std::int64_t columns, std::int64_t target = 0) {
  auto params = levelforge::ParamSet::defaults(SlidingTiles::parameters());
  params.set("rows", rows);
  params.set("columns", columns);
  params.set("target", target);
  return params;
}

TEST(SlidingTiles, TwoByTwoBoardsFormOneCycleOfTwelve) {
  // 4!/2 boards; the blank circles the 2x2 board, so they lie on a cycle: at most 6 away.
  const SlidingTiles kernel(board(2, 2));
  EXPECT_EQ(kernel.reachable_boards(), 12U);
  EXPECT_EQ(kernel.hardest(), 6);
}

TEST(SlidingTiles, EightPuzzleHasHalfThePermutationsAndDiameter31) {
  const SlidingTiles kernel(board(3, 3));
  EXPECT_EQ(kernel.reachable_boards(), 181'440U);  // 9!/2
  EXPECT_EQ(kernel.hardest(), 31);
}

TEST(SlidingTiles, MovesOffTheBoardAreSkipped) {
  const SlidingTiles kernel(board(3, 3));
  using enum SlidingTiles::Move;
  // The blank starts bottom right: down and right leave it there.
  const auto [unmoved, none] = kernel.play({down, right, down});
  EXPECT_EQ(none, 0);
  EXPECT_EQ(kernel.distance(unmoved), 0);
  const auto [board_after, moved] = kernel.play({up, left, right, down});
  EXPECT_EQ(moved, 4);
  EXPECT_EQ(kernel.distance(board_after), 0);  // back where it started
  const auto [two_away, two] = kernel.play({up, left});
  EXPECT_EQ(two, 2);
  EXPECT_EQ(kernel.distance(two_away), 2);
  const SlidingTiles::Board expected{1, 2, 3, 4, 0, 5, 7, 8, 6};
  EXPECT_EQ(two_away, expected);
}

TEST(SlidingTiles, FitnessIsOneAtTheTarget) {
  const SlidingTiles kernel(board(3, 3, 2));
  levelforge::Rng rng({1, levelforge::Stream::init, 0, 0, 0});
  using enum SlidingTiles::Move;
  const auto at_target = kernel.evaluate({up, left}, rng);
  EXPECT_DOUBLE_EQ(at_target.fitness, 1.0);
  EXPECT_EQ(std::get<std::int64_t>(at_target.record[0]), 2);
  // Solved, 2 short of the target; the farthest miss is 31 - 2 = 29.
  EXPECT_DOUBLE_EQ(kernel.evaluate({down}, rng).fitness, 1.0 - 2.0 / 29.0);
}

}  // namespace
}  // namespace tiles
