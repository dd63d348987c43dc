// The matchstick kernel's puzzle capability: `levelforge solve matchstick EQUATION` (docs/cli.md
// describes the report and its JSON form).

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kernels/matchstick/drawing.hpp"
#include "kernels/matchstick/matchstick.hpp"

namespace levelforge::kernels {

namespace {

using matchstick::Count;
using matchstick::LeadingZeros;
using matchstick::plural;
using matchstick::Rules;
using matchstick::Solution;

std::string rules_text(const Rules& rules) {
  const std::string sticks = rules.count == Count::exact || rules.moves == 1
                                 ? plural(rules.moves, "stick")
                                 : fmt::format("1 to {} sticks", rules.moves);
  return fmt::format("move {}{}, leading zeros {}", rules.count == Count::exact ? "exactly " : "",
                     sticks, rules.leading_zeros == LeadingZeros::allow ? "allowed" : "forbidden");
}

std::string report_text(const Matchstick::Puzzle& puzzle,
                        const matchstick::MatchstickAnalysis& answer) {
  const auto& layout = puzzle.layout;
  std::string out = fmt::format("puzzle: {} ({}, {})\n", puzzle.equation,
                                answer.puzzle_true ? "already true" : "false",
                                plural(matchstick::sticks(layout), "stick"));
  out += matchstick::draw(layout);
  out += matchstick::draw_positions(layout.form);
  out += fmt::format("rules: {}\n", rules_text(answer.rules));
  const auto& solutions = answer.solutions;
  if (solutions.empty()) return out + "solutions: none\n";
  out += fmt::format("solutions: {}\n", solutions.size());
  out +=
      "  moved sticks are FROM>TO, a place POSITION.SEGMENT: positions as numbered under the\n"
      "  puzzle, segments a top, b top right, c bottom right, d bottom, e bottom left, f top "
      "left,\n"
      "  g middle, h the operator's horizontal stick, v its vertical one\n";
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    const Solution& solution = solutions[i];
    out += fmt::format("\nsolution {}: {}, {} moved: {}\n", i + 1, solution.equation,
                       plural(solution.distance, "stick"), solution.moved);
    out += matchstick::draw(matchstick::parse_equation(solution.equation, "<solution>"));
  }
  return out;
}

}  // namespace

PuzzleInfo Matchstick::puzzle_info() {
  return {"the equation itself, e.g. 6+4=4",
          false,
          "puzzle",
          "equation",
          "matchstick equation",
          "<puzzle>",
          ""};
}

std::vector<ParamSpec> Matchstick::solve_options() { return matchstick::rule_params(); }

Matchstick::Puzzle Matchstick::parse_puzzle(std::string_view text, const std::string& source) {
  try {
    return {std::string(text), matchstick::parse_equation(text, source)};
  } catch (const matchstick::PuzzleError& error) {
    std::string message = error.what();
    // The equation with a caret under the column, where that lines up: printable ASCII, a
    // column inside or just past the text.
    const bool printable = std::all_of(text.begin(), text.end(), [](char ch) {
      return std::isprint(static_cast<unsigned char>(ch)) != 0;
    });
    const auto column = static_cast<std::size_t>(error.column());
    if (!text.empty() && printable && column >= 1 && column <= text.size() + 1)
      message += fmt::format("\n  {}\n  {}^", text, std::string(column - 1, ' '));
    throw PuzzleInputError(message);
  }
}

Matchstick::PuzzleAnswer Matchstick::solve_puzzle(const Puzzle& puzzle, const ParamSet& options) {
  return matchstick::analyze_matchstick(puzzle.layout, matchstick::rules_of(options));
}

std::string Matchstick::check_answer(const Puzzle& puzzle, const ParamSet& options,
                                     const PuzzleAnswer& answer) {
  if (answer.rules != matchstick::rules_of(options)) return "is for other rules than asked";
  return matchstick::answer_breach(puzzle.layout, answer);
}

Report Matchstick::report(const Puzzle& puzzle, const PuzzleAnswer& answer,
                          const std::string& /*source*/) {
  Report::Json equations = Report::Json::array();
  Report::Json details = Report::Json::array();
  for (const Solution& solution : answer.solutions) {
    equations.push_back(solution.equation);
    details.push_back({{"equation", solution.equation},
                       {"distance", solution.distance},
                       {"moved", solution.moved}});
  }
  const Rules& rules = answer.rules;
  Report report;
  report.set("kernel", name);
  report.set("puzzle", puzzle.equation);
  report.set("moves", rules.moves);
  report.set("count", matchstick::count_words.name(rules.count));
  report.set("leading_zeros", matchstick::leading_zeros_words.name(rules.leading_zeros));
  report.set("puzzle_true", answer.puzzle_true);
  report.set("solutions", std::move(equations));
  report.set("details", std::move(details));
  report.print(report_text(puzzle, answer));
  return report;
}

std::string Matchstick::draw_puzzle(const Puzzle& puzzle, const std::string& source) {
  return fmt::format("# {}: {}, {}\n", source, puzzle.equation,
                     plural(matchstick::sticks(puzzle.layout), "stick")) +
         matchstick::draw(puzzle.layout) + matchstick::draw_positions(puzzle.layout.form);
}

}  // namespace levelforge::kernels
