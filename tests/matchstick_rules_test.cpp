// The matchstick model (kernels/matchstick/equation.hpp): symbol tables, equation strings,
// truth, leading zeros, and solutions of hand-checked puzzles by both solvers.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {
namespace {

// A pattern from its segment letters, as the document's figure names them.
Pattern segments(const std::string& letters) {
  unsigned pattern = 0;
  for (const char letter : letters) pattern |= 1U << (letter - 'a');
  return static_cast<Pattern>(pattern);
}

Rules rules(int moves, Count count = Count::up_to,
            LeadingZeros leading_zeros = LeadingZeros::allow) {
  return Rules{moves, count, leading_zeros};
}

// The equations of both solvers' solutions, after checking that the two agree.
std::vector<std::string> equations(const std::string& puzzle, const Rules& rules) {
  const Layout layout = parse_equation(puzzle);
  const std::vector<Solution> dfs = solve_dfs(layout, rules);
  EXPECT_EQ(solve_fast(layout, rules), dfs) << puzzle;
  std::vector<std::string> found;
  found.reserve(dfs.size());
  for (const Solution& solution : dfs) found.push_back(solution.equation);
  return found;
}

using Equations = std::vector<std::string>;

TEST(MatchstickSymbols, DigitsAreTheSevenSegmentShapes) {
  const std::array<const char*, 10> shapes = {"abcdef", "bc",     "abdeg", "abcdg",   "bcfg",
                                              "acdfg",  "acdefg", "abc",   "abcdefg", "abcdfg"};
  const std::array<int, 10> sticks_per_digit = {6, 2, 5, 5, 4, 5, 6, 3, 7, 6};
  for (std::size_t d = 0; d < 10; ++d) {
    EXPECT_EQ(digit_patterns[d], segments(shapes[d])) << d;
    EXPECT_EQ(std::popcount(digit_patterns[d]), sticks_per_digit[d]) << d;
    EXPECT_EQ(digit_of(digit_patterns[d]), static_cast<int>(d));
  }
  int digits = 0;
  for (unsigned pattern = 0; pattern < 256; ++pattern) {
    digits += digit_of(static_cast<Pattern>(pattern)) >= 0 ? 1 : 0;
  }
  EXPECT_EQ(digits, 10);  // no two digits share a pattern
  EXPECT_EQ(std::popcount(plus_pattern), 2);
  EXPECT_EQ(std::popcount(minus_pattern), 1);
  EXPECT_EQ(plus_pattern & minus_pattern, minus_pattern);  // '-' is '+' without the vertical
}

TEST(MatchstickEquation, ParsesAndPrints) {
  const Layout layout = parse_equation("6+4=4");
  EXPECT_EQ(layout.form, (Form{1, 1, 1}));
  EXPECT_EQ(layout.cells, (std::vector<Pattern>{digit_patterns[6], plus_pattern, digit_patterns[4],
                                                digit_patterns[4]}));
  EXPECT_EQ(to_string(layout), "6+4=4");
  EXPECT_EQ(sticks(layout), 6 + 2 + 4 + 4);

  const Layout zeros = parse_equation("0+3=09");  // the document's example keeps its zero
  EXPECT_EQ(zeros.form, (Form{1, 1, 2}));
  EXPECT_EQ(to_string(zeros), "0+3=09");
  for (const char* text : {"123456-1=123455", "10-7=3", "0-0=0"}) {
    EXPECT_EQ(to_string(parse_equation(text)), text);
  }

  Layout broken = layout;
  broken.cells[0] = segments("abcg");
  broken.cells[1] = 0x02;  // the vertical stick alone
  EXPECT_EQ(to_string(broken), "\?\?4=4");
}

TEST(MatchstickEquation, ParseErrorsNameTheColumn) {
  struct Case {
    const char* text;
    int column;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"", 1, "missing the first operand"},
      {"6*4=4", 2, "unknown symbol '*'"},
      {"6+4=x", 5, "unknown symbol 'x'"},
      {"6 +4=4", 2, "unknown symbol ' ' (a space)"},
      {"+4=4", 1, "the first operand is empty, found '+'"},
      {"6+=4", 3, "the second operand is empty, found '='"},
      {"6+4=", 5, "missing the result"},
      {"6+4", 4, "missing '=' and the result"},
      {"64=4", 3, "missing the operator '+' or '-' before '='"},
      {"64", 3, "missing the operator '+' or '-'"},
      {"6+4+4=4", 4, "expected '=' after the second operand, found '+'"},
      {"6+4=4=4", 6, "a second '='"},
      {"6+4=4-1", 6, "expected the end of the equation after the result, found '-'"},
      {"1234567+1=1", 7, "the first operand has more than 6 digits"},
      {"1+1=1234567", 11, "the result has more than 6 digits"},
  };
  for (const auto& c : cases) {
    try {
      parse_equation(c.text, "puzzle.txt");
      ADD_FAILURE() << c.text << " parsed";
    } catch (const PuzzleError& error) {
      EXPECT_EQ(error.column(), c.column) << c.text;
      EXPECT_EQ(std::string(error.what()),
                "puzzle.txt:" + std::to_string(c.column) + ": " + c.message);
    }
  }
  try {
    parse_equation("6+4=\x01");
    ADD_FAILURE();
  } catch (const PuzzleError& error) {
    EXPECT_EQ(std::string(error.what()), "<puzzle>:5: unknown symbol byte 0x01");
  }
}

