// Counting the well-formed layouts a puzzle's sticks can be moved into
// (kernels/matchstick/candidates.hpp), against listing them by brute force.
#include "kernels/matchstick/candidates.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/random_cases.hpp"

namespace levelforge::matchstick {
namespace {

struct Place {
  std::size_t position;
  Pattern bit;
};

bool well_formed(const Layout& layout, LeadingZeros leading_zeros) {
  const Form& form = layout.form;
  for (int p = 0; p < form.positions(); ++p) {
    const Pattern cell = layout.cells[static_cast<std::size_t>(p)];
    if (p == form.operator_position()) {
      if (cell != plus_pattern && cell != minus_pattern) return false;
    } else if (digit_of(cell) < 0) {
      return false;
    }
  }
  if (leading_zeros == LeadingZeros::forbid)
    for (int n = 0; n < 3; ++n)
      if (form.digits(n) > 1 &&
          layout.cells[static_cast<std::size_t>(form.first_position(n))] == digit_patterns[0])
        return false;
  return true;
}

// Every choice of d filled places to empty and d empty places to fill, d = 1..k.
std::int64_t brute_force(const Layout& puzzle, const Rules& rules) {
  std::vector<Place> filled;
  std::vector<Place> empty;
  for (int p = 0; p < puzzle.form.positions(); ++p) {
    const int segments = p == puzzle.form.operator_position() ? operator_segments : digit_segments;
    for (int s = 0; s < segments; ++s) {
      const auto bit = static_cast<Pattern>(1U << s);
      const Place place{static_cast<std::size_t>(p), bit};
      ((puzzle.cells[place.position] & bit) != 0 ? filled : empty).push_back(place);
    }
  }
  std::set<std::string> found;  // the cells as bytes
  const auto choose = [](const std::vector<Place>& from, int d, auto&& each) {
    std::vector<std::size_t> pick(static_cast<std::size_t>(d));
    const auto rec = [&](auto&& self, std::size_t depth, std::size_t start) -> void {
      if (depth == pick.size()) return each(pick);
      for (std::size_t i = start; i < from.size(); ++i) {
        pick[depth] = i;
        self(self, depth + 1, i + 1);
      }
    };
    rec(rec, 0, 0);
  };
  for (int d = rules.count == Count::exact ? rules.moves : 1; d <= rules.moves; ++d) {
    choose(filled, d, [&](const std::vector<std::size_t>& out) {
      choose(empty, d, [&](const std::vector<std::size_t>& in) {
        Layout after = puzzle;
        for (const auto i : out) after.cells[filled[i].position] ^= filled[i].bit;
        for (const auto i : in) after.cells[empty[i].position] ^= empty[i].bit;
        if (well_formed(after, rules.leading_zeros))
          found.emplace(after.cells.begin(), after.cells.end());
      });
    });
  }
  return static_cast<std::int64_t>(found.size());
}

TEST(MatchstickCandidates, HandCountedOneMove) {
  // 1+1=2 with one move. A 1 cannot give a stick (one stick is no digit) and the 2 cannot
  // either (no digit is the 2 less one stick), so the sources are the 2 itself and the
  // '+'. Inside the 2, e moves to c: 1+1=3. The '+' gives v to a 1, which becomes a 7:
  // 7-1=2 and 1-7=2 (to the 2 it makes a b c d e g, no digit). Three, true or not.
  const Layout puzzle = parse_equation("1+1=2");
  const Rules rules{1, Count::up_to, LeadingZeros::allow};
  EXPECT_EQ(well_formed_layouts(puzzle, rules), 3);
  EXPECT_EQ(brute_force(puzzle, rules), 3);
}

TEST(MatchstickCandidates, EqualsBruteForceOnEveryOneDigitPuzzle) {
  int puzzle_number = 0;
  for (const auto count : {Count::up_to, Count::exact}) {
    for (int moves = 1; moves <= 2; ++moves) {
      for (int a = 0; a < 10; ++a)
        for (int b = 0; b < 10; ++b)
          for (int c = 0; c < 10; ++c)
            for (const char op : {'+', '-'}) {
              if (!testing::sampled_case(puzzle_number++)) continue;
              const auto puzzle = layout_of(a, op, b, c);
              const Rules rules{moves, count, LeadingZeros::allow};
              ASSERT_EQ(well_formed_layouts(puzzle, rules), brute_force(puzzle, rules))
                  << to_string(puzzle) << " k=" << moves;
            }
    }
  }
}

TEST(MatchstickCandidates, EqualsBruteForceOnRandomMultiDigitPuzzles) {
  std::mt19937_64 random(5);
  std::uniform_int_distribution<int> value(0, 999);
  for (int i = 0; i < testing::random_cases(400); ++i) {
    const auto puzzle =
        layout_of(value(random), i % 2 == 0 ? '+' : '-', value(random) % 100, value(random));
    for (const auto zeros : {LeadingZeros::allow, LeadingZeros::forbid}) {
      const Rules rules{1 + i % 2, i % 3 == 0 ? Count::exact : Count::up_to, zeros};
      ASSERT_EQ(well_formed_layouts(puzzle, rules), brute_force(puzzle, rules))
          << to_string(puzzle) << " k=" << rules.moves;
    }
  }
}

TEST(MatchstickCandidates, CountIncludesEverySolution) {
  const auto puzzle = parse_equation("6+4=4");
  const Rules rules{1, Count::up_to, LeadingZeros::allow};
  EXPECT_GE(well_formed_layouts(puzzle, rules),
            static_cast<std::int64_t>(solve_fast(puzzle, rules).size()));
}

}  // namespace
}  // namespace levelforge::matchstick
