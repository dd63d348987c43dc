// Tilt-maze solvers (kernels/tiltmaze/solver.hpp): the roll graph, its condensation, the
// stop-mode 2-SAT and chain tests, the pass-mode 2-SAT and exact search, and shortest
// solutions, on hand-drawn mazes and against a plain BFS (tiltmaze_brute_force.hpp) on
// random ones.

#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernels/tiltmaze/analysis.hpp"
#include "kernels/tiltmaze/maze.hpp"
#include "kernels/tiltmaze/solver.hpp"
#include "tests/random_cases.hpp"
#include "tests/tiltmaze_brute_force.hpp"

namespace {

using namespace levelforge::tiltmaze;
using levelforge::tiltmaze::testing::brute_force;
using levelforge::tiltmaze::testing::random_maze;
using levelforge::tiltmaze::testing::resting_cells;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// A maze drawn as text, 2 * height + 1 lines of 2 * width + 1 characters: cell (r, c) at
// line 2r + 1, column 2c + 1 ('.' empty, 'S' start, 'T' target, 'X' start and target);
// '|' right of a cell is an east wall, '-' below a cell a south wall; '+' and the border
// are decoration. Targets are numbered in reading order.
Maze draw(const std::vector<std::string>& lines) {
  const int height = static_cast<int>(lines.size() - 1) / 2;
  const int width = static_cast<int>(lines[0].size() - 1) / 2;
  Maze maze = open_maze(width, height);
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) {
      const int cell = r * width + c;
      const char mark = lines[at(2 * r + 1)][at(2 * c + 1)];
      if (mark == 'S' || mark == 'X') maze.start = cell;
      if (mark == 'T' || mark == 'X') maze.targets.push_back(cell);
      maze.east[at(cell)] = lines[at(2 * r + 1)][at(2 * c + 2)] == '|' ? 1 : 0;
      maze.south[at(cell)] = lines[at(2 * r + 2)][at(2 * c + 1)] == '-' ? 1 : 0;
    }
  return maze;
}

// The reverse of draw(), for failure messages.
std::string text(const Maze& maze) {
  std::ostringstream out;
  out << '\n' << std::string(at(2 * maze.width + 1), '-') << '\n';
  for (int r = 0; r < maze.height; ++r) {
    std::string row = "|", below = "+";
    for (int c = 0; c < maze.width; ++c) {
      const int cell = r * maze.width + c;
      const bool target = std::count(maze.targets.begin(), maze.targets.end(), cell) > 0;
      row += cell == maze.start ? (target ? 'X' : 'S') : (target ? 'T' : '.');
      row += c == maze.width - 1 || maze.east[at(cell)] != 0 ? '|' : ' ';
      below += r == maze.height - 1 || maze.south[at(cell)] != 0 ? '-' : ' ';
      below += '+';
    }
    out << row << '\n' << below << '\n';
  }
  return out.str();
}

struct Answers {
  bool two_sat, chain;  // stop mode
  bool pass, pass_2sat;
};

Answers answers(const Maze& maze) {
  const RollGraph graph = roll_graph(maze);
  const Condensation condensation = condense(graph);
  return {solvable_2sat(maze, graph, condensation), solvable_chain(maze, graph, condensation),
          solvable_pass(maze, graph, condensation), solvable_pass_2sat(maze, graph, condensation)};
}

// Two groups the ball can enter from the start but never leave: the column {(0,1), (3,1)}
// (S rolls up or down into it; the bottom rolls up past S) and the row {(1,0), (1,3)}
// (S rolls left or right into it; its ends roll past S to each other).
const std::vector<std::string> two_sinks = {"+-+-+-+-+",  //
                                            "|a|b|c d|",  //
                                            "+-+ + +-+",  //
                                            "|e S f g|",  //
                                            "+-+ + +-+",  //
                                            "|h i j k|",  //
                                            "+ + + + +",  //
                                            "|l|m|n o|",  //
                                            "+-+-+-+-+"};

Maze with_marks(std::vector<std::string> lines, const std::string& targets) {
  for (auto& line : lines)
    for (auto& ch : line)
      if (ch >= 'a' && ch <= 'z') ch = targets.find(ch) != std::string::npos ? 'T' : '.';
  return draw(lines);
}

