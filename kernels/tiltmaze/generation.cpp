#include "kernels/tiltmaze/generation.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "kernels/tiltmaze/solver.hpp"

namespace levelforge::tiltmaze {

std::vector<int> target_candidates(const Maze& maze, Placement placement) {
  std::vector<int> cells;
  if (placement == Placement::anywhere) {
    for (int cell = 0; cell < maze.cells(); ++cell)
      if (cell != maze.start) cells.push_back(cell);
    return cells;
  }
  const RollGraph graph = roll_graph(maze);
  cells.assign(graph.resting.begin() + 1, graph.resting.end());  // resting[0] is the start
  std::sort(cells.begin(), cells.end());
  return cells;
}

void place_targets(Maze& maze, int count, Placement placement, Rng& rng) {
  auto cells = target_candidates(maze, placement);
  const auto chosen = std::min(cells.size(), static_cast<std::size_t>(std::max(count, 0)));
  // The first `chosen` steps of a Fisher-Yates shuffle: a uniform subset.
  for (std::size_t i = 0; i < chosen; ++i) {
    const auto j = i + static_cast<std::size_t>(rng.below(cells.size() - i));
    std::swap(cells[i], cells[j]);
  }
  cells.resize(chosen);
  std::sort(cells.begin(), cells.end());
  maze.targets = std::move(cells);
}

Maze random_maze(const GenerationSpec& spec, Rng& rng) {
  Maze maze = open_maze(spec.width, spec.height);
  std::size_t cell = 0;  // row-major
  for (int row = 0; row < spec.height; ++row) {
    for (int column = 0; column < spec.width; ++column, ++cell) {
      if (column + 1 < spec.width && rng.bernoulli(spec.wall_density)) maze.east[cell] = 1;
      if (row + 1 < spec.height && rng.bernoulli(spec.wall_density)) maze.south[cell] = 1;
    }
  }
  if (spec.start == StartPlacement::random)
    maze.start = static_cast<int>(rng.below(static_cast<std::uint64_t>(maze.cells())));
  place_targets(maze, spec.targets, spec.placement, rng);
  return maze;
}

}  // namespace levelforge::tiltmaze
