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

}  // namespace levelforge::matchstick
