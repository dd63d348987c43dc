// The table-driven solver. A solution is a choice of final symbol per position; what it
// costs is the places it empties and fills, position by position, and it is one solution
// however the moves are ordered or paired. Write the imbalance E = A op B - C: a digit that
// changes from v to w at place value 10^p of a number with sign s (A +1, B +1 or -1 after
// the operator, C -1) adds s (w - v) 10^p to E; a solution brings E to 0.
//
// k = 1 (every position a symbol, no forbidden leading zero): either one symbol changes by
// a move inside it (a 5-stick or 6-stick digit into another), or one symbol gives up a
// stick and another takes it. For each candidate change the complementing change is looked
// up, not searched: a change of one digit is d 10^p with 1 <= |d| <= 9, so the needed
// amount fixes p (its trailing zeros) and d, one position per number. The operator is the
// special case: '+' -> '-' gives a stick and flips B's sign, '-' -> '+' takes one.
//
// General k (and puzzles with broken positions): a depth-first search over the positions,
// the operator first (it fixes B's sign), then the digits by place value, largest first,
// each taking one of its table's transitions within the stick budgets. A branch ends when
// the changes its budgets still allow cannot bring E to 0 (bounded by 9 10^p for each of
// the largest places left) or cannot repair the broken positions left. The last position,
// a units digit, is not searched: E fixes its digit.

#include <algorithm>
#include <bit>
#include <cstddef>

#include "kernels/api/index.hpp"
#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {
namespace {

constexpr std::array<std::int64_t, max_digits> powers_of_ten = [] {
  std::array<std::int64_t, max_digits> powers{};
  std::int64_t power = 1;
  for (auto& entry : powers) {
    entry = power;
    power *= 10;
  }
  return powers;
}();

// Per digit, a mask of the digits one stick away: removed, added, or moved inside it.
struct OneStick {
  std::array<std::uint16_t, 10> removed{};
  std::array<std::uint16_t, 10> added{};
  std::array<std::uint16_t, 10> moved{};
};

constexpr OneStick one_stick = [] {
  OneStick table;
  for (std::size_t v = 0; v < 10; ++v) {
    for (std::size_t w = 0; w < 10; ++w) {
      const unsigned before = digit_patterns[v];
      const unsigned after = digit_patterns[w];
      const int emptied = std::popcount(before & ~after);
      const int filled = std::popcount(after & ~before);
      const auto bit = static_cast<std::uint16_t>(1U << w);
      if (emptied == 1 && filled == 0) table.removed[v] |= bit;
      if (emptied == 0 && filled == 1) table.added[v] |= bit;
      if (emptied == 1 && filled == 1) table.moved[v] |= bit;
    }
  }
  return table;
}();

// Sticks per pattern (std::popcount is a library call without -mpopcnt).
constexpr std::array<std::uint8_t, 256> sticks_in = [] {
  std::array<std::uint8_t, 256> table{};
  for (std::size_t pattern = 1; pattern < table.size(); ++pattern) {
    table[pattern] = static_cast<std::uint8_t>(table[pattern / 2] + pattern % 2);
  }
  return table;
}();

// Amounts d x 10^p with d in 1..9 below 1000 (all a sweep of two-digit numbers meets), as
// (d, p); d = 0 for the others. A complement lookup asks this for every candidate change.
struct OneDigitAmount {
  std::uint8_t digit = 0;
  std::uint8_t place = 0;
};

constexpr std::array<OneDigitAmount, 1000> one_digit_amounts = [] {
  std::array<OneDigitAmount, 1000> table{};
  for (std::size_t place = 0, power = 1; power < table.size(); ++place, power *= 10) {
    for (std::size_t d = 1; d <= 9 && d * power < table.size(); ++d) {
      table[d * power] =
          OneDigitAmount{static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(place)};
    }
  }
  return table;
}();

}  // namespace

// A puzzle as the general search reads it.
struct FastSolver::Decoded {
  int op_position = 0;
  std::array<int, 3> start{};  // A, B, C
  std::array<int, 3> digits{};
  std::array<int, max_positions> digit{};   // -1: no digit (and the operator slot)
  std::array<int, max_positions> number{};  // 0, 1, 2; -1 the operator slot
  std::array<int, max_positions> place{};   // power of ten
  std::array<bool, max_positions> lead{};   // a leading digit that may not become 0

