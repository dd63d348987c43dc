#include "kernels/matchstick/matchstick.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <span>
#include <string>
#include <utility>

namespace levelforge::kernels {

using matchstick::Layout;

namespace {

constexpr std::size_t equation_size = 3 * matchstick::max_digits + 2;  // digits, op, '='
constexpr std::size_t moved_size = 40;  // up to 3 "POS.S>POS.S" pairs
constexpr std::size_t good_table = 1000;

// Sticks in a pattern: std::popcount is a library call on the baseline ISA, and sweeps ask
// this of every good puzzle.
constexpr std::array<std::uint8_t, 256> pattern_sticks = [] {
  std::array<std::uint8_t, 256> table{};
  for (unsigned p = 0; p < table.size(); ++p)
    table[p] = static_cast<std::uint8_t>(std::popcount(p));
  return table;
}();

// What `solution` changes of the puzzle: its difficulty without the near misses.
Difficulty changes(const Layout& puzzle, std::span<const matchstick::Pattern> solution) {
  Difficulty d;
  int moved = 0;
  int kept_inside = 0;
  for (std::size_t p = 0; p < puzzle.cells.size(); ++p) {
    const auto before = static_cast<unsigned>(puzzle.cells[p]);
    const auto after = static_cast<unsigned>(solution[p]);
    if (before == after) continue;
    ++d.symbols_changed;
    const int removed = pattern_sticks[before & ~after];
    const int added = pattern_sticks[after & ~before];
    moved += added;
    kept_inside += std::min(removed, added);
    if (static_cast<int>(p) == puzzle.form.operator_position()) d.operator_changed = true;
  }
  d.between = moved - kept_inside;
  return d;
}

}  // namespace

Difficulty difficulty(const Layout& puzzle, const Layout& solution,
                      const matchstick::Rules& rules) {
  auto d = changes(puzzle, solution.cells);
  d.near_misses = matchstick::well_formed_layouts(puzzle, rules) - 1;
  return d;
}

std::vector<ParamSpec> Matchstick::parameters() {
  std::vector<ParamSpec> specs{
      int_param("max_value", 99, 0, 999'999,
                "A, B and C range over 0..max_value, each written without leading zeros"),
      bool_param("solutions", true, "store every solution record (exhaustive/solutions)"),
  };
  const auto rules = matchstick::rule_params();
  specs.insert(specs.begin() + 1, rules.begin(), rules.end());
  return specs;
}

Matchstick::Matchstick(const ParamSet& params)
    : values_(params.integer("max_value") + 1),
      store_solutions_(params.boolean("solutions")),
      solver_(matchstick::rules_of(params)) {
  if (solver_.rules().moves != 1 || values_ > max_tabled_value) return;
  Layout layout;
  for (std::int64_t v = 0; v < values_; ++v) {
    matchstick::layout_of(v, '+', 0, 0, layout);
    number_terms_.push_back(
        matchstick::one_move_terms(layout, 0, layout.form.a_digits, solver_.rules()));
  }
  for (const char op : {'+', '-'}) {
    matchstick::layout_of(0, op, 0, 0, layout);
    operator_terms_[op == '+' ? 0 : 1] =
        matchstick::one_move_terms(layout, layout.form.operator_position(), 1, solver_.rules());
  }
}

std::int64_t Matchstick::near_misses(const Numbers& at, const Layout& puzzle) const {
  if (!number_terms_.empty()) {
    const auto term = [&](std::int64_t v) { return number_terms_[static_cast<std::size_t>(v)]; };
    const auto terms = term(at.a) + operator_terms_[at.op == '+' ? 0 : 1] + term(at.b) + term(at.c);
    if (terms.symbols) return terms.layouts() - 1;
  }
  return matchstick::well_formed_layouts(puzzle, solver_.rules()) - 1;
}

std::vector<ReductionSpec> Matchstick::reductions() {
  return {
      count_reduction("puzzles", "puzzles visited"),
      count_reduction("true_puzzles", "puzzles that are true equations already"),
      count_reduction("solutions", "solutions over all puzzles"),
      count_reduction("good", "good puzzles: false equations with exactly one solution"),
      histogram_reduction("solution_count", 0, 32, 32, "solutions per puzzle"),
      top_k_reduction(
          "good_puzzles", good_table,
          {text_field("puzzle", equation_size, "the puzzle"),
           text_field("solution", equation_size, "its one solution"),
           text_field("moved", moved_size, "sticks moved, POSITION.SEGMENT>POSITION.SEGMENT"),
           int_field("distance", "sticks moved"),
           int_field("between", "sticks that travel between symbols"),
           int_field("operator_changed", "1 when the operator changes"),
           int_field("symbols_changed", "symbols that change"),
           int_field("near_misses", "well-formed false equations within the same moves"),
           int_field("difficulty",
                     "4 between + 2 operator_changed + symbols_changed + near_misses")},
          "the good puzzles, hardest first (ties: smaller index)"),
  };
}

std::vector<FieldSpec> Matchstick::solution_fields() {
  return {text_field("puzzle", equation_size, "the puzzle"),
          text_field("solution", equation_size, "a true equation k moves away"),
          int_field("distance", "sticks moved"),
          text_field("moved", moved_size, "sticks moved, POSITION.SEGMENT>POSITION.SEGMENT"),
          int_field("puzzle_solutions", "solutions of this puzzle"),
          int_field("puzzle_true", "1 when the puzzle is a true equation already")};
}

std::uint64_t Matchstick::index_count() const {
  const auto n = static_cast<std::uint64_t>(values_);
  return n * n * n * 2;
}

Layout Matchstick::puzzle(std::uint64_t index) const {
  Layout layout;
  puzzle(index, layout);
  return layout;
}

Matchstick::Numbers Matchstick::numbers(std::uint64_t index) const {
  const auto n = static_cast<std::uint64_t>(values_);
  const char op = index % 2 == 0 ? '+' : '-';
  auto rest = index / 2;
  const auto c = static_cast<std::int64_t>(rest % n);
  rest /= n;
  const auto b = static_cast<std::int64_t>(rest % n);
  const auto a = static_cast<std::int64_t>(rest / n);
  return {a, op, b, c};
}

void Matchstick::advance(Numbers& at) const {
  if (at.op == '+') {
    at.op = '-';
    return;
  }
  at.op = '+';
  if (++at.c < values_) return;
  at.c = 0;
  if (++at.b < values_) return;
  at.b = 0;
  ++at.a;
}

void Matchstick::puzzle(std::uint64_t index, Layout& layout) const {
  const auto [a, op, b, c] = numbers(index);
  matchstick::layout_of(a, op, b, c, layout);
}

bool Matchstick::holds(const Numbers& numbers) {
  const auto [a, op, b, c] = numbers;
  return (op == '+' ? a + b : a - b) == c;
}

Record Matchstick::top_record(std::size_t id, std::uint64_t index) const {
  const auto layout = puzzle(index);
  std::vector<matchstick::FoundLayout> found;
  solver_.solve(layout, found);
  if (id != good_puzzles || found.size() != 1 || holds(numbers(index))) {
    throw KernelError("matchstick: no top-k record for index " + std::to_string(index) + " (" +
                      matchstick::to_string(layout) + ") in table " + std::to_string(id) +
                      ": only good puzzles have one, in good_puzzles");
  }
  Layout only{layout.form, {}};
  only.cells.assign(found[0].cells.begin(), found[0].cells.begin() + layout.cells.size());
  const auto d = difficulty(layout, only, solver_.rules());
  return Record{matchstick::to_string(layout),
                matchstick::to_string(only),
                matchstick::moved_sticks(layout, only),
                std::int64_t{found[0].distance},
                std::int64_t{d.between},
                std::int64_t{d.operator_changed},
                std::int64_t{d.symbols_changed},
                d.near_misses,
                d.score()};
}

void Matchstick::visit(std::uint64_t index, Reductions& out) const {
  visit_range(index, index + 1, out);
}

void Matchstick::visit_range(std::uint64_t begin, std::uint64_t end, Reductions& out) const {
  Layout layout;  // the puzzle visited, its storage reused
  std::vector<matchstick::FoundLayout> found;
  // The puzzle's solutions as text, and their order by it (the rows' order).
  std::vector<matchstick::EquationText> equations;
  std::vector<std::size_t> by_equation;
  std::vector<std::int64_t> counts(33, 0);
  std::int64_t true_count = 0;
  std::int64_t solution_total = 0;
  std::int64_t good_count = 0;
  auto at = numbers(begin);
  for (auto index = begin; index < end; ++index, advance(at)) {
    const auto [a, op, b, c] = at;
    matchstick::layout_of(a, op, b, c, layout);
    found.clear();
    const auto n = static_cast<std::int64_t>(solver_.solve(layout, found));
    const bool is_true = holds(at);
    true_count += is_true ? 1 : 0;
    solution_total += n;
    ++counts[static_cast<std::size_t>(std::min<std::int64_t>(n, 32))];
    const bool is_good = !is_true && n == 1;
    if (is_good) ++good_count;
    if (n == 0 || (!store_solutions_ && !is_good)) continue;
    out.begin_index(index);
    const auto cells_of = [&](std::size_t i) {
      return std::span<const matchstick::Pattern>(found[i].cells.data(), layout.cells.size());
    };
    if (is_good) {
      auto d = changes(layout, cells_of(0));
      d.near_misses = near_misses(at, layout);
      out.offer_top(good_puzzles, static_cast<double>(d.score()));
    }
    if (!store_solutions_) continue;
    const auto text = matchstick::equation_text(layout.form, layout.cells);
    equations.resize(found.size());
    by_equation.resize(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
      equations[i] = matchstick::equation_text(layout.form, cells_of(i));
      by_equation[i] = i;
    }
    if (found.size() > 1)
      std::sort(by_equation.begin(), by_equation.end(), [&](std::size_t x, std::size_t y) {
        return equations[x].view() < equations[y].view();
      });
    for (const auto i : by_equation) {
      out.solution_row()
          .text(solution_puzzle, text.view())
          .text(solution_equation, equations[i].view())
          .integer(solution_distance, found[i].distance)
          .text(solution_moved, matchstick::moved_sticks(layout, cells_of(i)).view())
          .integer(solution_puzzle_solutions, n)
          .integer(solution_puzzle_true, is_true ? 1 : 0);
    }
  }
  out.count(puzzles, static_cast<std::int64_t>(end - begin));
  out.count(true_puzzles, true_count);
  out.count(solutions, solution_total);
  out.count(good, good_count);
  out.histogram_counts(solution_count_histogram, counts);
}

}  // namespace levelforge::kernels