TEST(TiltmazeSolver, DrawingMatchesTheModel) {
  const Maze maze = with_marks(two_sinks, "bg");
  EXPECT_EQ(maze.start, 5);
  EXPECT_EQ(maze.targets, (std::vector<int>{1, 7}));
  EXPECT_EQ(roll(maze, 5, down), 13);
  EXPECT_EQ(roll(maze, 13, up), 1);
  EXPECT_EQ(roll(maze, 5, right), 7);
  EXPECT_EQ(roll(maze, 7, left), 4);
  EXPECT_EQ(roll(maze, 1, left), 1);
  EXPECT_EQ(text(maze), text(draw([&] {
              std::vector<std::string> lines;
              std::istringstream in(text(maze));
              for (std::string line; std::getline(in, line);)
                if (!line.empty()) lines.push_back(line);
              return lines;
            }())));
}

TEST(TiltmazeSolver, TwoSinksEachHoldingATargetAreUnsolvable) {
  const Maze maze = with_marks(two_sinks, "bg");  // (0,1) in the column, (1,3) in the row
  const RollGraph graph = roll_graph(maze);
  EXPECT_EQ(std::set<int>(graph.resting.begin(), graph.resting.end()),
            (std::set<int>{5, 1, 13, 4, 7}));
  EXPECT_EQ(graph.resting.front(), 5);
  const Condensation condensation = condense(graph);
  EXPECT_EQ(condensation.count, 3);
  EXPECT_EQ(condensation.component[5], 0);
  EXPECT_EQ(condensation.component[1], condensation.component[13]);
  EXPECT_EQ(condensation.component[4], condensation.component[7]);
  EXPECT_NE(condensation.component[1], condensation.component[4]);
  EXPECT_EQ(condensation.successors[0], (std::vector<int>{1, 2}));
  EXPECT_TRUE(condensation.successors[1].empty());
  EXPECT_TRUE(condensation.successors[2].empty());
  EXPECT_EQ(condensation.component[0], -1);
  const Answers a = answers(maze);
  EXPECT_FALSE(a.two_sat);
  EXPECT_FALSE(a.chain);
  EXPECT_FALSE(a.pass);
  EXPECT_FALSE(a.pass_2sat);
  EXPECT_FALSE(shortest_solution(maze, Collect::stop).solvable);
  const Solution none = shortest_solution(maze, Collect::pass);
  EXPECT_FALSE(none.solvable);
  EXPECT_EQ(none.length, -1);
  EXPECT_EQ(none.moves, "");
  EXPECT_FALSE(brute_force(maze, Collect::stop).solvable);
}

TEST(TiltmazeSolver, OneSinkTargetAndTheStartAreSolvable) {
  for (const std::string marks : {"b", "m", "g", "e"}) {
    Maze maze = with_marks(two_sinks, marks);
    maze.targets.push_back(maze.start);
    const Answers a = answers(maze);
    EXPECT_TRUE(a.two_sat) << marks;
    EXPECT_TRUE(a.chain) << marks;
    EXPECT_TRUE(a.pass) << marks;
    EXPECT_TRUE(a.pass_2sat) << marks;
    const Solution s = shortest_solution(maze, Collect::stop);
    EXPECT_TRUE(s.solvable && s.proven_shortest) << marks;
    EXPECT_EQ(s.length, 1) << marks;
    EXPECT_TRUE(collects_everything(maze, Collect::stop, s.moves)) << marks << s.moves;
  }
}

// The chain S -> {(0,1), (2,1)} -> {(0,0), (0,2)}: S rolls up or down, the bottom rolls up
// past S, the top row is entered from (0,1) and never left.
const std::vector<std::string> chain = {"+-+-+-+",  //
                                        "|a b c|",  //
                                        "+-+ +-+",  //
                                        "|d|S|e|",  //
                                        "+ + + +",  //
                                        "|f|g|h|",  //
                                        "+-+-+-+"};

