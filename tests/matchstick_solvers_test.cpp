// The table-driven solver (solve_fast, FastSolver) against the document's depth-first
// search (solve_dfs): identical solution lists, distances and moves included, on every
// one-digit puzzle and on random puzzles of 1 to 3 digits per number, for k = 1, 2, 3,
// both leading-zero modes and both count modes.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/matchstick/analysis.hpp"
#include "kernels/matchstick/equation.hpp"
#include "tests/random_cases.hpp"

namespace levelforge::matchstick {
namespace {

std::size_t at(int index) { return static_cast<std::size_t>(index); }

struct Mode {
  LeadingZeros leading_zeros;
  Count count;
};
constexpr std::array<Mode, 4> modes = {{{LeadingZeros::allow, Count::up_to},
                                        {LeadingZeros::allow, Count::exact},
                                        {LeadingZeros::forbid, Count::up_to},
                                        {LeadingZeros::forbid, Count::exact}}};

std::string describe(const Layout& puzzle, const Rules& rules) {
  std::ostringstream text;
  text << to_string(puzzle) << " k=" << rules.moves
       << (rules.count == Count::up_to ? " up_to" : " exact")
       << (rules.leading_zeros == LeadingZeros::allow ? " allow" : " forbid");
  return text.str();
}

std::string listing(const std::vector<Solution>& solutions) {
  std::string text;
  for (const Solution& s : solutions) {
    text += " " + s.equation + "(" + std::to_string(s.distance) + ": " + s.moved + ")";
  }
  return text.empty() ? " none" : text;
}

// Compares both solvers on one puzzle; counts what they found.
class Comparison {
 public:
  void check(const Layout& puzzle, const Rules& rules) {
    const std::vector<Solution> dfs = solve_dfs(puzzle, rules);
    const std::vector<Solution> fast = solve_fast(puzzle, rules);
    ++puzzles_;
    solutions_ += dfs.size();
    solved_ += dfs.empty() ? 0U : 1U;
    if (fast != dfs && ++failures_ <= 10) {
      ADD_FAILURE() << describe(puzzle, rules) << "\n  dfs: " << listing(dfs)
                    << "\n  fast:" << listing(fast);
    }
    // The kernel's independent checker (analysis.hpp) holds every answer.
    const std::string breach = answer_breach(
        puzzle, MatchstickAnalysis{rules, is_true(puzzle, rules.leading_zeros), fast});
    if (!breach.empty() && ++failures_ <= 10)
      ADD_FAILURE() << describe(puzzle, rules) << ": the answer " << breach << listing(fast);
  }
  void report(const std::string& what) const {
    std::cout << "[ " << what << " ] " << puzzles_ << " runs, " << solved_ << " with solutions, "
              << solutions_ << " solutions\n";
  }
  [[nodiscard]] std::size_t solved() const { return solved_; }

