#pragma once
// Every 4x4 tilt maze at once (../shared/seeds/tiltmaze-scc-2sat.txt, stop mode): a 4x4 maze
// with the start in the top-left corner is fixed by its 24 inner walls, so the 2^24
// configurations can be enumerated and summarized exhaustively.
//
// Config index (24 bits):
//   bit r*3 + c       (r 0..3, c 0..2): a wall between cell (r,c) and (r,c+1) (Maze::east);
//   bit 12 + c*3 + r  (c 0..3, r 0..2): a wall between cell (r,c) and (r+1,c) (Maze::south).
// Cells are numbered row * 4 + column, row 0 at the top; the reflection about the main
// diagonal keeps the start corner and swaps the two 12-bit halves.
//
// summarize_reference and hardest_pair_reference are plain (the scalar solver and BFS);
// summarize_many and hardest_pairs_many compute the same values in bulk, fast.

#include <array>
#include <cstdint>
#include <span>

#include "kernels/api/isa.hpp"
#include "kernels/tiltmaze/maze.hpp"

namespace levelforge::tiltmaze::four {

inline constexpr std::uint32_t config_count = 1U << 24;
// The cells of a 4x4 maze.
inline constexpr int cells = 16;

// The maze of `config`: 4x4, start 0, no targets. Throws std::out_of_range when
// config >= config_count.
Maze maze_of(std::uint32_t config);

// The config of the maze mirrored about the main diagonal (its halves swapped).
std::uint32_t reflect(std::uint32_t config);

// The cell (r,c) mirrored about the main diagonal: (c,r).
int reflect_cell(int cell);

struct Summary {
  std::uint8_t reachable;   // resting cells reachable from the start, start included (1..16)
  std::uint8_t components;  // strongly connected components of the roll graph on those cells
  std::uint8_t distance;    // largest shortest-tilt distance from the start to a resting cell
  std::uint8_t farthest;    // the smallest cell at that distance (0 when distance is 0)
  friend bool operator==(const Summary&, const Summary&) = default;
};

// One config through maze_of, roll_graph, condense and a BFS.
Summary summarize_reference(std::uint32_t config);

// The summaries of configs first .. first + out.size() - 1 (any first and size). Throws
// std::out_of_range when that range does not lie within 0 .. config_count - 1.
void summarize_many(std::uint32_t first, std::span<Summary> out);

// Per-value counts of the summaries' fields: the exhaustive sweep's histograms.
struct SummaryCounts {
  static constexpr int values = 17;  // 0..16; larger values are not counted
  std::array<std::int64_t, values> reachable{};
  std::array<std::int64_t, values> components{};
  std::array<std::int64_t, values> distance{};
};

// Adds the values of `summaries` to `counts`, compared 64 bytes at a time (many times
// faster than a counter increment per field; see four_by_four_counts.cpp). Like
// summarize_many, the overload with an Isa runs that instruction set's copy or throws
// std::invalid_argument.
void count_summaries(std::span<const Summary> summaries, SummaryCounts& counts);
void count_summaries(std::span<const Summary> summaries, SummaryCounts& counts, Isa isa);

// summarize_many and count_summaries of its summaries in one call: with AVX-512 VPOPCNTDQ
// or AVX2 (counts_in_planes) the counts come from the batches' bit planes, before the
// summaries are transposed, for a fraction of the cost; elsewhere the two calls. The
// overloads with an Isa run that instruction set's copy (summarize_and_count throws like
// summarize_many) and say whether it counts in the planes.
void summarize_and_count(std::uint32_t first, std::span<Summary> out, SummaryCounts& counts);
void summarize_and_count(std::uint32_t first, std::span<Summary> out, SummaryCounts& counts,
                         Isa isa);
[[nodiscard]] bool counts_in_planes();
[[nodiscard]] bool counts_in_planes(Isa isa);

// The hardest two-target stop-mode puzzle of a maze: over unordered pairs {a, b} of
// distinct resting cells, neither the start, the largest optimal length
// min(d(s,a) + d(a,b), d(s,b) + d(b,a)) among the finite ones (d: fewest tilts).
struct PairSummary {
  std::uint8_t length;  // 0 when no pair is solvable (or fewer than two such cells)
  std::int8_t first;    // a < b of the hardest pair; ties: the lexicographically smallest
  std::int8_t second;   // (a, b). Both -1 when length is 0.
  friend bool operator==(const PairSummary&, const PairSummary&) = default;
};

// summarize_many is compiled for several instruction sets and runs the best one the CPU
// offers. Tests and benchmarks can pick one: `isa_supported` (kernels/api/isa.hpp) says
// whether this CPU (and build) can run it, and the overload of summarize_many throws
// std::invalid_argument when it cannot.
void summarize_many(std::uint32_t first, std::span<Summary> out, Isa isa);

// One config by a plain BFS over maze_of(config) with roll().
PairSummary hardest_pair_reference(std::uint32_t config);

// The hardest pairs of configs first .. first + out.size() - 1; throws like summarize_many.
void hardest_pairs_many(std::uint32_t first, std::span<PairSummary> out);

}  // namespace levelforge::tiltmaze::four
