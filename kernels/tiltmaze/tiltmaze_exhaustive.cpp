// The tiltmaze kernel's exhaustive driver: all 2^24 wall configurations of a 4 x 4 maze.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <span>
#include <string>

#include "kernels/api/isa.hpp"
#include "kernels/tiltmaze/four_by_four.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/solver.hpp"
#include "kernels/tiltmaze/tiltmaze.hpp"

namespace levelforge::kernels {

namespace four = tiltmaze::four;

namespace {

constexpr std::size_t compact_4x4 = 32;  // "4x4;0;T1,T2;EAST;SOUTH" is at most 24 characters
constexpr std::size_t moves_size = 32;   // no 4 x 4 puzzle needs more than 30 tilts
constexpr std::size_t hardest_kept = 100;

// The shortest solution of config's maze with `targets`, which must have `length` tilts:
// the fast summaries and the solver's BFS are two independent computations of the same
// number. The BFS alone: the solvability decision before it (SCCs, 2-SAT) took 1.1 us of a
// record's 3.8.
std::string checked_moves(std::uint32_t config, tiltmaze::Maze& maze, int length) {
  const auto solution =
      tiltmaze::bfs_solution(maze, tiltmaze::roll_graph(maze), tiltmaze::Collect::stop);
  if (solution.length != length) {
    throw KernelError("tiltmaze: 4 x 4 configuration " + std::to_string(config) +
                      ": the fast sweep found length " + std::to_string(length) +
                      " but the solver " + std::to_string(solution.length));
  }
  return solution.moves;
}

Record single_record(std::uint32_t config, const four::Summary& s) {
  auto maze = four::maze_of(config);
  maze.targets = {s.farthest};
  const auto moves = checked_moves(config, maze, s.distance);
  return {std::int64_t{config},
          tiltmaze::to_compact(maze),
          std::int64_t{s.farthest},
          std::int64_t{s.distance},
          std::int64_t{s.reachable},
          std::int64_t{s.components},
          moves};
}

Record pair_record(std::uint32_t config, const four::PairSummary& p) {
  auto maze = four::maze_of(config);
  maze.targets = {p.first, p.second};
  const auto moves = checked_moves(config, maze, p.length);
  return {std::int64_t{config},   tiltmaze::to_compact(maze), std::int64_t{p.first},
          std::int64_t{p.second}, std::int64_t{p.length},     moves};
}

}  // namespace

std::vector<ReductionSpec> TiltMaze::reductions() {
  return {
      count_reduction("evaluated", "configurations evaluated"),
      count_reduction("configurations",
                      "configurations they stand for (with symmetry: reflection, 2 for each "
                      "evaluated maze that differs from its mirror image)"),
      count_reduction("self_symmetric", "evaluated configurations equal to their mirror image"),
      histogram_reduction("reachable", 1, 17, 16,
                          "resting cells reachable from the start, the start included"),
      histogram_reduction("components", 1, 17, 16,
                          "strongly connected components of the roll graph on those cells"),
      histogram_reduction("distance", 0, 16, 16,
                          "largest optimal tilt count from the start to a reachable cell: the "
                          "hardest one-target puzzle (0: the ball cannot move)"),
      top_k_reduction("hardest", hardest_kept,
                      {int_field("config", "wall configuration (docs/tiltmaze.md)"),
                       text_field("maze", compact_4x4, "the maze with that target, compact form"),
                       int_field("target", "the farthest cell (smallest on ties)"),
                       int_field("distance", "its optimal tilt count"),
                       int_field("reachable", "resting cells reachable"),
                       int_field("components", "components of the roll graph"),
                       text_field("moves", moves_size, "a shortest solution")},
                      "configurations with the hardest one-target puzzle"),
      histogram_reduction("pair_length", 0, 32, 32,
                          "pairs: true: optimal length of the hardest two-target puzzle (0: "
                          "no two targets can be collected)"),
      top_k_reduction("hardest_pair", 100,
                      {int_field("config", "wall configuration (docs/tiltmaze.md)"),
                       text_field("maze", compact_4x4, "the maze with both targets, compact form"),
                       int_field("first", "the smaller target cell"),
                       int_field("second", "the larger target cell"),
                       int_field("length", "optimal tilt count collecting both"),
                       text_field("moves", moves_size, "a shortest solution")},
                      "pairs: true: configurations with the hardest two-target puzzle"),
      histogram_reduction("walls_distance", 0, (wall_places + 1) * distance_slots,
                          (wall_places + 1) * distance_slots,
                          "the distance histogram per inner wall count: bin walls x 16 + "
                          "distance counts the configurations of that many walls whose hardest "
                          "one-target puzzle takes that many tilts"),
  };
}

std::vector<FieldSpec> TiltMaze::solution_fields() { return {}; }

std::string TiltMaze::simd_paths() {
  return "4 x 4 exhaustive summaries in avx512, avx2 or portable lanes (histograms counted in "
         "their bit planes with avx512 vpopcntdq or avx2 popcnt); otherwise scalar";
}

std::string TiltMaze::simd_path(const ParamSet& params) {
  if (!TiltMaze(params).enumerable()) return "scalar solver (no 4 x 4 exhaustive summaries)";
  return "4 x 4 exhaustive summaries, " + std::string(isa_name(best_isa())) +
         (!four::counts_in_planes()   ? ""
          : best_isa() == Isa::avx512 ? ", histograms in the bit planes (vpopcntdq)"
                                      : ", histograms in the bit planes (popcnt)");
}

bool TiltMaze::enumerable() const {
  return generation_.width == 4 && generation_.height == 4 &&
         generation_.start == tiltmaze::StartPlacement::corner &&
         collect_ == tiltmaze::Collect::stop;
}

std::uint64_t TiltMaze::index_count() const {
  if (!enumerable()) {
    throw KernelError(
        "tiltmaze: the exhaustive driver enumerates 4 x 4 mazes started in the top-left corner "
        "in stop mode: set width: 4, height: 4, start: corner, collect: stop (got " +
        std::to_string(generation_.width) + " x " + std::to_string(generation_.height) + ")");
  }
  return four::config_count;
}

namespace {

// The least whole score that top-k table `id` may still take (ties are offered: the smaller
// index wins them).
int offer_threshold(const Reductions& out, std::size_t id) {
  const double floor = out.top_floor(id);
  return std::isinf(floor) ? 0 : static_cast<int>(std::ceil(floor));
}

// The least distance of a run that may still end among the `kept` hardest: one with `kept`
// configurations of the same run strictly harder cannot, whatever the index order. Early in
// a sweep, when the table's floor is low, it keeps the offers (each a scan step and a heap
// insertion) to about `kept` per run.
int least_kept(const std::array<std::int64_t, four::SummaryCounts::values>& found,
               std::size_t kept) {
  std::int64_t harder = 0;
  for (auto d = static_cast<int>(found.size()) - 1; d >= 0; --d) {
    if (harder >= static_cast<std::int64_t>(kept)) return d + 1;
    harder += found[static_cast<std::size_t>(d)];
  }
  return 0;
}

// The first of [first, last) whose `field` reaches `threshold`. Not inlined: inside the
// visit's loop, with its calls, GCC kept the scan's iterator in memory (a store and a load
// per summary).
template <class It, class Field>
[[gnu::noinline]] It next_candidate(It first, It last, Field field, int threshold) {
  return std::find_if(first, last, [&](const auto& s) { return s.*field >= threshold; });
}

void add_counts(four::SummaryCounts& total, const four::SummaryCounts& part) {
  for (std::size_t v = 0; v < total.reachable.size(); ++v) {
    total.reachable[v] += part.reachable[v];
    total.components[v] += part.components[v];
    total.distance[v] += part.distance[v];
  }
}

}  // namespace

// The record of a kept entry, from the same fast summaries that scored it, checked against
// the solver's search (checked_moves).
Record TiltMaze::top_record(std::size_t id, std::uint64_t index) const {
  if (index >= four::config_count || (id != hardest && id != hardest_pair)) {
    throw KernelError("tiltmaze: no top-k record for table " + std::to_string(id) +
                      ", configuration " + std::to_string(index) +
                      ": the 4 x 4 sweep's tables are hardest and hardest_pair");
  }
  const auto config = static_cast<std::uint32_t>(index);
  if (id == hardest) {
    four::Summary maze{};
    four::summarize_many(config, {&maze, 1});
    return single_record(config, maze);
  }
  four::PairSummary pair{};
  four::hardest_pairs_many(config, {&pair, 1});
  return pair_record(config, pair);
}

void TiltMaze::visit(std::uint64_t index, Reductions& out) const {
  visit_range(index, index + 1, out);
}

// The index is (south walls << 12) | east walls, and the reflection swaps the halves, so a
// configuration is canonical (not above its mirror image) exactly when south <= east: in
// each run of 4096 indices sharing the south walls, the canonical ones are a suffix, and
// only that suffix is evaluated.
void TiltMaze::visit_range(std::uint64_t begin, std::uint64_t end, Reductions& out) const {
  constexpr std::uint64_t run = 4096;
  std::vector<four::Summary> summaries(run);
  std::vector<four::PairSummary> pairs(pairs_ ? run : 0);
  // Per-value counts of this range, added to the histograms at its end.
  four::SummaryCounts counts;
  std::array<std::int64_t, 32> pair_length{};
  std::array<std::int64_t, (wall_places + 1) * distance_slots> walls_distance{};
  std::int64_t evaluated_count = 0;
  std::int64_t configuration_count = 0;
  std::int64_t symmetric_count = 0;
  for (auto first = begin; first < end;) {
    const auto south = first / run;
    const auto stop = std::min(end, (south + 1) * run);
    const auto self_mirror = south * run + south;  // east walls == south walls
    const auto from = reflection_ ? std::max(first, self_mirror) : first;
    first = stop;
    if (from >= stop) continue;
    const auto size = static_cast<std::size_t>(stop - from);
    const auto from_config = static_cast<std::uint32_t>(from);
    const auto hard = std::span(summaries).first(size);
    four::SummaryCounts run_counts;
    four::summarize_and_count(from_config, hard, run_counts);
    if (pairs_) four::hardest_pairs_many(from_config, {pairs.data(), size});
    if (self_mirror >= from && self_mirror < stop) ++symmetric_count;
    evaluated_count += static_cast<std::int64_t>(size);
    configuration_count += static_cast<std::int64_t>(reflection_ ? 2 * size : size);
    if (reflection_ && from == self_mirror) --configuration_count;
    // The top-k candidates, rare once the tables are full, each found by a scan of its own,
    // and none where the run's counts show no distance that reaches them.
    add_counts(counts, run_counts);
    // A 4 x 4 distance is at most 13 (the sweep's own finding): below distance_slots.
    for (std::size_t i = 0; i < size; ++i) {
      const auto walls = static_cast<std::size_t>(std::popcount(from_config + i));
      ++walls_distance[walls * distance_slots +
                       std::min<std::size_t>(hard[i].distance, distance_slots - 1)];
    }
    const auto& found = run_counts.distance;
    const auto longest = std::find_if(found.rbegin(), found.rend(), [](auto n) { return n > 0; });
    const auto reaches = static_cast<int>(found.rend() - longest) - 1;
    const auto least = least_kept(found, hardest_kept);
    for (auto it = hard.begin();
         reaches >= std::max(least, offer_threshold(out, hardest)) && it != hard.end(); ++it) {
      it = next_candidate(it, hard.end(), &four::Summary::distance,
                          std::max(least, offer_threshold(out, hardest)));
      if (it == hard.end()) break;
      out.begin_index(from_config + static_cast<std::uint64_t>(it - hard.begin()));
      out.offer_top(hardest, it->distance);
    }
    if (!pairs_) continue;
    for (std::size_t i = 0; i < size; ++i) ++pair_length[pairs[i].length];
    const auto pair_span = std::span(pairs).first(size);
    for (auto it = pair_span.begin(); it != pair_span.end(); ++it) {
      it = next_candidate(it, pair_span.end(), &four::PairSummary::length,
                          std::max(1, offer_threshold(out, hardest_pair)));
      if (it == pair_span.end()) break;
      out.begin_index(from_config + static_cast<std::uint64_t>(it - pair_span.begin()));
      out.offer_top(hardest_pair, it->length);
    }
  }
  out.count(evaluated, evaluated_count);
  out.count(configurations, configuration_count);
  out.count(self_symmetric, symmetric_count);
  out.histogram_counts(reachable_histogram, counts.reachable);
  out.histogram_counts(components_histogram, counts.components);
  out.histogram_counts(distance_histogram, std::span(counts.distance).first(16));
  out.histogram_counts(pair_length_histogram, pair_length);
  out.histogram_counts(walls_distance_histogram, walls_distance);
}

}  // namespace levelforge::kernels