 private:
  std::size_t puzzles_ = 0;
  std::size_t solved_ = 0;
  std::size_t solutions_ = 0;
  int failures_ = 0;
};

bool whole(const Layout& layout, int position, Pattern pattern) {
  if (position == layout.form.operator_position()) {
    return pattern == plus_pattern || pattern == minus_pattern;
  }
  return digit_of(pattern) >= 0;
}

// One stick moved at random, among the moves after which every position shows a symbol.
void random_move(Layout& layout, std::mt19937_64& rng) {
  struct Move {
    int from, to;
    Pattern from_place, to_place;
  };
  std::vector<Move> moves;
  const int positions = layout.form.positions();
  for (int from = 0; from < positions; ++from) {
    for (int to = 0; to < positions; ++to) {
      const int places = to == layout.form.operator_position() ? 2 : 7;
      for (unsigned f = 1; f < 128; f <<= 1) {
        if ((layout.cells[at(from)] & f) == 0) continue;
        for (unsigned t = 1; t < (1U << places); t <<= 1) {
          if (from == to && t == f) continue;
          Layout after = layout;
          after.cells[at(from)] = static_cast<Pattern>(after.cells[at(from)] & ~f);
          if ((after.cells[at(to)] & t) != 0) continue;
          after.cells[at(to)] = static_cast<Pattern>(after.cells[at(to)] | t);
          if (whole(after, from, after.cells[at(from)]) && whole(after, to, after.cells[at(to)])) {
            moves.push_back(Move{from, to, static_cast<Pattern>(f), static_cast<Pattern>(t)});
          }
        }
      }
    }
  }
  if (moves.empty()) return;
  const Move& move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
  layout.cells[at(move.from)] =
      static_cast<Pattern>(layout.cells[at(move.from)] & ~move.from_place);
  layout.cells[at(move.to)] = static_cast<Pattern>(layout.cells[at(move.to)] | move.to_place);
}

std::int64_t random_number(int digits, std::mt19937_64& rng) {
  static constexpr std::array<std::int64_t, 4> limits = {1, 10, 100, 1000};
  return std::uniform_int_distribution<std::int64_t>(
      0, limits[static_cast<std::size_t>(digits)] - 1)(rng);
}

// Half the puzzles are random digit strings (leading zeros included), half are true
// equations (natural form) scrambled by 1 to `moves` random moves, so that many have
// solutions.
Layout random_puzzle(int moves, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> digits(1, 3);
  const char op = rng() % 2 == 0 ? '+' : '-';
  if (rng() % 2 == 0) {
    std::string text;
    for (int number = 0; number < 3; ++number) {
      const int count = digits(rng);
      for (int i = 0; i < count; ++i) text += static_cast<char>('0' + rng() % 10);
      text += number == 0 ? std::string(1, op) : number == 1 ? "=" : "";
    }
    return parse_equation(text);
  }
  for (;;) {
    std::int64_t a = random_number(digits(rng), rng);
    std::int64_t b = random_number(digits(rng), rng);
    if (op == '-' && a < b) std::swap(a, b);
    const std::int64_t c = op == '+' ? a + b : a - b;
    if (c > 999) continue;
    Layout layout = layout_of(a, op, b, c);
    const int steps = std::uniform_int_distribution<int>(1, moves)(rng);
    for (int step = 0; step < steps; ++step) random_move(layout, rng);
    return layout;
  }
}

TEST(MatchstickSolvers, EveryOneDigitPuzzle) {
  for (int k = 1; k <= 3; ++k) {
    Comparison comparison;
    int puzzle_number = 0;
    for (const Mode& mode : modes) {
      const Rules rules{k, mode.count, mode.leading_zeros};
      for (int a = 0; a < 10; ++a) {
        for (const char op : {'+', '-'}) {
          for (int b = 0; b < 10; ++b) {
            for (int c = 0; c < 10; ++c) {
              if (testing::sampled_case(puzzle_number++)) {
                comparison.check(layout_of(a, op, b, c), rules);
              }
            }
          }
        }
      }
    }
    comparison.report("one digit, k=" + std::to_string(k));
    EXPECT_GT(comparison.solved(), static_cast<std::size_t>(testing::random_cases(100)));
  }
}

// k = 1 runs every puzzle in all four modes. The depth-first search is slow for k = 2 and 3,
// so there each puzzle runs twice, in both leading-zero modes and both count modes: allow
// with up_to and forbid with exact, or allow with exact and forbid with up_to, alternately.
void compare_random(int k, int puzzles, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Comparison comparison;
  for (int i = 0; i < puzzles; ++i) {
    const Layout puzzle = random_puzzle(k, rng);
    for (const Mode& mode : modes) {
      const bool crossed =
          (mode.leading_zeros == LeadingZeros::allow) == (mode.count == Count::up_to);
      if (k > 1 && crossed != (i % 2 == 0)) continue;
      comparison.check(puzzle, Rules{k, mode.count, mode.leading_zeros});
    }
  }
  comparison.report(std::to_string(puzzles) + " random puzzles, k=" + std::to_string(k));
  EXPECT_GT(comparison.solved(), static_cast<std::size_t>(puzzles) / 4);
}

TEST(MatchstickSolvers, RandomPuzzlesOneMove) {
  compare_random(1, testing::random_cases(20000), 1001);
}
TEST(MatchstickSolvers, RandomPuzzlesTwoMoves) {
  compare_random(2, testing::random_cases(20000), 1002);
}
TEST(MatchstickSolvers, RandomPuzzlesThreeMoves) {
  compare_random(3, testing::random_cases(1000), 1003);
}

// Puzzles whose cells need not show symbols (a layout from elsewhere, not a parsed string):
// the solutions repair them. Up to two broken cells, k = 1 and 2.
TEST(MatchstickSolvers, BrokenCells) {
  std::mt19937_64 rng(1004);
  Comparison comparison;
  for (int i = 0; i < testing::random_cases(4000); ++i) {
    Layout puzzle = random_puzzle(1, rng);
    const int broken = 1 + i % 2;
    for (int j = 0; j < broken; ++j) {
      const int position = std::uniform_int_distribution<int>(0, puzzle.form.positions() - 1)(rng);
      const unsigned places = position == puzzle.form.operator_position() ? 0x03U : 0x7FU;
      puzzle.cells[at(position)] = static_cast<Pattern>(rng() & places);
    }
    for (int k = 1; k <= 2; ++k) {
      for (const Mode& mode : modes)
        comparison.check(puzzle, Rules{k, mode.count, mode.leading_zeros});
    }
  }
  comparison.report("puzzles with broken cells, k=1, 2");
  EXPECT_GT(comparison.solved(), 100U);
}

// FastSolver kept across puzzles, as the sweeps use it: the same solutions as solve_fast,
// with valid layouts at their distances.
TEST(MatchstickSolvers, ReusedSolver) {
  std::mt19937_64 rng(1005);
  for (const Mode& mode : modes) {
    for (int k = 1; k <= 3; ++k) {
      const Rules rules{k, mode.count, mode.leading_zeros};
      const FastSolver solver(rules);
      std::vector<FoundLayout> found;
      for (int i = 0; i < 300; ++i) {
        const Layout puzzle = random_puzzle(k, rng);
        found.clear();
        const std::size_t appended = solver.solve(puzzle, found);
        ASSERT_EQ(appended, found.size());
        const std::vector<Solution> expected = solve_fast(puzzle, rules);
        ASSERT_EQ(found.size(), expected.size()) << describe(puzzle, rules);
        for (const FoundLayout& layout : found) {
          Layout after{puzzle.form, {}};
          after.cells.assign(layout.cells.begin(), layout.cells.begin() + puzzle.form.positions());
          EXPECT_TRUE(is_true(after, rules.leading_zeros)) << describe(puzzle, rules);
          EXPECT_EQ(sticks(after), sticks(puzzle));
          const auto match = std::find_if(expected.begin(), expected.end(), [&](const Solution& s) {
            return s.equation == to_string(after);
          });
          ASSERT_NE(match, expected.end()) << describe(puzzle, rules);
          EXPECT_EQ(match->distance, layout.distance);
        }
      }
    }
  }
}

}  // namespace
}  // namespace levelforge::matchstick