TEST(MatchstickEquation, LayoutOfNaturalForm) {
  EXPECT_EQ(layout_of(12, '+', 3, 15), parse_equation("12+3=15"));
  EXPECT_EQ(layout_of(0, '-', 0, 0), parse_equation("0-0=0"));
  EXPECT_EQ(layout_of(999999, '-', 1, 999998), parse_equation("999999-1=999998"));
  EXPECT_THROW(layout_of(-1, '+', 1, 0), std::invalid_argument);
  EXPECT_THROW(layout_of(1000000, '+', 1, 0), std::invalid_argument);
  EXPECT_THROW(layout_of(1, '*', 1, 1), std::invalid_argument);
  Layout reused = layout_of(123, '+', 456, 579);
  layout_of(1, '-', 1, 0, reused);
  EXPECT_EQ(reused, parse_equation("1-1=0"));
}

TEST(MatchstickEquation, MalformedLayoutsAreRefused) {
  Layout layout = parse_equation("6+4=4");
  layout.cells.pop_back();
  EXPECT_THROW(check_layout(layout), std::invalid_argument);
  EXPECT_THROW(is_true(layout, LeadingZeros::allow), std::invalid_argument);
  layout = parse_equation("6+4=4");
  layout.cells[1] = 0x07;  // a third stick in the operator slot
  EXPECT_THROW(solve_dfs(layout, rules(1)), std::invalid_argument);
  EXPECT_THROW(solve_fast(layout, rules(1)), std::invalid_argument);
  layout = parse_equation("6+4=4");
  layout.form.c_digits = 0;
  EXPECT_THROW(check_layout(layout), std::invalid_argument);
  EXPECT_THROW(FastSolver(rules(0)), std::invalid_argument);
  EXPECT_THROW(solve_dfs(parse_equation("6+4=4"), rules(4)), std::invalid_argument);
}

