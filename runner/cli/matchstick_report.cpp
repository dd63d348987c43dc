#include "runner/cli/matchstick_report.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/matchstick/drawing.hpp"
#include "runner/cli/commands.hpp"

namespace levelforge::cli {

namespace {

using matchstick::Count;
using matchstick::Layout;
using matchstick::LeadingZeros;
using matchstick::Rules;
using matchstick::Solution;

std::string_view count_name(Count count) { return count == Count::up_to ? "up_to" : "exact"; }

std::string_view leading_zeros_name(LeadingZeros leading_zeros) {
  return leading_zeros == LeadingZeros::allow ? "allow" : "forbid";
}

std::string plural(int count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

// Whether `equation` ("12+3=15") holds, evaluated from its text: the solvers' own test
// (matchstick::is_true) is what this checks.
bool holds(std::string_view equation, LeadingZeros leading_zeros) {
  const std::size_t op = equation.find_first_of("+-");
  const std::size_t equals = equation.find('=');
  if (op == std::string_view::npos || equals == std::string_view::npos || equals < op) return false;
  const std::array<std::string_view, 3> numbers = {equation.substr(0, op),
                                                   equation.substr(op + 1, equals - op - 1),
                                                   equation.substr(equals + 1)};
  std::array<std::int64_t, 3> values = {};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string_view number = numbers[i];
    if (number.empty() || number.size() > static_cast<std::size_t>(matchstick::max_digits))
      return false;
    if (leading_zeros == LeadingZeros::forbid && number.size() > 1 && number.front() == '0')
      return false;
    for (const char digit : number) {
      if (digit < '0' || digit > '9') return false;
      values[i] = 10 * values[i] + (digit - '0');
    }
  }
  const std::int64_t left = equation[op] == '+' ? values[0] + values[1] : values[0] - values[1];
  return left == values[2];
}

// The bit of a place name's segment letter: a-g in a digit, h/v in the operator slot; -1
// for a letter that is none there.
int segment_bit(char letter, bool operator_slot) {
  if (operator_slot) return letter == 'h' ? 0 : letter == 'v' ? 1 : -1;
  return letter >= 'a' && letter <= 'g' ? letter - 'a' : -1;
}

// Why `solution` breaks the rules for `puzzle`, "" when it keeps them. Decided from the
// model here (the equation re-read and evaluated, the patterns compared stick by stick),
// not by the code that found it.
std::string rule_breach(const Layout& puzzle, const Rules& rules, const Solution& solution) {
  Layout after;
  try {
    after = matchstick::parse_equation(solution.equation, "<solution>");
  } catch (const matchstick::PuzzleError& error) {
    return fmt::format("does not read back as an equation ({})", error.what());
  }
  if (after.form != puzzle.form) return "has another number of digits than the puzzle";
  if (!holds(solution.equation, rules.leading_zeros)) {
    return rules.leading_zeros == LeadingZeros::forbid ? "is false or has a leading zero"
                                                       : "is false";
  }
  int filled = 0;
  int emptied = 0;
  for (std::size_t p = 0; p < puzzle.cells.size(); ++p) {
    const auto before = static_cast<unsigned>(puzzle.cells[p]);
    const auto now = static_cast<unsigned>(after.cells[p]);
    filled += std::popcount(now & ~before);
    emptied += std::popcount(before & ~now);
  }
  if (filled != emptied) return fmt::format("fills {} places but empties {}", filled, emptied);
  if (filled != solution.distance)
    return fmt::format("is {} away, not {}", plural(filled, "move"), solution.distance);
  const bool in_range =
      rules.count == Count::up_to ? filled >= 1 && filled <= rules.moves : filled == rules.moves;
  if (!in_range) return fmt::format("is {} away", plural(filled, "move"));

  // "P.S>Q.T ...": each pair takes a stick the puzzle has and the solution lacks to a place
  // the solution has and the puzzle lacks, every place once.
  std::vector<std::string_view> sources;
  std::vector<std::string_view> destinations;
  const std::string_view moved = solution.moved;
  const auto lit_in = [&](const Layout& layout, std::string_view place) {
    const std::size_t dot = place.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 2 != place.size()) return -1;
    int position = 0;
    for (const char digit : place.substr(0, dot)) {
      if (digit < '0' || digit > '9') return -1;
      position = 10 * position + (digit - '0');
    }
    if (position >= puzzle.form.positions()) return -1;
    const int bit = segment_bit(place.back(), position == puzzle.form.operator_position());
    if (bit < 0) return -1;
    return (layout.cells[static_cast<std::size_t>(position)] >> bit) & 1;
  };
  std::size_t begin = 0;
  while (begin < moved.size()) {
    const std::size_t end = std::min(moved.find(' ', begin), moved.size());
    const std::string_view pair = moved.substr(begin, end - begin);
    begin = end + 1;
    const std::size_t arrow = pair.find('>');
    if (arrow == std::string_view::npos) return fmt::format("names a move '{}' without '>'", pair);
    const std::string_view from = pair.substr(0, arrow);
    const std::string_view to = pair.substr(arrow + 1);
    if (lit_in(puzzle, from) != 1 || lit_in(after, from) != 0)
      return fmt::format("moves a stick from '{}', which is no place the solution emptied", from);
    if (lit_in(puzzle, to) != 0 || lit_in(after, to) != 1)
      return fmt::format("moves a stick to '{}', which is no place the solution filled", to);
    sources.push_back(from);
    destinations.push_back(to);
  }
  std::sort(sources.begin(), sources.end());
  std::sort(destinations.begin(), destinations.end());
  if (std::adjacent_find(sources.begin(), sources.end()) != sources.end() ||
      std::adjacent_find(destinations.begin(), destinations.end()) != destinations.end() ||
      static_cast<int>(sources.size()) != filled) {
    return fmt::format("names the moves '{}' for {}", moved, plural(filled, "moved stick"));
  }
  return {};
}

std::string solution_text(const Solution& solution) {
  return fmt::format("{} ({}: {})", solution.equation, plural(solution.distance, "move"),
                     solution.moved);
}

// The solutions one list has and the other lacks, or has with other moves.
std::string difference(const std::vector<Solution>& fast, const std::vector<Solution>& dfs) {
  std::vector<std::string> notes;
  for (const Solution& solution : fast) {
    const auto match = std::find_if(dfs.begin(), dfs.end(), [&](const Solution& other) {
      return other.equation == solution.equation;
    });
    if (match == dfs.end()) {
      notes.push_back("only the table-driven solver finds " + solution_text(solution));
    } else if (!(*match == solution)) {
      notes.push_back(fmt::format("the table-driven solver gives {}, the search {}",
                                  solution_text(solution), solution_text(*match)));
    }
  }
  for (const Solution& solution : dfs) {
    const bool found = std::any_of(fast.begin(), fast.end(), [&](const Solution& other) {
      return other.equation == solution.equation;
    });
    if (!found) notes.push_back("only the depth-first search finds " + solution_text(solution));
  }
  if (notes.empty()) notes.emplace_back("the lists differ in order or repeat an equation");
  return fmt::format("{}", fmt::join(notes, "; "));
}

std::string rules_text(const Rules& rules) {
  const std::string sticks = rules.count == Count::exact || rules.moves == 1
                                 ? plural(rules.moves, "stick")
                                 : fmt::format("1 to {} sticks", rules.moves);
  return fmt::format("move {}{}, leading zeros {}", rules.count == Count::exact ? "exactly " : "",
                     sticks, rules.leading_zeros == LeadingZeros::allow ? "allowed" : "forbidden");
}

}  // namespace