  Decoded(const Layout& puzzle, LeadingZeros leading_zeros) {
    check_layout(puzzle);
    const Form& form = puzzle.form;
    op_position = form.operator_position();
    digit[to_index(op_position)] = -1;
    number[to_index(op_position)] = -1;
    for (int n = 0; n < 3; ++n) {
      start[to_index(n)] = form.first_position(n);
      digits[to_index(n)] = form.digits(n);
      for (int i = 0; i < digits[to_index(n)]; ++i) {
        const int position = start[to_index(n)] + i;
        digit[to_index(position)] = digit_of(puzzle.cells[to_index(position)]);
        number[to_index(position)] = n;
        place[to_index(position)] = digits[to_index(n)] - 1 - i;
        lead[to_index(position)] =
            i == 0 && digits[to_index(n)] > 1 && leading_zeros == LeadingZeros::forbid;
      }
    }
  }
};

FastSolver::FastSolver(Rules rules) : rules_(rules) {
  check_rules(rules);
  for (unsigned key = 0; key < 2 * 128; ++key) {
    first_[key] = static_cast<std::uint16_t>(transitions_.size());
    const unsigned pattern = key / 2;
    const bool lead = key % 2 != 0;
    for (std::size_t w = lead ? 1 : 0; w < 10; ++w) {
      const unsigned after = digit_patterns[w];
      const int removed = std::popcount(pattern & ~after);
      const int added = std::popcount(after & ~pattern);
      if (removed > rules.moves || added > rules.moves) continue;
      transitions_.push_back(Transition{digit_patterns[w], static_cast<std::uint8_t>(w),
                                        static_cast<std::uint8_t>(removed),
                                        static_cast<std::uint8_t>(added)});
    }
  }
  first_.back() = static_cast<std::uint16_t>(transitions_.size());
}

std::size_t FastSolver::solve(const Layout& puzzle, std::vector<FoundLayout>& out) const {
  if (rules_.moves == 1) {
    const std::size_t found = solve_one_move(puzzle, out);
    if (found != not_whole) return found;
  }
  return solve_general(puzzle, Decoded(puzzle, rules_.leading_zeros), out);
}