TEST(TiltmazeSolver, ASingleChainIsSolvedInItsOrder) {
  Maze maze = with_marks(chain, "ga");
  const RollGraph graph = roll_graph(maze);
  const Condensation condensation = condense(graph);
  ASSERT_EQ(condensation.count, 3);
  EXPECT_EQ(condensation.component[4], 0);
  EXPECT_EQ(condensation.component[1], 1);
  EXPECT_EQ(condensation.component[7], 1);
  EXPECT_EQ(condensation.component[0], 2);
  EXPECT_EQ(condensation.component[2], 2);
  EXPECT_EQ(condensation.successors, (std::vector<std::vector<int>>{{1}, {2}, {}}));
  EXPECT_EQ(condensation.order, (std::vector<int>{0, 1, 2}));
  const Answers a = answers(maze);
  EXPECT_TRUE(a.two_sat && a.chain && a.pass && a.pass_2sat);
  const Solution s = shortest_solution(maze, Collect::stop);
  EXPECT_EQ(s.moves, "DUL");  // (2,1), up past S to (0,1), left to (0,0)
  EXPECT_EQ(s.length, 3);
  // In pass mode the target at (2,1) is passed on the way down and the top row passes
  // (0,1), so the column's rest is no longer needed: down, up, left.
  EXPECT_EQ(shortest_solution(maze, Collect::pass).length, 3);
  maze = with_marks(chain, "ac");
  EXPECT_EQ(shortest_solution(maze, Collect::stop).moves, "ULR");
  EXPECT_EQ(shortest_solution(maze, Collect::pass).length, 3);
  // Against the order of the chain: the top row, then (2,1), is impossible.
  maze = with_marks(chain, "b");
  maze.targets.push_back(7);
  EXPECT_TRUE(solvable(maze, Collect::stop));
  maze = with_marks(chain, "d");  // (1,0): walled off from every roll
  EXPECT_FALSE(solvable(maze, Collect::stop));
  EXPECT_FALSE(solvable(maze, Collect::pass));
}

TEST(TiltmazeSolver, StartAsTarget) {
  Maze maze = with_marks(chain, "");
  maze.targets = {maze.start};
  for (const Collect collect : {Collect::stop, Collect::pass}) {
    EXPECT_TRUE(solvable(maze, collect));
    const Solution s = shortest_solution(maze, collect);
    EXPECT_TRUE(s.solvable);
    EXPECT_EQ(s.length, 0);
    EXPECT_EQ(s.moves, "");
  }
  maze.targets = {maze.start, 2};
  EXPECT_EQ(shortest_solution(maze, Collect::stop).length, 2);  // U R
}

TEST(TiltmazeSolver, PassedButNeverRestedOn) {
  Maze maze = with_marks(two_sinks, "i");  // (2,1): rolled over going down, never a rest
  const Answers a = answers(maze);
  EXPECT_FALSE(a.two_sat);
  EXPECT_FALSE(a.chain);
  EXPECT_TRUE(a.pass);
  EXPECT_TRUE(a.pass_2sat);
  EXPECT_FALSE(solvable(maze, Collect::stop));
  EXPECT_TRUE(solvable(maze, Collect::pass));
  const Solution s = shortest_solution(maze, Collect::pass);
  EXPECT_EQ(s.moves, "D");
  EXPECT_FALSE(shortest_solution(maze, Collect::stop).solvable);
  // f is passed rolling right from S and inside the row group; i inside the column group.
  maze = with_marks(two_sinks, "f");
  EXPECT_FALSE(solvable(maze, Collect::stop));
  EXPECT_EQ(shortest_solution(maze, Collect::pass).moves, "R");
  // One target on each kind of roll into different sinks: no play holds both.
  maze = with_marks(two_sinks, "fi");
  EXPECT_FALSE(solvable(maze, Collect::pass));
  EXPECT_FALSE(brute_force(maze, Collect::pass).solvable);
}

TEST(TiltmazeSolver, BallThatCannotMove) {
  Maze maze = draw({"+-+-+-+",  //
                    "|. . .|",  //
                    "+ +-+ +",  //
                    "|.|S|T|",  //
                    "+ +-+ +",  //
                    "|. . .|",  //
                    "+-+-+-+"});
  const RollGraph graph = roll_graph(maze);
  EXPECT_EQ(graph.resting, (std::vector<int>{4}));
  for (int d = 0; d < 4; ++d) EXPECT_EQ(graph.next[4][at(d)], 4);
  const Condensation condensation = condense(graph);
  EXPECT_EQ(condensation.count, 1);
  EXPECT_EQ(std::count(condensation.component.begin(), condensation.component.end(), -1), 8);
  const Answers a = answers(maze);
  EXPECT_FALSE(a.two_sat || a.chain || a.pass || a.pass_2sat);
  maze.targets = {};
  EXPECT_EQ(shortest_solution(maze, Collect::stop).length, 0);
  maze.targets = {4};
  const Answers b = answers(maze);
  EXPECT_TRUE(b.two_sat && b.chain && b.pass && b.pass_2sat);
}