matchstick::Rules matchstick_rules(int moves, std::string_view count,
                                   std::string_view leading_zeros) {
  Rules rules;
  rules.moves = moves;
  if (count == "up_to") {
    rules.count = Count::up_to;
  } else if (count == "exact") {
    rules.count = Count::exact;
  } else {
    throw std::invalid_argument("count '" + std::string(count) + "': expected up_to or exact");
  }
  if (leading_zeros == "allow") {
    rules.leading_zeros = LeadingZeros::allow;
  } else if (leading_zeros == "forbid") {
    rules.leading_zeros = LeadingZeros::forbid;
  } else {
    throw std::invalid_argument("leading zeros '" + std::string(leading_zeros) +
                                "': expected allow or forbid");
  }
  return rules;
}

Layout read_equation(std::string_view equation) {
  try {
    return matchstick::parse_equation(equation);
  } catch (const matchstick::PuzzleError& error) {
    std::string message = error.what();
    // The equation with a caret under the column, where that lines up: printable ASCII, a
    // column inside or just past the text.
    const bool printable = std::all_of(equation.begin(), equation.end(), [](char ch) {
      return std::isprint(static_cast<unsigned char>(ch)) != 0;
    });
    const auto column = static_cast<std::size_t>(error.column());
    if (!equation.empty() && printable && column >= 1 && column <= equation.size() + 1)
      message += fmt::format("\n  {}\n  {}^", equation, std::string(column - 1, ' '));
    throw UsageError(message);
  }
}

