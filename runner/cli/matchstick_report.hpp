#pragma once
// What `levelforge solve matchstick` says about one equation: the puzzle and every solution
// drawn in seven-segment art with the sticks moved, as text for people or as one JSON object
// (docs/cli.md describes both).

#include <string>
#include <string_view>
#include <vector>

#include "kernels/matchstick/equation.hpp"

namespace levelforge::cli {

// The rules from the command line's spellings: `count` "up_to" or "exact", `leading_zeros`
// "allow" or "forbid" (the command line checks them and the range of `moves` first).
matchstick::Rules matchstick_rules(int moves, std::string_view count,
                                   std::string_view leading_zeros);

// The equation parsed; a PuzzleError becomes a UsageError whose message repeats the
// equation with a caret under the offending column.
matchstick::Layout read_equation(std::string_view equation);

struct MatchstickAnalysis {
  std::string equation;  // as given
  matchstick::Layout puzzle;
  matchstick::Rules rules;
  bool puzzle_true = false;                     // under rules.leading_zeros
  std::vector<matchstick::Solution> solutions;  // sorted by equation
};

// Solves `puzzle` with the table-driven solver and with the document's depth-first search
// and checks every solution against the rules on its own. A disagreement is a bug in the
// solvers and throws std::logic_error naming the equation.
MatchstickAnalysis analyze_matchstick(std::string_view equation, const matchstick::Layout& puzzle,
                                      const matchstick::Rules& rules);

// The human-readable report, lines ending in '\n'.
std::string report_text(const MatchstickAnalysis& analysis);

// One JSON object, no trailing newline.
std::string report_json(const MatchstickAnalysis& analysis);

}  // namespace levelforge::cli