std::size_t FastSolver::solve_one_move(const Layout& puzzle, std::vector<FoundLayout>& out) const {
  // One pass over the cells; anything unusual (a cell that is no symbol, a forbidden leading
  // zero, a malformed layout) goes to the general search, which also reports malformed ones.
  const Form& form = puzzle.form;
  const int positions = form.positions();
  if (form.a_digits < 1 || form.a_digits > max_digits || form.b_digits < 1 ||
      form.b_digits > max_digits || form.c_digits < 1 || form.c_digits > max_digits ||
      puzzle.cells.size() != to_index(positions)) {
    return not_whole;
  }
  const Pattern* const cells = puzzle.cells.data();
  const int op_position = form.operator_position();
  const Pattern op = cells[op_position];
  if (op != plus_pattern && op != minus_pattern) return not_whole;
  const bool plus = op == plus_pattern;
  const bool forbid = rules_.leading_zeros == LeadingZeros::forbid;

  const std::array<int, 3> first = {form.first_position(0), form.first_position(1),
                                    form.first_position(2)};
  const std::array<int, 3> digits = {form.a_digits, form.b_digits, form.c_digits};
  // The digits that can give a stick away (6, 7, 8, 9), listed without a branch.
  struct Giver {
    int position, number, place;
  };
  std::array<int, max_positions> digit;     // not cleared: each number writes its own
  std::array<Giver, max_positions> givers;  // not cleared: only the first `giving` are read
  int giving = 0;
  std::array<std::int64_t, 3> value{};
  std::array<int, 3> lead{};  // the position that may not become 0, -1 for none
  for (std::size_t n = 0; n < 3; ++n) {
    for (int position = first[n], place = digits[n] - 1; place >= 0; ++position, --place) {
      const int d = digit_of(cells[position]);
      if (d < 0) return not_whole;
      digit[to_index(position)] = d;
      value[n] = 10 * value[n] + d;
      givers[to_index(giving)] = Giver{position, static_cast<int>(n), place};
      giving += one_stick.removed[to_index(d)] != 0 ? 1 : 0;
    }
    lead[n] = forbid && digits[n] > 1 ? first[n] : -1;
    if (digit[to_index(first[n])] == 0 && lead[n] >= 0) return not_whole;
  }
  const auto leading = [&](std::size_t n, int position) { return position == lead[n]; };

  const std::size_t before = out.size();
  // Calls found(position, digit) for the digit position, at most one per number, whose
  // change to `digit`, one of `targets[old digit]`, adds exactly `needed` to E under the
  // signs of A, B, C.
  const auto complement = [&](std::int64_t needed, const std::array<int, 3>& signs,
                              const std::array<std::uint16_t, 10>& targets, int skip,
                              const auto& found) {
    std::int64_t magnitude = needed < 0 ? -needed : needed;
    int place = 0;
    if (magnitude < static_cast<std::int64_t>(one_digit_amounts.size())) {
      const OneDigitAmount amount = one_digit_amounts[to_index(static_cast<int>(magnitude))];
      if (amount.digit == 0) return;
      magnitude = amount.digit;
      place = amount.place;
    } else {
      while (magnitude % 10 == 0) {
        magnitude /= 10;
        ++place;
      }
      if (magnitude > 9) return;
    }
    for (std::size_t n = 0; n < 3; ++n) {
      if (place >= digits[n]) continue;
      const int position = first[n] + digits[n] - 1 - place;
      if (position == skip) continue;
      const int old = digit[to_index(position)];
      const int now = old + (needed < 0 ? -1 : 1) * signs[n] * static_cast<int>(magnitude);
      if (now < 0 || now > 9 || ((static_cast<unsigned>(targets[to_index(old)]) >> now) & 1U) == 0)
        continue;
      if (now == 0 && leading(n, position)) continue;
      found(position, now);
    }
  };
  const auto store = [&](int position, int now, int other, int other_now) {
    FoundLayout& found = out.emplace_back();
    std::copy(cells, cells + positions, found.cells.begin());
    found.cells[to_index(position)] = digit_patterns[to_index(now)];
    if (other >= 0) found.cells[to_index(other)] = digit_patterns[to_index(other_now)];
    found.distance = 1;
  };

  const std::array<int, 3> signs = {1, plus ? 1 : -1, -1};
  const std::int64_t imbalance = value[0] + signs[1] * value[1] - value[2];

  // One stick moved inside one symbol.
  complement(-imbalance, signs, one_stick.moved, -1,
             [&](int position, int now) { store(position, now, -1, 0); });

  // One symbol gives a stick, another digit takes it; the operator stays.
  for (int g = 0; g < giving; ++g) {
    const Giver giver = givers[to_index(g)];
    const int position = giver.position;
    const auto n = to_index(giver.number);
    const int old = digit[to_index(position)];
    const std::int64_t weight = signs[n] * powers_of_ten[to_index(giver.place)];
    for (unsigned mask = one_stick.removed[to_index(old)]; mask != 0; mask &= mask - 1) {
      const int now = std::countr_zero(mask);
      if (now == 0 && leading(n, position)) continue;
      complement(-imbalance - weight * (now - old), signs, one_stick.added, position,
                 [&](int other, int other_now) { store(position, now, other, other_now); });
    }
  }

  // The operator gives its vertical stick to a digit ('+' -> '-') or takes one from a digit
  // ('-' -> '+'); B's sign flips with it.
  const std::array<int, 3> flipped = {1, -signs[1], -1};
  const std::int64_t flipped_imbalance = value[0] + flipped[1] * value[1] - value[2];
  const Pattern flipped_op = plus ? minus_pattern : plus_pattern;
  complement(-flipped_imbalance, flipped, plus ? one_stick.added : one_stick.removed, -1,
             [&](int position, int now) {
               store(position, now, -1, 0);
               out.back().cells[to_index(op_position)] = flipped_op;
             });
  return out.size() - before;
}