// ---------------------------------------------------------------------------------------
// Pass mode by rows and columns (docs/tiltmaze.md, Lemma 2): a target t other than the
// start is collected exactly when the play visits H(t), the component holding both ends of
// t's row run, or V(t), that of its column run.
//
// From S the ball rolls right to (1,3) or down to (3,1), the middles of the open column 3
// and the open row 3, and rolls back to S from both. Row 3's ends {(3,0), (3,4)} and
// column 3's ends {(0,3), (4,3)} are two sinks, each entered from the start's group and
// never left. Targets by letter:
//   a (3,0): an end of row 3, walled above and below: only H, and a resting cell;
//   h (3,2): only H (its column runs from (0,2) to (4,2), where the ball never rests);
//   v (2,3): only V (its row runs from (2,0) to (2,4), where the ball never rests);
//   x (3,3): on both, H in one sink and V in the other;
//   n (2,2): on neither (its row and its column end where the ball never rests);
//   w (4,4): walled in on every side, on neither.
const std::vector<std::string> crossing = {"+-+-+-+-+-+",  //
                                           "|. . .|.|.|",  //
                                           "+ +-+ + + +",  //
                                           "|.|S . .|.|",  //
                                           "+ + + + + +",  //
                                           "|. . n v .|",  //
                                           "+-+ + + +-+",  //
                                           "|a . h x .|",  //
                                           "+-+-+ + +-+",  //
                                           "|. . .|.|w|",  //
                                           "+-+-+-+-+-+"};

TEST(TiltmazeSolver, CrossingHasTheGroupsDrawn) {
  const Maze maze = with_marks(crossing, "");
  const RollGraph graph = roll_graph(maze);
  EXPECT_EQ(std::set<int>(graph.resting.begin(), graph.resting.end()),
            (std::set<int>{6, 8, 16, 15, 19, 3, 23}));
  const Condensation condensation = condense(graph);
  ASSERT_EQ(condensation.count, 3);
  for (const int start_group : {6, 8, 16}) EXPECT_EQ(condensation.component[at(start_group)], 0);
  const int row = condensation.component[15], column = condensation.component[3];
  EXPECT_EQ(condensation.component[19], row);
  EXPECT_EQ(condensation.component[23], column);
  EXPECT_NE(row, column);
  EXPECT_EQ(condensation.successors[0], (std::vector<int>{1, 2}));
  EXPECT_TRUE(condensation.successors[1].empty());
  EXPECT_TRUE(condensation.successors[2].empty());
}

TEST(TiltmazeSolver, PassTargetsByRowAndColumn) {
  struct Case {
    std::string marks;
    bool solvable;
    std::string moves;  // the one shortest solution, "" when there are several or none
  };
  const std::vector<Case> cases = {
      {"h", true, "DR"},   // only H: S down to (3,1), then right along row 3
      {"a", true, "DL"},   // only H, resting on it
      {"v", true, "RD"},   // only V: S right to (1,3), then down along column 3
      {"x", true, ""},     // both: either sink, "DR" or "RD"
      {"hx", true, "DR"},  // both, with h forcing the row's sink
      {"vx", true, "RD"},  // both, with v forcing the column's sink
      {"ahx", true, ""},   // three targets of the row's sink
      {"hv", false, ""},   // one target in each sink
      {"av", false, ""},   // the same with a, which the ball can rest on
      {"hvx", false, ""},  // x can go either way, h and v cannot
      {"n", false, ""},    // neither: no roll of any play passes it
      {"w", false, ""},    // neither, walled in
      {"xn", false, ""},   // n spoils what x allows
      {"hw", false, ""}};  // w spoils what h allows
  for (const Case& c : cases) {
    const Maze maze = with_marks(crossing, c.marks);
    const Answers a = answers(maze);
    const auto brute = brute_force(maze, Collect::pass);
    EXPECT_EQ(brute.solvable, c.solvable) << c.marks;
    EXPECT_EQ(a.pass_2sat, c.solvable) << c.marks;
    EXPECT_EQ(a.pass, c.solvable) << c.marks;
    EXPECT_EQ(solvable(maze, Collect::pass), c.solvable) << c.marks;
    const Solution s = shortest_solution(maze, Collect::pass);
    EXPECT_EQ(s.solvable, c.solvable) << c.marks;
    EXPECT_EQ(s.length, brute.length) << c.marks;
    if (!c.moves.empty()) {
      EXPECT_EQ(s.moves, c.moves) << c.marks;
    }
    EXPECT_TRUE(!s.solvable || collects_everything(maze, Collect::pass, s.moves))
        << c.marks << s.moves;
    // Only a rests where the ball can stop.
    EXPECT_EQ(a.two_sat, c.marks == "a") << c.marks;
  }
}

// ---------------------------------------------------------------------------------------
// Random mazes against the brute force.

// How the targets other than the start lie on runs whose ends are resting cells (the
// `H(t)` and `V(t)` of docs/tiltmaze.md), tallied over many mazes.
struct RunTally {
  int row_only = 0, column_only = 0, both = 0, neither = 0;
};

