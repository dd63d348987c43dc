#include "kernels/tiltmaze/tiltmaze.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "kernels/api/grid.hpp"
#include "kernels/api/index.hpp"
#include "kernels/tiltmaze/analysis.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/solver.hpp"

namespace levelforge::kernels {

using tiltmaze::Collect;
using tiltmaze::Maze;
using tiltmaze::Placement;
using tiltmaze::StartPlacement;

namespace {

// What the sweep records and the GA evaluations report of one maze.
struct Assessment {
  tiltmaze::Solution solution;
  int resting = 0;
  int components = 0;
};

Assessment assess(const Maze& maze, Collect collect) {
  const auto graph = tiltmaze::roll_graph(maze);
  const auto condensation = tiltmaze::condense(graph);
  return {tiltmaze::shortest_solution(maze, graph, condensation, collect),
          static_cast<int>(graph.resting.size()), condensation.count};
}

}  // namespace

std::vector<ParamSpec> TiltMaze::parameters() {
  return {
      int_param("width", 8, 2, tiltmaze::max_side, "columns (exhaustive: 4)"),
      int_param("height", 8, 2, tiltmaze::max_side, "rows (exhaustive: 4)"),
      real_param("wall_density", 0.3, 0.0, 1.0, "probability of each inner wall"),
      int_param("targets", 3, 1, tiltmaze::max_targets, "targets to collect"),
      choice_param("placement", {"resting", "anywhere"},
                   "targets only on cells the ball can rest on, or on any cell but the start"),
      choice_param("start", {"corner", "random"}, "start in the top-left cell or anywhere"),
      tiltmaze::collect_param(),
      int_param("target_length", 12, 1, 1'000'000, "ga: the wanted optimal solution length"),
      bool_param("pairs", false,
                 "exhaustive: also the hardest two-target puzzle of every maze (slower)"),
      choice_param("symmetry", {"none", "reflection"},
                   "exhaustive: every configuration, or each maze once up to the reflection "
                   "that keeps the start corner"),
  };
}

TiltMaze::TiltMaze(const ParamSet& params)
    : collect_(params.choice_as("collect", tiltmaze::collect_words)),
      target_length_(params.integer("target_length")),
      pairs_(params.boolean("pairs")),
      reflection_(params.choice("symmetry") == "reflection") {
  generation_.width = static_cast<int>(params.integer("width"));
  generation_.height = static_cast<int>(params.integer("height"));
  generation_.wall_density = params.real("wall_density");
  generation_.targets = static_cast<int>(params.integer("targets"));
  generation_.placement = params.choice_as<Placement>(
      "placement", {{"resting", Placement::resting}, {"anywhere", Placement::anywhere}});
  generation_.start = params.choice_as<StartPlacement>(
      "start", {{"corner", StartPlacement::corner}, {"random", StartPlacement::random}});
  if (generation_.targets >= generation_.width * generation_.height) {
    throw KernelError("tiltmaze: targets " + std::to_string(generation_.targets) +
                      " leaves no cell for the start on a " + std::to_string(generation_.width) +
                      " x " + std::to_string(generation_.height) + " maze");
  }
}

// ---------------------------------------------------------------------------------------
// Records shared by the sweep and the GA.

namespace {

int inner_walls(const Maze& maze) {
  int walls = 0;
  for (int cell = 0; cell < maze.cells(); ++cell) {
    if (cell % maze.width + 1 < maze.width && maze.east[to_index(cell)] != 0) ++walls;
    if (cell / maze.width + 1 < maze.height && maze.south[to_index(cell)] != 0) ++walls;
  }
  return walls;
}

int inner_wall_places(int width, int height) { return (width - 1) * height + width * (height - 1); }

}  // namespace

std::vector<FieldSpec> TiltMaze::evaluation_fields() {
  return {
      int_field("solvable", "1 when some sequence of tilts collects every target"),
      int_field("length", "tilts of the shortest solution found, -1 when unsolvable"),
      int_field("proven_shortest", "1 when length is proven optimal (at most 20 targets)"),
      int_field("targets", "targets placed"),
      int_field("resting", "cells the ball can rest on from the start, the start included"),
      int_field("components", "strongly connected components of the roll graph on those cells"),
      int_field("walls", "inner walls present, of (W-1) x H + W x (H-1)"),
      text_field("maze", tiltmaze::max_compact_length,
                 "the maze in the compact form (levelforge maze prints it)"),
  };
}

Record TiltMaze::measure(const Maze& maze) const {
  const auto a = assess(maze, collect_);
  return {std::int64_t{a.solution.solvable},
          std::int64_t{a.solution.length},
          std::int64_t{a.solution.proven_shortest},
          static_cast<std::int64_t>(maze.targets.size()),
          std::int64_t{a.resting},
          std::int64_t{a.components},
          std::int64_t{inner_walls(maze)},
          tiltmaze::to_compact(maze)};
}

std::vector<FieldSpec> TiltMaze::record_fields() { return evaluation_fields(); }

Record TiltMaze::run(Rng& rng) const { return measure(tiltmaze::random_maze(generation_, rng)); }

// ---------------------------------------------------------------------------------------
// GA.

std::size_t TiltMaze::genome_length() const {
  return to_index(2 * generation_.width * generation_.height + 1 + generation_.targets);
}

TiltMaze::Genome TiltMaze::random_genome(Rng& rng) const {
  return tiltmaze::random_maze(generation_, rng);
}

void TiltMaze::repair(Genome& genome, Rng& rng) const {
  const auto allowed = tiltmaze::target_candidates(genome, generation_.placement);
  std::vector<char> is_allowed(to_index(genome.cells()), 0);
  for (const int cell : allowed) is_allowed[to_index(cell)] = 1;
  std::vector<char> taken(to_index(genome.cells()), 0);
  std::vector<int> kept;
  for (const int cell : genome.targets) {
    if (is_allowed[to_index(cell)] == 0 || taken[to_index(cell)] != 0) continue;
    taken[to_index(cell)] = 1;
    kept.push_back(cell);
  }
  const auto wanted = std::min(allowed.size(), to_index(generation_.targets));
  std::vector<int> free;
  for (const int cell : allowed)
    if (taken[to_index(cell)] == 0) free.push_back(cell);
  while (kept.size() < wanted) {
    const auto pick = static_cast<std::size_t>(rng.below(free.size()));
    kept.push_back(free[pick]);
    free[pick] = free.back();
    free.pop_back();
  }
  std::sort(kept.begin(), kept.end());
  genome.targets = std::move(kept);
}

// The children swap the walls of a random rectangle of cells; each target slot comes from
// either parent.
std::pair<TiltMaze::Genome, TiltMaze::Genome> TiltMaze::crossover(const Genome& a, const Genome& b,
                                                                  Rng& rng) const {
  Genome first = a;
  Genome second = b;
  const auto block = random_rectangle(rng, generation_.width, generation_.height);
  for (int row = block.top; row <= block.bottom; ++row) {
    for (int column = block.left; column <= block.right; ++column) {
      const auto cell = to_index(row * generation_.width + column);
      std::swap(first.east[cell], second.east[cell]);
      std::swap(first.south[cell], second.south[cell]);
    }
  }
  const auto slots = std::min(first.targets.size(), second.targets.size());
  for (std::size_t t = 0; t < slots; ++t)
    if (rng.bernoulli(0.5)) std::swap(first.targets[t], second.targets[t]);
  repair(first, rng);
  repair(second, rng);
  return {first, second};
}

// Each inner wall flips, each target moves to a random cell and (start: random) the start
// moves, each with probability `rate`.
void TiltMaze::mutate(Genome& genome, double rate, Rng& rng) const {
  const int width = generation_.width;
  const int height = generation_.height;
  for (int cell = 0; cell < genome.cells(); ++cell) {
    if (cell % width + 1 < width && rng.bernoulli(rate)) genome.east[to_index(cell)] ^= 1U;
    if (cell / width + 1 < height && rng.bernoulli(rate)) genome.south[to_index(cell)] ^= 1U;
  }
  const auto cells = static_cast<std::uint64_t>(genome.cells());
  if (generation_.start == StartPlacement::random && rng.bernoulli(rate))
    genome.start = static_cast<int>(rng.below(cells));
  for (auto& target : genome.targets)
    if (rng.bernoulli(rate)) target = static_cast<int>(rng.below(cells));
  repair(genome, rng);
}

Evaluation TiltMaze::evaluate(const Genome& genome, Rng& /*rng*/) const {
  auto record = measure(genome);
  const bool solvable = std::get<std::int64_t>(record[0]) != 0;
  const auto length = std::get<std::int64_t>(record[1]);
  // A solution found makes at most one shortest walk (< cells tilts) per target plus one
  // tilt per component, so |length - target_length| < (targets + 1) * cells + target_length.
  const auto bound =
      static_cast<std::int64_t>(genome.targets.size() + 1) * genome.cells() + target_length_;
  const auto miss = solvable ? std::abs(length - target_length_) : bound;
  const auto fitness = static_cast<double>(-miss);
  return {fitness, std::move(record)};
}

std::vector<ObjectiveSpec> TiltMaze::objectives() const {
  // The fitness of an unsolvable maze (evaluate()) is the worst a maze can have.
  const auto cells = static_cast<std::int64_t>(generation_.width) * generation_.height;
  const auto worst = (generation_.targets + 1) * cells + target_length_;
  return {
      {"fitness", false, static_cast<double>(-worst),
       "-|length - target_length|: how near the shortest solution is to the wanted one"},
      {"walls", true, static_cast<double>(inner_wall_places(generation_.width, generation_.height)),
       "inner walls: fewer make a cleaner maze, and a long shortest solution is hard to "
       "get from few walls (the puzzle maker's elegance against difficulty)"}};
}

// qd driver. The record's second field is the length (evaluation_fields()).
std::vector<MeasureSpec> TiltMaze::measures() const {
  // One leg per target and one more, each about a crossing of the maze plus two tilts: the
  // documented longest solutions are 13 (4 x 4, 1 target: 12 here), 20 (4 x 4, 2 targets: 18)
  // and about 50 (8 x 8, 4 targets, the GA's ceiling: 50).
  const int side = std::max(generation_.width, generation_.height);
  const int longest = (generation_.targets + 1) * (side + 2);
  return {{"length", 0, static_cast<double>(longest),
           "tilts of the optimal solution (the evaluation's length), 0 .. (targets + 1) x "
           "(max(width, height) + 2); -1 for an unsolvable maze, below the range: the first "
           "cell"},
          {"wall_density", 0, 1, "fraction of the (W-1) x H + W x (H-1) inner walls present"}};
}

std::vector<double> TiltMaze::measure(const Genome& genome, const Evaluation& evaluation) const {
  constexpr std::size_t length_at = 1;
  constexpr std::size_t walls_at = 6;
  const auto length = std::get<std::int64_t>(evaluation.record.at(length_at));
  const auto walls = std::get<std::int64_t>(evaluation.record.at(walls_at));
  const int inner = inner_wall_places(genome.width, genome.height);
  return {static_cast<double>(length),
          inner == 0 ? 0.0 : static_cast<double>(walls) / static_cast<double>(inner)};
}

// Layout: east[W*H], south[W*H], start, then `targets` slots (-1 for an empty one).
void TiltMaze::encode(const Genome& genome, std::span<std::int64_t> out) const {
  const auto cells = to_index(genome.cells());
  std::copy(genome.east.begin(), genome.east.end(), out.begin());
  std::copy(genome.south.begin(), genome.south.end(), out.begin() + static_cast<long>(cells));
  out[2 * cells] = genome.start;
  for (std::size_t t = 0; t < to_index(generation_.targets); ++t)
    out[2 * cells + 1 + t] = t < genome.targets.size() ? genome.targets[t] : -1;
}

TiltMaze::Genome TiltMaze::decode(std::span<const std::int64_t> stored) const {
  Genome genome = tiltmaze::open_maze(generation_.width, generation_.height);
  const auto cells = to_index(genome.cells());
  for (std::size_t c = 0; c < cells; ++c) {
    genome.east[c] = static_cast<std::uint8_t>(stored[c] != 0);
    genome.south[c] = static_cast<std::uint8_t>(stored[cells + c] != 0);
  }
  genome.start = static_cast<int>(stored[2 * cells]);
  for (std::size_t t = 0; t < to_index(generation_.targets); ++t)
    if (stored[2 * cells + 1 + t] >= 0)
      genome.targets.push_back(static_cast<int>(stored[2 * cells + 1 + t]));
  return genome;
}

std::vector<std::size_t> TiltMaze::level_shape() const {
  return {to_index(2 * generation_.height + 1), to_index(2 * generation_.width + 1)};
}

void TiltMaze::render_level(const Genome& genome, std::span<std::uint8_t> out) const {
  const std::string text = tiltmaze::format_maze(genome);
  auto cell = out.begin();
  for (const char c : text)
    if (c != '\n') *cell++ = static_cast<std::uint8_t>(c);
}

}  // namespace levelforge::kernels
