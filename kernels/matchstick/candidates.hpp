#pragma once
// How many well-formed equations a puzzle's sticks can be moved into: the candidates a
// player has to weigh. Those that are false are the near misses of docs/matchstick.md.

#include <cstdint>

#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {

// Distinct layouts at distance 1..k (up_to) or exactly k (exact) from `puzzle` whose every
// position is a valid symbol, with no leading zero where `rules` forbid one, true or
// false. Counted, not listed: a dynamic program over the positions on (sticks taken,
// sticks placed), with per-pattern tables of how many symbols lie r removals and a
// additions away; one move in closed form where each position shows a symbol.
std::int64_t well_formed_layouts(const Layout& puzzle, const Rules& rules);

// One move in closed form: the layouts are inside + taken x placed - alike, each a sum
// over the positions (sticks moved inside a symbol, taken, placed; the last the pairs of
// one position, no move between two). Sums over any split of the positions add up, so a
// sweep can keep them per number.
struct OneMoveTerms {
  std::int64_t inside = 0;
  std::int64_t taken = 0;
  std::int64_t placed = 0;
  std::int64_t alike = 0;
  bool symbols = true;  // every position shows a symbol of its kind

  [[nodiscard]] std::int64_t layouts() const { return inside + taken * placed - alike; }
  friend OneMoveTerms operator+(const OneMoveTerms& x, const OneMoveTerms& y) {
    return {x.inside + y.inside, x.taken + y.taken, x.placed + y.placed, x.alike + y.alike,
            x.symbols && y.symbols};
  }
};
// The terms of positions [first, first + count) of `puzzle`, unchecked.
OneMoveTerms one_move_terms(const Layout& puzzle, int first, int count, const Rules& rules);

}  // namespace levelforge::matchstick