// Lemmas 1 and 2 of docs/tiltmaze.md checked with roll() alone, nothing from the solvers:
// the two ends of a run rest together; a target other than the start is passed by some
// roll from a resting cell (collected by some play) exactly when its row run or its column
// run has two or more cells and resting ends; and each such roll ends at an end of one of
// those runs, so the components that can collect the target are at most H(t) and V(t).
// Returns what failed, empty when everything holds.
std::string run_lemma_failure(const Maze& maze, const std::vector<int>& resting, RunTally& tally) {
  std::vector<char> is_resting(at(maze.cells()), 0);
  for (const int cell : resting) is_resting[at(cell)] = 1;
  struct Roll {
    int end;
    std::vector<int> passed;
  };
  std::vector<Roll> rolls;
  for (const int cell : resting)
    for (int d = 0; d < 4; ++d) {
      Roll r;
      r.end = roll(maze, cell, static_cast<Direction>(d), &r.passed);
      rolls.push_back(std::move(r));
    }
  for (const int t : maze.targets) {
    if (t == maze.start) continue;
    const std::array<int, 4> ends = {roll(maze, t, left), roll(maze, t, right), roll(maze, t, up),
                                     roll(maze, t, down)};
    const auto resting_run = [&](int a, int b) {
      return a != b && is_resting[at(a)] != 0 && is_resting[at(b)] != 0;
    };
    const bool row = resting_run(ends[0], ends[1]), column = resting_run(ends[2], ends[3]);
    if (is_resting[at(ends[0])] != is_resting[at(ends[1])] ||
        is_resting[at(ends[2])] != is_resting[at(ends[3])])
      return "a run with one resting end through target " + std::to_string(t);
    bool passed = false;
    for (const Roll& r : rolls) {
      if (std::find(r.passed.begin(), r.passed.end(), t) == r.passed.end()) continue;
      passed = true;
      if (std::find(std::begin(ends), std::end(ends), r.end) == std::end(ends))
        return "a roll over target " + std::to_string(t) + " ends off its runs' ends";
    }
    if (passed != (row || column))
      return "target " + std::to_string(t) + (passed ? " passed" : " never passed") +
             ", resting run ends: row " + std::to_string(row) + " column " + std::to_string(column);
    ++(row ? (column ? tally.both : tally.row_only) : (column ? tally.column_only : tally.neither));
  }
  return "";
}

