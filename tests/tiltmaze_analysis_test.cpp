// The tilt-maze puzzle capability (kernels/tiltmaze/analysis.hpp, tiltmaze_puzzle.cpp): the
// independent checker of a claimed solution on hand-made mazes, and against the solvers and
// the brute force on random ones, including wrong answers it must refuse.

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>

#include "kernels/tiltmaze/analysis.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/tiltmaze.hpp"
#include "tests/random_cases.hpp"
#include "tests/tiltmaze_brute_force.hpp"

namespace {

using namespace levelforge;
using namespace levelforge::tiltmaze;
using kernels::TiltMaze;

ParamSet collect_option(Collect collect) {
  ParamSet options = ParamSet::defaults(TiltMaze::solve_options());
  options.set("collect", std::string(collect_words.name(collect)));
  return options;
}

// One row of three cells without walls: start at the left, one target in the middle.
Maze corridor() {
  Maze maze = open_maze(3, 1);
  maze.start = 0;
  maze.targets = {1};
  return maze;
}

TEST(TiltmazeAnalysis, CollectsEverythingRollsTheBall) {
  const Maze maze = corridor();
  // R rolls over the target to the right end: collected only when passing counts.
  EXPECT_FALSE(collects_everything(maze, Collect::stop, "R"));
  EXPECT_TRUE(collects_everything(maze, Collect::pass, "R"));
  EXPECT_FALSE(collects_everything(maze, Collect::pass, ""));
  EXPECT_FALSE(collects_everything(maze, Collect::pass, "U"));  // the ball does not move
  EXPECT_FALSE(collects_everything(maze, Collect::pass, "x"));  // no direction
  EXPECT_FALSE(collects_everything(maze, Collect::pass, "r"));  // letters are upper case
  Maze walled = corridor();
  walled.east[1] = 1;  // a wall right of the target: R now stops on it
  EXPECT_TRUE(collects_everything(walled, Collect::stop, "R"));
  EXPECT_TRUE(collects_everything(walled, Collect::stop, "RLR"));
  Maze on_start = corridor();
  on_start.targets = {0};  // collected at time 0
  EXPECT_TRUE(collects_everything(on_start, Collect::stop, ""));
}

TEST(TiltmazeAnalysis, TheCheckerRefusesWrongAnswers) {
  const Maze maze = corridor();
  const auto options = collect_option(Collect::pass);
  MazeAnalysis answer = analyze_maze(maze, Collect::pass);
  ASSERT_TRUE(answer.solvable);
  EXPECT_EQ(answer.solution.moves, "R");
  EXPECT_EQ(TiltMaze::check_answer(maze, options, answer), "");
  EXPECT_EQ(TiltMaze::check_answer(maze, collect_option(Collect::stop), answer),
            "is for the other collect mode");
  answer.solution.moves = "L";
  EXPECT_EQ(TiltMaze::check_answer(maze, options, answer),
            "gives the solution 'L', which does not collect every target");
  answer.solution.moves = "RL";
  EXPECT_EQ(TiltMaze::check_answer(maze, options, answer),
            "gives the length 1 for the 2 moves 'RL'");
}

// Every solver's answer passes the checker; a proven shortest solution less its last move,
// and any play on an unsolvable maze, fail it.
TEST(TiltmazeAnalysis, RandomMazesAgainstTheChecker) {
  std::mt19937_64 rng(20261202);
  const int mazes = levelforge::testing::random_cases(5'000);
  int solvable = 0;
  int refused = 0;
  for (int i = 0; i < mazes; ++i) {
    const Maze maze = tiltmaze::testing::random_maze(rng);
    for (const Collect collect : {Collect::stop, Collect::pass}) {
      const auto options = collect_option(collect);
      MazeAnalysis answer = analyze_maze(maze, collect);
      const auto expected = tiltmaze::testing::brute_force(maze, collect);
      ASSERT_EQ(answer.solvable, expected.solvable) << to_compact(maze);
      ASSERT_EQ(TiltMaze::check_answer(maze, options, answer), "") << to_compact(maze);
      std::string wrong;
      if (answer.solvable) {
        ++solvable;
        ASSERT_EQ(answer.solution.length, expected.length) << to_compact(maze);
        if (answer.solution.moves.empty() || !answer.solution.proven_shortest) continue;
        wrong = answer.solution.moves.substr(0, answer.solution.moves.size() - 1);
      } else {
        std::uniform_int_distribution<int> letter(0, 3);
        for (int m = 0; m < 12; ++m)
          wrong += direction_letters[static_cast<std::size_t>(letter(rng))];
      }
      answer.solution.moves = wrong;
      answer.solution.length = static_cast<int>(wrong.size());
      answer.solution.solvable = true;
      EXPECT_NE(TiltMaze::check_answer(maze, options, answer), "")
          << to_compact(maze) << " " << wrong;
      ++refused;
    }
  }
  // Both kinds of case are common, so the checker's verdicts mean something.
  EXPECT_GT(solvable, mazes / 4);
  EXPECT_GT(refused, mazes);
}

TEST(TiltmazeAnalysis, TheDrawingReadsBack) {
  Maze maze = corridor();
  maze.targets = {0, 2};  // the start is a target too, which the drawing cannot show
  const std::string drawn = TiltMaze::draw_puzzle(maze, "here");
  EXPECT_EQ(drawn.substr(0, drawn.find('\n')), "# here: 3x1, start (0,0), 2 targets");
  EXPECT_NE(drawn.find("# note: the start (0,0) is also a target"), std::string::npos);
  const Maze back = TiltMaze::parse_puzzle(drawn, "drawn");
  EXPECT_EQ(back.targets, std::vector<int>{2});
  for (const Collect collect : {Collect::stop, Collect::pass})
    EXPECT_EQ(analyze_maze(back, collect).solution.moves,
              analyze_maze(maze, collect).solution.moves);
}

}  // namespace