std::size_t FastSolver::solve_general(const Layout& puzzle, const Decoded& decoded,
                                      std::vector<FoundLayout>& out) const {
  struct Search {
    Search(const FastSolver& owner, const Decoded& read, std::vector<FoundLayout>& sink)
        : solver(owner),
          decoded(read),
          out(sink),
          k(owner.rules_.moves),
          exact(owner.rules_.count == Count::exact) {}

    const FastSolver& solver;
    const Decoded& decoded;
    std::vector<FoundLayout>& out;
    int k;
    bool exact;
    int steps = 0;                                        // digit positions
    std::array<int, max_positions> order{};               // digit positions, largest place first
    std::array<std::int64_t, max_positions> weight{};     // signed place value
    std::array<std::int64_t, max_positions + 1> rest{};   // E of order[i..] unchanged
    std::array<std::int64_t, max_positions + 1> reach{};  // prefix sums of 9 |weight|
    std::array<int, max_positions + 1> must_change{};     // broken among order[i..]
    FoundLayout current;

    void visit(int step, int removed, int added, std::int64_t imbalance) {
      // Each change from here on spends at least one removal or one addition.
      const int changes_left = 2 * k - removed - added;
      if (must_change[to_index(step)] > changes_left) return;
      const std::int64_t slack =
          reach[to_index(std::min(step + changes_left, steps))] - reach[to_index(step)];
      const std::int64_t unchanged = imbalance + rest[to_index(step)];
      if (unchanged > slack || unchanged < -slack) return;

      const int position = order[to_index(step)];
      const Pattern original = current.cells[to_index(position)];
      if (step == steps - 1) {
        // A units digit comes last (weight +-1): it has to settle E alone, so its digit is
        // known; no leading-zero rule applies to it.
        const std::int64_t last = -imbalance * weight[to_index(step)];
        if (last < 0 || last > 9) return;
        const Pattern to = digit_patterns[to_index(static_cast<int>(last))];
        const int all_removed = removed + sticks_in[original & ~to];
        const int all_added = added + sticks_in[to & ~original];
        if (all_removed != all_added || all_removed < 1 || all_removed > k ||
            (exact && all_removed != k)) {
          return;
        }
        current.cells[to_index(position)] = to;
        current.distance = all_removed;
        out.push_back(current);
        current.cells[to_index(position)] = original;
        return;
      }
      const unsigned key = 2U * original + (decoded.lead[to_index(position)] ? 1U : 0U);
      for (int t = solver.first_[key]; t < solver.first_[key + 1]; ++t) {
        const Transition& transition = solver.transitions_[to_index(t)];
        if (transition.removed > k - removed || transition.added > k - added) continue;
        current.cells[to_index(position)] = transition.to;
        visit(step + 1, removed + transition.removed, added + transition.added,
              imbalance + weight[to_index(step)] * transition.digit);
      }
      current.cells[to_index(position)] = original;
    }
  };

  const std::size_t before = out.size();
  Search search(*this, decoded, out);
  std::copy(puzzle.cells.begin(), puzzle.cells.end(), search.current.cells.begin());
  const int longest = *std::max_element(decoded.digits.begin(), decoded.digits.end());
  for (int place = longest - 1; place >= 0; --place) {
    for (int n = 0; n < 3; ++n) {
      if (place < decoded.digits[to_index(n)]) {
        search.order[to_index(search.steps++)] =
            decoded.start[to_index(n)] + decoded.digits[to_index(n)] - 1 - place;
      }
    }
  }
  for (int step = 0; step < search.steps; ++step) {
    const int position = search.order[to_index(step)];
    const std::int64_t largest = 9 * powers_of_ten[to_index(decoded.place[to_index(position)])];
    search.reach[to_index(step + 1)] = search.reach[to_index(step)] + largest;
  }

  const Pattern op = puzzle.cells[to_index(decoded.op_position)];
  for (const Pattern to : {minus_pattern, plus_pattern}) {
    const int removed = sticks_in[op & ~to & 0xFF];
    const int added = sticks_in[to & ~op & 0xFF];
    if (removed > search.k || added > search.k) continue;
    const std::array<int, 3> signs = {1, to == plus_pattern ? 1 : -1, -1};
    for (int step = search.steps - 1; step >= 0; --step) {
      const int position = search.order[to_index(step)];
      const int old = decoded.digit[to_index(position)];
      search.weight[to_index(step)] = signs[to_index(decoded.number[to_index(position)])] *
                                      powers_of_ten[to_index(decoded.place[to_index(position)])];
      search.rest[to_index(step)] =
          search.rest[to_index(step + 1)] + search.weight[to_index(step)] * std::max(old, 0);
      search.must_change[to_index(step)] =
          search.must_change[to_index(step + 1)] +
          (old < 0 || (old == 0 && decoded.lead[to_index(position)]) ? 1 : 0);
    }
    search.current.cells[to_index(decoded.op_position)] = to;
    search.visit(0, removed, added, 0);
  }
  return out.size() - before;
}

std::vector<Solution> solve_fast(const Layout& puzzle, const Rules& rules) {
  check_layout(puzzle);
  std::vector<FoundLayout> found;
  FastSolver(rules).solve(puzzle, found);
  std::vector<Solution> solutions;
  solutions.reserve(found.size());
  Layout after{puzzle.form, {}};
  for (const FoundLayout& layout : found) {
    after.cells.assign(layout.cells.begin(), layout.cells.begin() + puzzle.form.positions());
    solutions.push_back(Solution{to_string(after), layout.distance, moved_sticks(puzzle, after)});
  }
  std::sort(solutions.begin(), solutions.end(),
            [](const Solution& x, const Solution& y) { return x.equation < y.equation; });
  return solutions;
}

}  // namespace levelforge::matchstick
