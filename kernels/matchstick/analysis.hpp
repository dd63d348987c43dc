#pragma once
// Everything the solvers find about one equation, held against the document's depth-first
// search and against the rules checked on their own: what `levelforge solve matchstick`
// reports. The rules' parameters are here too, shared by the kernel's sweeps and `solve`.

#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/params.hpp"
#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {

inline constexpr Vocabulary<Count, 2> count_words{
    {{{"up_to", Count::up_to}, {"exact", Count::exact}}}};
inline constexpr Vocabulary<LeadingZeros, 2> leading_zeros_words{
    {{{"allow", LeadingZeros::allow}, {"forbid", LeadingZeros::forbid}}}};

// `moves`, `count` and `leading_zeros`, and the Rules they set.
std::vector<ParamSpec> rule_params();
Rules rules_of(const ParamSet& params);

struct MatchstickAnalysis {
  Rules rules;
  bool puzzle_true = false;         // under rules.leading_zeros
  std::vector<Solution> solutions;  // sorted by equation
};

// Solves `puzzle` with the table-driven solver and with the document's depth-first search;
// a disagreement is a bug in the solvers and throws std::logic_error saying which.
MatchstickAnalysis analyze_matchstick(const Layout& puzzle, const Rules& rules);

// The independent checks, decided from the model (equations re-read and evaluated from their
// text, patterns compared stick by stick), not by the code that found the answer.
// Whether `equation` ("12+3=15") holds.
bool holds(std::string_view equation, LeadingZeros leading_zeros);
// Why `solution` breaks the rules for `puzzle`, "" when it keeps them.
std::string rule_breach(const Layout& puzzle, const Rules& rules, const Solution& solution);

// Why `answer` is wrong for `puzzle` (the truth of the puzzle, each solution by rule_breach,
// their order), "" when it holds.
std::string answer_breach(const Layout& puzzle, const MatchstickAnalysis& answer);

// "1 stick", "2 sticks": the count with its noun, for the reports' sentences.
std::string plural(int count, std::string_view noun);

// "9+3=5 (2 moves: 1.v>3.e 0.b>3.c)".
std::string solution_text(const Solution& solution);

}  // namespace levelforge::matchstick