TEST(TiltmazeSolver, RandomMazesAgreeWithBruteForce) {
  std::mt19937_64 rng(20240611);
  const int mazes = levelforge::testing::random_cases(100'000);
  int stop_solvable = 0, pass_solvable = 0, shortest_checked = 0, failures = 0;
  RunTally tally;
  for (int i = 0; i < mazes && failures < 5; ++i) {
    const Maze maze = random_maze(rng);
    const auto stop = brute_force(maze, Collect::stop);
    const auto pass = brute_force(maze, Collect::pass);
    const Answers a = answers(maze);
    stop_solvable += stop.solvable ? 1 : 0;
    pass_solvable += pass.solvable ? 1 : 0;
    const bool agree = a.two_sat == stop.solvable && a.chain == stop.solvable &&
                       a.pass == pass.solvable && a.pass_2sat == pass.solvable &&
                       solvable(maze, Collect::stop) == stop.solvable &&
                       solvable(maze, Collect::pass) == pass.solvable;
    EXPECT_TRUE(agree) << "maze " << i << text(maze) << "2sat " << a.two_sat << " chain " << a.chain
                       << " brute stop " << stop.solvable << " pass " << a.pass << " pass 2sat "
                       << a.pass_2sat << " brute pass " << pass.solvable;
    failures += agree ? 0 : 1;
    const std::string lemma = run_lemma_failure(maze, resting_cells(maze), tally);
    EXPECT_EQ(lemma, "") << "maze " << i << text(maze);
    failures += lemma.empty() ? 0 : 1;
    if (i % 5 != 0) continue;
    ++shortest_checked;
    for (const Collect collect : {Collect::stop, Collect::pass}) {
      const auto expected = collect == Collect::stop ? stop : pass;
      const Solution s = shortest_solution(maze, collect);
      const bool good = s.solvable == expected.solvable && s.length == expected.length &&
                        s.length == (s.solvable ? static_cast<int>(s.moves.size()) : -1) &&
                        s.proven_shortest == s.solvable &&
                        (!s.solvable || collects_everything(maze, collect, s.moves));
      EXPECT_TRUE(good) << "maze " << i << text(maze)
                        << (collect == Collect::stop ? "stop" : "pass") << " length " << s.length
                        << " moves " << s.moves << " expected " << expected.length;
      failures += good ? 0 : 1;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(shortest_checked, mazes / 5);
  // Both answers are common, so the agreement means something.
  EXPECT_GT(stop_solvable, mazes / 10);
  EXPECT_LT(stop_solvable, mazes * 9 / 10);
  EXPECT_GT(pass_solvable, stop_solvable);
  EXPECT_LT(pass_solvable, mazes * 9 / 10);
  // Every way a target can lie on the runs is common too.
  for (const int count : {tally.row_only, tally.column_only, tally.both, tally.neither})
    EXPECT_GT(count, mazes / 20);
  std::cout << "stop solvable " << stop_solvable << ", pass solvable " << pass_solvable << " of "
            << mazes << "; targets with resting run ends: row only " << tally.row_only
            << ", column only " << tally.column_only << ", both " << tally.both << ", neither "
            << tally.neither << '\n';
}

// Pass mode with more targets than the mixed test, so that many are covered by two
// components and both the 2-SAT and the search have real choices to make.
TEST(TiltmazeSolver, PassModeWithManyTargetsAgreesWithBruteForce) {
  std::mt19937_64 rng(31337);
  int solvable_count = 0, failures = 0;
  const int mazes = levelforge::testing::random_cases(20'000);
  for (int i = 0; i < mazes && failures < 5; ++i) {
    std::uniform_int_distribution<int> side(4, 9), count(6, 11);
    Maze maze = open_maze(side(rng), side(rng));
    std::bernoulli_distribution wall(std::uniform_real_distribution<double>(0.15, 0.5)(rng));
    for (auto& w : maze.east) w = wall(rng) ? 1 : 0;
    for (auto& w : maze.south) w = wall(rng) ? 1 : 0;
    maze.start = std::uniform_int_distribution<int>(0, maze.cells() - 1)(rng);
    // Targets on cells some roll passes (from a resting cell, or from any cell half the time).
    std::vector<int> from = resting_cells(maze);
    if (i % 2 == 1)
      for (int c = 0; c < maze.cells(); ++c) from.push_back(c);
    std::set<int> passed_cells;
    for (const int cell : from)
      for (int d = 0; d < 4; ++d) {
        std::vector<int> passed;
        roll(maze, cell, static_cast<Direction>(d), &passed);
        passed_cells.insert(passed.begin(), passed.end());
      }
    std::vector<int> pool(passed_cells.begin(), passed_cells.end());
    std::shuffle(pool.begin(), pool.end(), rng);
    pool.resize(std::min(pool.size(), at(count(rng))));
    maze.targets = pool;
    const bool expected = brute_force(maze, Collect::pass).solvable;
    solvable_count += expected ? 1 : 0;
    const Answers a = answers(maze);
    const bool good = a.pass == expected && a.pass_2sat == expected;
    EXPECT_TRUE(good) << "maze " << i << text(maze) << "search " << a.pass << " 2sat "
                      << a.pass_2sat << " brute " << expected;
    failures += good ? 0 : 1;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(solvable_count, mazes / 10);
  EXPECT_LT(solvable_count, mazes * 9 / 10);
  std::cout << "pass solvable " << solvable_count << " of " << mazes << '\n';
}

TEST(TiltmazeSolver, CondensationIsMutualReachability) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const Maze maze = random_maze(rng);
    const RollGraph graph = roll_graph(maze);
    const Condensation condensation = condense(graph);
    const auto resting = resting_cells(maze);
    ASSERT_EQ(std::set<int>(graph.resting.begin(), graph.resting.end()),
              std::set<int>(resting.begin(), resting.end()));
    ASSERT_EQ(graph.resting.front(), maze.start);
    ASSERT_EQ(condensation.component[at(maze.start)], 0);
    // reaches[u] by the brute force's resting_cells from u.
    for (const int u : resting)
      for (const int v : resting) {
        Maze from_u = maze;
        from_u.start = u;
        Maze from_v = maze;
        from_v.start = v;
        const auto ru = resting_cells(from_u), rv = resting_cells(from_v);
        const bool mutual =
            std::count(ru.begin(), ru.end(), v) > 0 && std::count(rv.begin(), rv.end(), u) > 0;
        ASSERT_EQ(mutual, condensation.component[at(u)] == condensation.component[at(v)])
            << text(maze);
      }
    // A roll between two components passes only cells some roll inside the destination
    // passes too (the lemma that makes pass mode a question about components alone).
    std::vector<std::set<int>> inside(at(condensation.count));
    for (const int u : resting)
      for (int d = 0; d < 4; ++d) {
        std::vector<int> passed;
        const int v = roll(maze, u, static_cast<Direction>(d), &passed);
        if (condensation.component[at(u)] == condensation.component[at(v)])
          inside[at(condensation.component[at(u)])].insert(passed.begin(), passed.end());
      }
    for (const int u : resting)
      for (int d = 0; d < 4; ++d) {
        std::vector<int> passed;
        const int v = roll(maze, u, static_cast<Direction>(d), &passed);
        const auto& cover = inside[at(condensation.component[at(v)])];
        if (condensation.component[at(u)] == condensation.component[at(v)]) continue;
        for (const int c : passed) ASSERT_TRUE(c == v || cover.count(c) > 0) << text(maze);
      }
    std::vector<int> position(at(condensation.count));
    for (int k = 0; k < condensation.count; ++k) position[at(condensation.order[at(k)])] = k;
    for (int c = 0; c < condensation.count; ++c) {
      const auto& s = condensation.successors[at(c)];
      ASSERT_TRUE(std::is_sorted(s.begin(), s.end()) &&
                  std::adjacent_find(s.begin(), s.end()) == s.end());
      for (const int d : s) ASSERT_LT(position[at(c)], position[at(d)]);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Big mazes.

// A 64 x 64 snake: strips of two rows, walked column by column with a turn at every cell
// (the first column of each strip gives only its top cell; the last one passes its bottom
// cell going down to the next strip), so about 4000 resting cells
// form one component whose depth-first search is as deep.
std::vector<int> snake_path() {
  std::vector<int> path;
  for (int strip = 0; strip < max_side / 2; ++strip) {
    const int top = 2 * strip;
    for (int k = 0; k < max_side; ++k) {
      const int column = strip % 2 == 0 ? k : max_side - 1 - k;
      const auto cell = [&](int row) { return row * max_side + column; };
      if (k == 0) {
        path.push_back(cell(top));
      } else if (k % 2 == 1) {
        path.push_back(cell(top));
        path.push_back(cell(top + 1));
      } else {
        path.push_back(cell(top + 1));
        path.push_back(cell(top));
      }
    }
  }
  return path;
}

// The cells of the snake where it turns, and its ends: the resting cells.
std::vector<int> snake_turns() {
  const auto path = snake_path();
  std::vector<int> turns{path.front()};
  for (std::size_t i = 1; i + 1 < path.size(); ++i)
    if (path[i] - path[i - 1] != path[i + 1] - path[i]) turns.push_back(path[i]);
  turns.push_back(path.back());
  return turns;
}

Maze snake_maze() {
  Maze maze = open_maze(max_side, max_side);
  std::fill(maze.east.begin(), maze.east.end(), 1);
  std::fill(maze.south.begin(), maze.south.end(), 1);
  const auto path = snake_path();
  for (std::size_t i = 1; i < path.size(); ++i) {
    const int a = std::min(path[i - 1], path[i]), b = std::max(path[i - 1], path[i]);
    if (b - a == 1) maze.east[at(a)] = 0;
    if (b - a == max_side) maze.south[at(a)] = 0;
  }
  maze.start = path.front();
  return maze;
}

struct SmallStackRun {
  const RollGraph* graph;
  Condensation result;
};

void* condense_on_small_stack(void* argument) {
  auto* run = static_cast<SmallStackRun*>(argument);
  run->result = condense(*run->graph);
  return nullptr;
}

TEST(TiltmazeSolver, SnakeCondensesWithoutRecursion) {
  const auto path = snake_path();
  for (std::size_t i = 1; i < path.size(); ++i) {
    const int step = std::abs(path[i] - path[i - 1]);
    ASSERT_TRUE(step == 1 || step == max_side) << i;
  }
  const Maze maze = snake_maze();
  const RollGraph graph = roll_graph(maze);
  const auto turns = snake_turns();
  EXPECT_EQ(std::set<int>(graph.resting.begin(), graph.resting.end()),
            std::set<int>(turns.begin(), turns.end()));
  EXPECT_GT(turns.size(), 4000U);
  // condense() on a thread with a 128 KiB stack: a recursive depth-first search ~4000 deep
  // would not fit.
  SmallStackRun run{&graph, {}};
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, std::size_t{128} * 1024), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attributes, condense_on_small_stack, &run), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attributes);
  EXPECT_EQ(run.result.count, 1);
  EXPECT_EQ(run.result.order, (std::vector<int>{0}));
  for (const int c : turns) EXPECT_EQ(run.result.component[at(c)], 0);
  EXPECT_EQ(std::count(run.result.component.begin(), run.result.component.end(), 0),
            static_cast<long>(turns.size()));

  // A one-way chain of 4096 synthetic cells: 4096 components in a line.
  RollGraph line{4096, {}, {}};
  for (int c = 0; c < line.cells; ++c) {
    line.next.push_back({c, std::min(c + 1, line.cells - 1), c, c});
    line.resting.push_back(c);
  }
  SmallStackRun chain_run{&line, {}};
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, std::size_t{128} * 1024), 0);
  ASSERT_EQ(pthread_create(&thread, &attributes, condense_on_small_stack, &chain_run), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attributes);
  ASSERT_EQ(chain_run.result.count, 4096);
  for (int c = 0; c < line.cells; ++c) {
    EXPECT_EQ(chain_run.result.component[at(c)], c);
    EXPECT_EQ(chain_run.result.successors[at(c)],
              c + 1 < line.cells ? std::vector<int>{c + 1} : std::vector<int>{});
  }
}

TEST(TiltmazeSolver, SnakeSolutions) {
  Maze maze = snake_maze();
  const auto path = snake_path();
  maze.targets = {path.back(), path[path.size() / 2], path[7]};
  for (const Collect collect : {Collect::stop, Collect::pass}) {
    const Solution s = shortest_solution(maze, collect);
    ASSERT_TRUE(s.solvable);
    EXPECT_TRUE(s.proven_shortest);
    EXPECT_EQ(s.length, static_cast<int>(snake_turns().size()) - 1);  // one tilt per turn
    EXPECT_TRUE(collects_everything(maze, collect, s.moves));
  }
  // 40 targets: beyond the exact BFS, a valid solution along the condensation.
  maze.targets.clear();
  for (std::size_t i = 3; i < path.size(); i += 100) maze.targets.push_back(path[i]);
  ASSERT_GT(maze.targets.size(), 20U);
  for (const Collect collect : {Collect::stop, Collect::pass}) {
    const Solution s = shortest_solution(maze, collect);
    ASSERT_TRUE(s.solvable);
    EXPECT_FALSE(s.proven_shortest);
    EXPECT_EQ(s.length, static_cast<int>(s.moves.size()));
    EXPECT_GE(s.length, 3900);  // the last target is about 3970 turns along
    EXPECT_TRUE(collects_everything(maze, collect, s.moves));
  }
  // The snake's walls shut off one cell per strip: a target there is unsolvable.
  maze.targets.push_back(max_side);  // (1, 0)
  EXPECT_FALSE(solvable(maze, Collect::stop));
  EXPECT_FALSE(shortest_solution(maze, Collect::pass).solvable);
}

TEST(TiltmazeSolver, ManyTargetsGiveValidSolutions) {
  std::mt19937_64 rng(99);
  std::array<int, 2> solved = {0, 0};
  int tried = 0;
  for (int i = 0; i < 300; ++i) {
    std::uniform_int_distribution<int> side(10, 16), count(21, 40);
    Maze maze = open_maze(side(rng), side(rng));
    std::bernoulli_distribution wall(std::uniform_real_distribution<double>(0.05, 0.3)(rng));
    for (auto& w : maze.east) w = wall(rng) ? 1 : 0;
    for (auto& w : maze.south) w = wall(rng) ? 1 : 0;
    maze.start = std::uniform_int_distribution<int>(0, maze.cells() - 1)(rng);
    auto pool = resting_cells(maze);
    if (pool.size() < 21) continue;
    ++tried;
    std::shuffle(pool.begin(), pool.end(), rng);
    pool.resize(std::min(pool.size(), at(count(rng))));
    maze.targets = pool;
    for (const Collect collect : {Collect::stop, Collect::pass}) {
      const Solution s = shortest_solution(maze, collect);
      ASSERT_EQ(s.solvable, solvable(maze, collect)) << text(maze);
      if (!s.solvable) continue;
      ++solved[collect == Collect::stop ? 0 : 1];
      EXPECT_FALSE(s.proven_shortest);
      EXPECT_EQ(s.length, static_cast<int>(s.moves.size()));
      EXPECT_TRUE(collects_everything(maze, collect, s.moves)) << text(maze) << s.moves;
    }
  }
  EXPECT_GT(tried, 100);
  EXPECT_GT(solved[0], 10);
  EXPECT_GT(solved[1], solved[0]);
}

}  // namespace