TEST(MatchstickEquation, TruthAndLeadingZeros) {
  EXPECT_TRUE(is_true(parse_equation("8-4=4"), LeadingZeros::allow));
  EXPECT_TRUE(is_true(parse_equation("123+877=1000"), LeadingZeros::allow));
  EXPECT_FALSE(is_true(parse_equation("6+4=4"), LeadingZeros::allow));
  EXPECT_FALSE(is_true(parse_equation("3-4=0"), LeadingZeros::allow));  // no negative numbers
  EXPECT_TRUE(is_true(parse_equation("0+9=09"), LeadingZeros::allow));
  EXPECT_FALSE(is_true(parse_equation("0+9=09"), LeadingZeros::forbid));
  EXPECT_TRUE(is_true(parse_equation("0+3=03"), LeadingZeros::allow));
  EXPECT_TRUE(is_true(parse_equation("0+3=3"), LeadingZeros::forbid));  // a lone 0 is no lead
  Layout broken = parse_equation("8-4=4");
  broken.cells[1] = 0x02;  // the vertical stick alone
  EXPECT_FALSE(is_true(broken, LeadingZeros::allow));

  // 0+1=89 -> 8+1=09 (a stick from C's 8 to A's 0, the g segment) is a solution only while
  // leading zeros are allowed; nothing else is one move away.
  EXPECT_EQ(equations("0+1=89", rules(1)), (Equations{"8+1=09"}));
  EXPECT_EQ(equations("0+1=89", rules(1, Count::up_to, LeadingZeros::forbid)), (Equations{}));
  // A puzzle may show a forbidden leading zero: its solutions must lose it.
  EXPECT_EQ(equations("0+3=09", rules(1, Count::up_to, LeadingZeros::forbid)), (Equations{}));
  EXPECT_EQ(equations("0+3=09", rules(1)), (Equations{"6+3=09"}));
}

// Hand-checked, by the imbalance E = A op B - C and the one-stick changes of each digit:
// removing one (6->5, 7->1, 8->0/6/9, 9->3/5), adding one (the reverse) or moving one
// inside (0<->6, 0<->9, 6<->9, 2<->3, 3<->5); 1, 2, 3, 4, 0 give none away.
TEST(MatchstickSolutions, HandCheckedOneMove) {
  // 6+4=4 (the issue), E = 6. Inside: 6->0 makes E 0: 0+4=4; 6->9 does not. Give and take:
  // 6->5 (E 5) needs -5 from an added stick (only 6->8 on the same digit); '+' -> '-' makes
  // E = -2, then 6->8 adds 2: 8-4=4.
  EXPECT_EQ(equations("6+4=4", rules(1)), (Equations{"0+4=4", "8-4=4"}));
  // 5+7=2, a puzzle-book classic, E = 10. Inside: 5->3 (E 8), 2->3 (E 9): no. 7->1 (E 4)
  // needs -4 from an added stick: 5->6 gives +1, 5->9 +4, 2 takes none. '+' -> '-' makes
  // E = -4, then 5->9 adds 4: 9-7=2.
  EXPECT_EQ(equations("5+7=2", rules(1)), (Equations{"9-7=2"}));
  // 3+3=5, E = 1. Inside: either 3->2 makes E 0 (2+3=5, 3+2=5); 3->5 (+2) and C 5->3
  // (+2) do not. No digit gives a stick; '+' -> '-' makes E = -5, and no added stick
  // brings +5 (3->9 on A +6, on B -6; C 5->6 -1, 5->9 -4).
  EXPECT_EQ(equations("3+3=5", rules(1)), (Equations{"2+3=5", "3+2=5"}));
  // 7+1=0, E = 8. No move inside helps (C 0->6: E 14, 0->9: E 17). 7->1 (E 2) needs -2:
  // B 1->7 gives +6, C 0->8 -8. '+' -> '-' makes E = 6, and B 1->7 (now -6) brings it to
  // 0: 7-7=0.
  EXPECT_EQ(equations("7+1=0", rules(1)), (Equations{"7-7=0"}));
}

