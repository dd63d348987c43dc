#pragma once
// Variation on rectangular level grids, shared by the kernels whose genomes are grids.

#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/api/rng.hpp"

namespace levelforge {

// Rows top..bottom and columns left..right, inclusive.
struct CellRectangle {
  int top, bottom, left, right;
};

// The rectangle between two uniform rows and two uniform columns (rows drawn first): the
// block of cells a rectangle crossover exchanges between two parents.
inline CellRectangle random_rectangle(Rng& rng, int width, int height) {
  const auto span_of = [&](int size) {
    const auto p = static_cast<int>(rng.below(static_cast<std::uint64_t>(size)));
    const auto q = static_cast<int>(rng.below(static_cast<std::uint64_t>(size)));
    return std::pair<int, int>{std::min(p, q), std::max(p, q)};
  };
  const auto [top, bottom] = span_of(height);
  const auto [left, right] = span_of(width);
  return {top, bottom, left, right};
}

}  // namespace levelforge
