#include "kernels/matchstick/analysis.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

namespace levelforge::matchstick {

namespace {

// The bit of a place name's segment letter: a-g in a digit, h/v in the operator slot; -1
// for a letter that is none there.
int segment_bit(char letter, bool operator_slot) {
  if (operator_slot) return letter == 'h' ? 0 : letter == 'v' ? 1 : -1;
  return letter >= 'a' && letter <= 'g' ? letter - 'a' : -1;
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

}  // namespace

std::vector<ParamSpec> rule_params() {
  return {
      int_param("moves", 1, 1, max_moves, "k: sticks moved"),
      choice_param("count", count_words,
                   "solutions at distance 1..k (the document's), or exactly k (puzzle books)"),
      choice_param("leading_zeros", leading_zeros_words,
                   "whether a solution's number of 2+ digits may start with 0 (\"0+3=09\")"),
  };
}

Rules rules_of(const ParamSet& params) {
  return {static_cast<int>(params.integer("moves")), params.choice_as("count", count_words),
          params.choice_as("leading_zeros", leading_zeros_words)};
}

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
    if (number.empty() || number.size() > static_cast<std::size_t>(max_digits)) return false;
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

std::string rule_breach(const Layout& puzzle, const Rules& rules, const Solution& solution) {
  Layout after;
  try {
    after = parse_equation(solution.equation, "<solution>");
  } catch (const PuzzleError& error) {
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

std::string plural(int count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

std::string solution_text(const Solution& solution) {
  return fmt::format("{} ({}: {})", solution.equation, plural(solution.distance, "move"),
                     solution.moved);
}

MatchstickAnalysis analyze_matchstick(const Layout& puzzle, const Rules& rules) {
  MatchstickAnalysis analysis;
  analysis.rules = rules;
  analysis.puzzle_true = is_true(puzzle, rules.leading_zeros);
  analysis.solutions = solve_fast(puzzle, rules);
  const auto dfs = solve_dfs(puzzle, rules);
  if (analysis.solutions != dfs) {
    throw std::logic_error(fmt::format(
        "the table-driven solver ({}) and the depth-first search ({}) disagree: {}",
        plural(static_cast<int>(analysis.solutions.size()), "solution"),
        plural(static_cast<int>(dfs.size()), "solution"), difference(analysis.solutions, dfs)));
  }
  return analysis;
}

std::string answer_breach(const Layout& puzzle, const MatchstickAnalysis& answer) {
  const Rules& rules = answer.rules;
  if (answer.puzzle_true != holds(to_string(puzzle), rules.leading_zeros)) {
    return fmt::format("says the puzzle is {}, its evaluation disagrees",
                       answer.puzzle_true ? "true" : "false");
  }
  const auto& solutions = answer.solutions;
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    if (i > 0 && !(solutions[i - 1].equation < solutions[i].equation)) {
      return fmt::format("lists the solutions unsorted or twice: {} after {}",
                         solutions[i].equation, solutions[i - 1].equation);
    }
    const std::string breach = rule_breach(puzzle, rules, solutions[i]);
    if (!breach.empty())
      return fmt::format("has the solution {}, which {}", solution_text(solutions[i]), breach);
  }
  return {};
}

}  // namespace levelforge::matchstick
