// The matchstick puzzle capability's independent checks (kernels/matchstick/analysis.hpp):
// equations evaluated from their text, solutions held to the rules stick by stick, on
// hand-made cases, and wrong answers made from the solvers' own that must be refused.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/matchstick/analysis.hpp"
#include "kernels/matchstick/matchstick.hpp"

namespace {

using namespace levelforge::matchstick;
using levelforge::ParamSet;
using levelforge::PuzzleInputError;
using levelforge::matchstick::Solution;  // not tiltmaze::Solution, which a unity batch shows too

TEST(MatchstickAnalysis, HoldsEvaluatesTheText) {
  EXPECT_TRUE(holds("12+3=15", LeadingZeros::allow));
  EXPECT_FALSE(holds("12+3=16", LeadingZeros::allow));
  EXPECT_TRUE(holds("9-3=6", LeadingZeros::forbid));
  EXPECT_TRUE(holds("09+1=10", LeadingZeros::allow));
  EXPECT_FALSE(holds("09+1=10", LeadingZeros::forbid));
  EXPECT_TRUE(holds("0+0=0", LeadingZeros::forbid));   // a lone 0 is no leading zero
  EXPECT_FALSE(holds("3-5=-2", LeadingZeros::allow));  // no negative numbers
  EXPECT_FALSE(holds("1+1", LeadingZeros::allow));
  EXPECT_FALSE(holds("1=1+0", LeadingZeros::allow));
  EXPECT_TRUE(holds("123456+1=123457", LeadingZeros::allow));
  EXPECT_FALSE(holds("1234567+1=1234568", LeadingZeros::allow));  // past max_digits
  EXPECT_FALSE(holds("1+?=2", LeadingZeros::allow));
}

const Layout six_plus_four = parse_equation("6+4=4");
const Rules one_move{1, Count::up_to, LeadingZeros::allow};

TEST(MatchstickAnalysis, RuleBreachNamesWhatIsWrong) {
  // 6+4=4 -> 0+4=4: the middle stick of the 6 (0.g) goes to its top right (0.b).
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"0+4=4", 1, "0.g>0.b"}), "");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"8-4=4", 1, "1.v>0.b"}), "");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"0+4=4", 1, "0.b>0.g"}),
            "moves a stick from '0.b', which is no place the solution emptied");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"0+4=4", 1, "0.g>0.c"}),
            "moves a stick to '0.c', which is no place the solution filled");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"0+4=4", 2, "0.g>0.b"}), "is 1 move away, not 2");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"0+4=4", 1, "0.g 0.b"}),
            "names a move '0.g' without '>'");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"6+4=5", 1, "3.b>3.f"}), "is false");
  EXPECT_EQ(
      rule_breach(six_plus_four, {1, Count::up_to, LeadingZeros::forbid}, {"6+4=5", 1, "3.b>3.f"}),
      "is false or has a leading zero");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"10+4=14", 1, "0.g>0.b"}),
            "has another number of digits than the puzzle");
  EXPECT_EQ(rule_breach(six_plus_four, one_move, {"6+4=x", 1, ""}),
            "does not read back as an equation (<solution>:5: unknown symbol 'x')");
  // 6+4=4 -> 4+4=8 moves two sticks (and fills as many as it empties): too far for k = 1,
  // and no pair of moves is named for it.
  const std::string breach = rule_breach(six_plus_four, one_move, {"4+4=8", 1, "0.a>3.a"});
  EXPECT_FALSE(breach.empty());
}

TEST(MatchstickAnalysis, AnswerBreachChecksTheWholeAnswer) {
  const auto answer = analyze_matchstick(six_plus_four, one_move);
  ASSERT_EQ(answer.solutions.size(), 2U);
  EXPECT_FALSE(answer.puzzle_true);
  EXPECT_EQ(answer_breach(six_plus_four, answer), "");
  auto wrong = answer;
  wrong.puzzle_true = true;
  EXPECT_EQ(answer_breach(six_plus_four, wrong),
            "says the puzzle is true, its evaluation disagrees");
  wrong = answer;
  std::swap(wrong.solutions[0], wrong.solutions[1]);
  EXPECT_EQ(answer_breach(six_plus_four, wrong),
            "lists the solutions unsorted or twice: 0+4=4 after 8-4=4");
  wrong = answer;
  wrong.solutions[1] = wrong.solutions[0];
  EXPECT_NE(answer_breach(six_plus_four, wrong), "");
}

// Every one-digit puzzle under each rule: the solvers' answer passes; the same answer with a
// solution's distance, its moves reversed, or its equation made false, fails.
TEST(MatchstickAnalysis, SolverAnswersPassAndTheirCorruptionsFail) {
  int corrupted = 0;
  for (int moves = 1; moves <= 2; ++moves) {
    for (const Count count : {Count::up_to, Count::exact}) {
      const Rules rules{moves, count, LeadingZeros::allow};
      for (int a = 0; a < 10; ++a) {
        for (const char op : {'+', '-'}) {
          for (int b = 0; b < 10; ++b) {
            for (int c = 0; c < 10; ++c) {
              const Layout puzzle = layout_of(a, op, b, c);
              const auto answer = analyze_matchstick(puzzle, rules);
              ASSERT_EQ(answer_breach(puzzle, answer), "") << to_string(puzzle);
              for (const Solution& solution : answer.solutions) {
                Solution further = solution;
                further.distance += 1;
                EXPECT_NE(rule_breach(puzzle, rules, further), "") << to_string(puzzle);
                Solution reversed = solution;
                reversed.moved.clear();
                for (std::size_t begin = 0; begin < solution.moved.size();) {
                  const std::size_t end =
                      std::min(solution.moved.find(' ', begin), solution.moved.size());
                  const std::string pair = solution.moved.substr(begin, end - begin);
                  const std::size_t arrow = pair.find('>');
                  if (!reversed.moved.empty()) reversed.moved += ' ';
                  reversed.moved.append(pair, arrow + 1).append(1, '>').append(pair, 0, arrow);
                  begin = end + 1;
                }
                EXPECT_NE(rule_breach(puzzle, rules, reversed), "") << to_string(puzzle);
                Solution false_one = solution;
                false_one.equation = to_string(puzzle);
                EXPECT_NE(rule_breach(puzzle, rules, false_one), "") << to_string(puzzle);
                corrupted += 3;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(corrupted, 3000);
}

TEST(MatchstickAnalysis, TheKernelChecksItsOwnRules) {
  using levelforge::kernels::Matchstick;
  auto options = ParamSet::defaults(Matchstick::solve_options());
  const auto puzzle = Matchstick::parse_puzzle("6+4=4", "<puzzle>");
  const auto answer = Matchstick::solve_puzzle(puzzle, options);
  EXPECT_EQ(Matchstick::check_answer(puzzle, options, answer), "");
  options.set("moves", std::int64_t{2});
  EXPECT_EQ(Matchstick::check_answer(puzzle, options, answer), "is for other rules than asked");
  try {
    (void)Matchstick::parse_puzzle("6x4=4", "<puzzle>");
    ADD_FAILURE() << "6x4=4 parsed";
  } catch (const PuzzleInputError& error) {
    EXPECT_EQ(std::string(error.what()).substr(0, 12), "<puzzle>:2: ");
    EXPECT_NE(std::string(error.what()).find("\n  6x4=4\n   ^"), std::string::npos);
  }
}

}  // namespace