MatchstickAnalysis analyze_matchstick(std::string_view equation, const Layout& puzzle,
                                      const Rules& rules) {
  const auto internal_error = [&](const std::string& what) {
    return std::logic_error(fmt::format(
        "internal error on {} (moves {}, count {}, leading zeros {}): {}; please report it with "
        "the equation",
        equation, rules.moves, count_name(rules.count), leading_zeros_name(rules.leading_zeros),
        what));
  };
  MatchstickAnalysis analysis;
  analysis.equation = std::string(equation);
  analysis.puzzle = puzzle;
  analysis.rules = rules;
  analysis.puzzle_true = matchstick::is_true(puzzle, rules.leading_zeros);
  if (analysis.puzzle_true != holds(matchstick::to_string(puzzle), rules.leading_zeros)) {
    throw internal_error(fmt::format("is_true says the puzzle is {}, its evaluation disagrees",
                                     analysis.puzzle_true ? "true" : "false"));
  }
  analysis.solutions = matchstick::solve_fast(puzzle, rules);
  const auto dfs = matchstick::solve_dfs(puzzle, rules);
  if (analysis.solutions != dfs) {
    throw internal_error(fmt::format(
        "the table-driven solver ({}) and the depth-first search ({}) disagree: {}",
        plural(static_cast<int>(analysis.solutions.size()), "solution"),
        plural(static_cast<int>(dfs.size()), "solution"), difference(analysis.solutions, dfs)));
  }
  const auto& solutions = analysis.solutions;
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    if (i > 0 && !(solutions[i - 1].equation < solutions[i].equation)) {
      throw internal_error(fmt::format("the solutions are not sorted and distinct: {} after {}",
                                       solutions[i].equation, solutions[i - 1].equation));
    }
    const std::string breach = rule_breach(puzzle, rules, solutions[i]);
    if (!breach.empty())
      throw internal_error(fmt::format("the solution {} {}", solution_text(solutions[i]), breach));
  }
  return analysis;
}

std::string report_text(const MatchstickAnalysis& analysis) {
  const Layout& puzzle = analysis.puzzle;
  std::string out = fmt::format("puzzle: {} ({}, {})\n", analysis.equation,
                                analysis.puzzle_true ? "already true" : "false",
                                plural(matchstick::sticks(puzzle), "stick"));
  out += matchstick::draw(puzzle);
  out += matchstick::draw_positions(puzzle.form);
  out += fmt::format("rules: {}\n", rules_text(analysis.rules));
  const auto& solutions = analysis.solutions;
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

std::string report_json(const MatchstickAnalysis& analysis) {
  // Every string here is an equation or place names that parsed (digits, "+-=.>" and
  // letters): nothing to escape.
  std::vector<std::string> equations;
  std::vector<std::string> details;
  for (const Solution& solution : analysis.solutions) {
    equations.push_back(fmt::format("\"{}\"", solution.equation));
    details.push_back(fmt::format(R"({{"equation":"{}","distance":{},"moved":"{}"}})",
                                  solution.equation, solution.distance, solution.moved));
  }
  const Rules& rules = analysis.rules;
  return fmt::format(
      R"({{"kernel":"matchstick","puzzle":"{}","moves":{},"count":"{}","leading_zeros":"{}",)"
      R"("puzzle_true":{},"solutions":[{}],"details":[{}]}})",
      analysis.equation, rules.moves, count_name(rules.count),
      leading_zeros_name(rules.leading_zeros), analysis.puzzle_true ? "true" : "false",
      fmt::join(equations, ","), fmt::join(details, ","));
}

}  // namespace levelforge::cli