TEST(MatchstickSolutions, OperatorGivesAndTakesTheVerticalStick) {
  // '+' -> '-': the vertical stick goes to C's 5, which becomes 6.
  const Layout give = parse_equation("9+3=5");
  const auto given = solve_dfs(give, rules(1));
  ASSERT_EQ(given.size(), 3U);
  EXPECT_EQ(given[0], (Solution{"3+3=6", 1, "0.f>3.e"}));
  EXPECT_EQ(given[1], (Solution{"8-3=5", 1, "1.v>0.e"}));
  EXPECT_EQ(given[2], (Solution{"9-3=6", 1, "1.v>3.e"}));
  EXPECT_EQ(solve_fast(give, rules(1)), given);
  // '-' -> '+': the 8 gives its b to the operator and becomes 6.
  const Layout take = parse_equation("8-3=9");
  EXPECT_EQ(solve_dfs(take, rules(1)), (std::vector<Solution>{{"6+3=9", 1, "0.b>1.v"}}));
  EXPECT_EQ(solve_fast(take, rules(1)), solve_dfs(take, rules(1)));
  // '-' cannot give its only stick, '+' cannot take a third.
  EXPECT_EQ(equations("1-1=0", rules(1)), (Equations{}));
}

TEST(MatchstickSolutions, MovedSticks) {
  const Layout puzzle = parse_equation("6+4=4");
  EXPECT_EQ(moved_sticks(puzzle, parse_equation("9+4=4")), "0.e>0.b");
  EXPECT_EQ(moved_sticks(puzzle, parse_equation("8-4=4")), "1.v>0.b");
  EXPECT_EQ(moved_sticks(puzzle, puzzle), "");
  EXPECT_THROW(moved_sticks(puzzle, parse_equation("8+4=4")), std::invalid_argument);
  EXPECT_THROW(moved_sticks(puzzle, parse_equation("6+4=14")), std::invalid_argument);
}

TEST(MatchstickSolutions, PuzzleIsNeverItsOwnSolution) {
  for (int a = 0; a < 10; ++a) {
    for (int b = 0; b < 10; ++b) {
      for (const char op : {'+', '-'}) {
        const int c = op == '+' ? a + b : a - b;
        if (c < 0 || c > 9) continue;
        const Layout puzzle = layout_of(a, op, b, c);
        const std::string text = to_string(puzzle);
        for (int k = 1; k <= 2; ++k) {
          for (const Solution& solution : solve_fast(puzzle, rules(k))) {
            EXPECT_NE(solution.equation, text);
          }
        }
      }
    }
  }
  // A true puzzle can have other solutions: 8-4=4 -> 0+4=4 (the 8's g becomes the vertical).
  EXPECT_EQ(equations("8-4=4", rules(1)), (Equations{"0+4=4"}));
  EXPECT_EQ(equations("8-4=4", rules(2)), (Equations{"0+4=4", "9-4=5", "9-5=4"}));
}

TEST(MatchstickSolutions, ExactAndUpTo) {
  for (const char* puzzle : {"6+4=4", "1+1=3", "7+7=0", "12+34=56", "0+3=09"}) {
    const Layout layout = parse_equation(puzzle);
    for (int k = 1; k <= 3; ++k) {
      std::vector<Solution> union_of_exact;
      for (int d = 1; d <= k; ++d) {
        for (const Solution& solution : solve_dfs(layout, rules(d, Count::exact))) {
          EXPECT_EQ(solution.distance, d) << puzzle;
          union_of_exact.push_back(solution);
        }
      }
      std::sort(union_of_exact.begin(), union_of_exact.end(),
                [](const Solution& x, const Solution& y) { return x.equation < y.equation; });
      EXPECT_EQ(solve_dfs(layout, rules(k)), union_of_exact) << puzzle << " k=" << k;
      EXPECT_EQ(solve_fast(layout, rules(k)), union_of_exact) << puzzle << " k=" << k;
    }
  }
  // 1+1=3: 1+1=2 is one move away (C's c to e), 1-1=0 two (the vertical and C's g).
  EXPECT_EQ(equations("1+1=3", rules(2)), (Equations{"1+1=2", "1-1=0"}));
  EXPECT_EQ(equations("1+1=3", rules(2, Count::exact)), (Equations{"1-1=0"}));
  EXPECT_EQ(equations("6+4=4", rules(2, Count::exact)), (Equations{}));
}

}  // namespace
}  // namespace levelforge::matchstick
