// hardest_pairs_many (four_by_four.hpp): per config, table-driven.
//
// The three walls of a row (or column) are three adjacent config bits, so where a ball
// rests after a tilt along a line is a lookup in a table of the 8 wall patterns. The roll
// graph becomes 16 successor masks (one 16-bit set per cell), the shortest distances a BFS
// over 16-bit sets from each resting cell (only those: the others never matter), and the
// pairs a loop over the resting cells. The work grows with the number of resting cells,
// which is small for most configs.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "kernels/tiltmaze/four_by_four.hpp"

namespace levelforge::tiltmaze::four {
namespace {

constexpr std::uint8_t unreachable = 0x40;  // above any sum of two real distances (<= 30)

// rests[pattern][i]: bit j set when a ball at position i of a line whose walls are
// `pattern` (bit w: a wall between positions w and w+1) comes to rest at j tilting
// either way along the line, j != i.
constexpr std::array<std::array<std::uint8_t, 4>, 8> line_rests = [] {
  std::array<std::array<std::uint8_t, 4>, 8> table{};
  for (unsigned pattern = 0; pattern < 8; ++pattern)
    for (int i = 0; i < 4; ++i) {
      int low = i, high = i;
      while (low > 0 && ((pattern >> (low - 1)) & 1U) == 0) --low;
      while (high < 3 && ((pattern >> high) & 1U) == 0) ++high;
      const unsigned mask = ((1U << low) | (1U << high)) & ~(1U << i);
      table[pattern][static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(mask);
    }
  return table;
}();

// A 4-bit column-position mask spread onto the cells of column 0 (bit j -> cell 4j).
constexpr std::array<std::uint16_t, 16> column_spread = [] {
  std::array<std::uint16_t, 16> table{};
  for (unsigned mask = 0; mask < 16; ++mask)
    for (unsigned j = 0; j < 4; ++j)
      if (((mask >> j) & 1U) != 0) table[mask] |= static_cast<std::uint16_t>(1U << (4 * j));
  return table;
}();

using Successors = std::array<std::uint16_t, cells>;

// The smallest cell of a non-empty set.
constexpr std::size_t lowest(unsigned set) {
  return static_cast<std::size_t>(std::countr_zero(set));
}
using Row = std::array<std::uint8_t, cells>;

Successors successors_of(std::uint32_t config) {
  Successors next{};
  for (unsigned line = 0; line < 4; ++line) {
    const auto& along_row = line_rests[(config >> (3 * line)) & 7U];
    const auto& along_column = line_rests[(config >> (12 + 3 * line)) & 7U];
    for (unsigned i = 0; i < 4; ++i) {
      next[4 * line + i] |= static_cast<std::uint16_t>(along_row[i] << (4 * line));
      next[4 * i + line] |= static_cast<std::uint16_t>(column_spread[along_column[i]] << line);
    }
  }
  return next;
}

// Shortest distances from `source`; `unreachable` elsewhere. Returns the cells reached.
unsigned distances(const Successors& next, std::size_t source, Row& distance) {
  distance.fill(unreachable);
  distance[source] = 0;
  unsigned seen = 1U << source, frontier = seen;
  for (std::uint8_t layer = 1; frontier != 0; ++layer) {
    unsigned grown = 0;
    for (unsigned f = frontier; f != 0; f &= f - 1) grown |= next[lowest(f)];
    frontier = grown & ~seen;
    seen |= frontier;
    for (unsigned f = frontier; f != 0; f &= f - 1) distance[lowest(f)] = layer;
  }
  return seen;
}

PairSummary hardest_pair(std::uint32_t config) {
  const Successors next = successors_of(config);
  constexpr std::size_t start = 0;
  std::array<Row, cells> distance;
  const unsigned targets = distances(next, start, distance[start]) & ~(1U << start);
  if (std::popcount(targets) < 2) return {0, -1, -1};
  for (unsigned t = targets; t != 0; t &= t - 1) {
    const std::size_t cell = lowest(t);
    distances(next, cell, distance[cell]);
  }
  const Row& from_start = distance[start];
  unsigned best = 0;
  std::size_t best_a = 0, best_b = 0;
  for (unsigned ta = targets; ta != 0; ta &= ta - 1) {
    const std::size_t a = lowest(ta);
    for (unsigned tb = ta & (ta - 1); tb != 0; tb &= tb - 1) {
      const std::size_t b = lowest(tb);
      const unsigned length =
          std::min(from_start[a] + distance[a][b] + 0U, from_start[b] + distance[b][a] + 0U);
      // A finite length stays below `unreachable`; strict > keeps the first pair on ties.
      if (length < unreachable && length > best) {
        best = length;
        best_a = a;
        best_b = b;
      }
    }
  }
  if (best == 0) return {0, -1, -1};
  return {static_cast<std::uint8_t>(best), static_cast<std::int8_t>(best_a),
          static_cast<std::int8_t>(best_b)};
}

}  // namespace

void hardest_pairs_many(std::uint32_t first, std::span<PairSummary> out) {
  if (first > config_count || out.size() > config_count - first)
    throw std::out_of_range("tiltmaze::four::hardest_pairs_many: configs " + std::to_string(first) +
                            " + " + std::to_string(out.size()) + " exceed 2^24");
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = hardest_pair(first + static_cast<std::uint32_t>(i));
}

}  // namespace levelforge::tiltmaze::four
