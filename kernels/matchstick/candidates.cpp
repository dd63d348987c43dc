#include "kernels/matchstick/candidates.hpp"

#include <array>
#include <bit>
#include <cstddef>

namespace levelforge::matchstick {
namespace {

constexpr std::size_t budget = max_moves + 1;  // removals or additions 0..max_moves
using Ways = std::array<std::array<std::int64_t, budget>, budget>;  // [removed][added]

// ways[p]: the symbols of one kind that pattern p turns into with r sticks taken and a
// placed; the kinds are a digit, a digit that may not be 0 (a forbidden leading zero), and
// the operator.
enum SlotKind { any_digit, nonzero_digit, operator_slot, slot_kinds };

struct Tables {
  std::array<std::array<Ways, slot_kinds>, 128> ways{};
  Tables() {
    for (unsigned p = 0; p < 128; ++p) {
      const auto add = [&](SlotKind kind, unsigned q) {
        const auto removed = static_cast<std::size_t>(std::popcount(p & ~q));
        const auto added = static_cast<std::size_t>(std::popcount(q & ~p));
        if (removed < budget && added < budget) ++ways[p][kind][removed][added];
      };
      for (unsigned d = 0; d < 10; ++d) {
        add(any_digit, digit_patterns[d]);
        if (d != 0) add(nonzero_digit, digit_patterns[d]);
      }
      if (p < 4) {  // the operator slot has two places
        add(operator_slot, minus_pattern);
        add(operator_slot, plus_pattern);
      }
    }
  }
};

const Tables& tables() {
  static const Tables built;
  return built;
}

}  // namespace

namespace {

SlotKind slot_kind(const Form& form, int position, const Rules& rules) {
  if (position == form.operator_position()) return operator_slot;
  if (rules.leading_zeros == LeadingZeros::forbid) {
    for (int number = 0; number < 3; ++number)
      if (position == form.first_position(number) && form.digits(number) > 1) return nonzero_digit;
  }
  return any_digit;
}

// The count over removals and additions up to K each, K a template argument so that the
// loops unroll.
template <std::size_t K>
std::int64_t count_layouts(const Layout& puzzle, const Rules& rules) {
  using Counts = std::array<std::array<std::int64_t, K + 1>, K + 1>;  // [removed][added]
  const Form& form = puzzle.form;
  const auto& t = tables();
  Counts count{};
  count[0][0] = 1;
  for (int position = 0; position < form.positions(); ++position) {
    const Ways& step =
        t.ways[puzzle.cells[static_cast<std::size_t>(position)]][slot_kind(form, position, rules)];
    Counts next{};
    for (std::size_t r = 0; r <= K; ++r)
      for (std::size_t a = 0; a <= K; ++a)
        for (std::size_t dr = 0; r + dr <= K; ++dr)
          for (std::size_t da = 0; a + da <= K; ++da)
            next[r + dr][a + da] += count[r][a] * step[dr][da];
    count = next;
  }
  std::int64_t total = 0;
  for (std::size_t d = rules.count == Count::exact ? K : 1; d <= K; ++d) total += count[d][d];
  return total;
}

}  // namespace

OneMoveTerms one_move_terms(const Layout& puzzle, int first, int count, const Rules& rules) {
  const auto& t = tables();
  OneMoveTerms terms;
  for (int position = first; position < first + count; ++position) {
    const Ways& step = t.ways[puzzle.cells[static_cast<std::size_t>(position)]]
                             [slot_kind(puzzle.form, position, rules)];
    terms.symbols = terms.symbols && step[0][0] == 1;
    terms.inside += step[1][1];
    terms.taken += step[1][0];
    terms.placed += step[0][1];
    terms.alike += step[1][0] * step[0][1];
  }
  return terms;
}

std::int64_t well_formed_layouts(const Layout& puzzle, const Rules& rules) {
  check_layout(puzzle);
  check_rules(rules);
  static_assert(max_moves == 3);
  switch (rules.moves) {
    case 1: {
      // The closed form where each position shows a symbol (a sweep's good puzzle).
      const auto terms = one_move_terms(puzzle, 0, puzzle.form.positions(), rules);
      return terms.symbols ? terms.layouts() : count_layouts<1>(puzzle, rules);
    }
    case 2: return count_layouts<2>(puzzle, rules);
    default: return count_layouts<3>(puzzle, rules);
  }
}

}  // namespace levelforge::matchstick
