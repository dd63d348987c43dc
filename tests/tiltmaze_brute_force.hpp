#pragma once
// A plain reference for the tilt-maze solvers: breadth-first search over (cell, collected
// targets) using roll() directly, nothing from the solvers. Small target counts only. And
// the random mazes the tests hold the solvers to it on.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/tiltmaze/maze.hpp"

namespace levelforge::tiltmaze::testing {

struct BruteForce {
  bool solvable = false;
  int length = -1;  // fewest tilts collecting every target, -1 when unsolvable
};

// Cells the ball can come to rest on, the start included.
inline std::vector<int> resting_cells(const Maze& maze) {
  std::vector<char> seen(static_cast<std::size_t>(maze.cells()), 0);
  std::vector<int> cells{maze.start};
  seen[static_cast<std::size_t>(maze.start)] = 1;
  for (std::size_t head = 0; head < cells.size(); ++head)
    for (int d = 0; d < 4; ++d) {
      const int next = roll(maze, cells[head], static_cast<Direction>(d));
      if (seen[static_cast<std::size_t>(next)] == 0) {
        seen[static_cast<std::size_t>(next)] = 1;
        cells.push_back(next);
      }
    }
  return cells;
}

// The targets on `cells` as a bitmask.
inline unsigned target_bits(const Maze& maze, const std::vector<int>& cells) {
  unsigned bits = 0;
  for (const int cell : cells)
    for (std::size_t t = 0; t < maze.targets.size(); ++t)
      if (maze.targets[t] == cell) bits |= 1U << t;
  return bits;
}

inline BruteForce brute_force(const Maze& maze, Collect collect) {
  const std::size_t masks = std::size_t{1} << maze.targets.size();
  const auto full = static_cast<unsigned>(masks - 1);
  std::vector<int> distance(static_cast<std::size_t>(maze.cells()) * masks, -1);
  const auto state = [&](int cell, unsigned mask) {
    return static_cast<std::size_t>(cell) * masks + mask;
  };
  std::vector<std::size_t> queue{state(maze.start, target_bits(maze, {maze.start}))};
  distance[queue[0]] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int cell = static_cast<int>(queue[head] / masks);
    const auto mask = static_cast<unsigned>(queue[head] % masks);
    if (mask == full) return {true, distance[queue[head]]};
    for (int d = 0; d < 4; ++d) {
      std::vector<int> passed;
      const int next = roll(maze, cell, static_cast<Direction>(d), &passed);
      const unsigned gained =
          collect == Collect::pass ? target_bits(maze, passed) : target_bits(maze, {next});
      const std::size_t s = state(next, mask | gained);
      if (distance[s] < 0) {
        distance[s] = distance[queue[head]] + 1;
        queue.push_back(s);
      }
    }
  }
  return {};
}

// A random maze of 2..8 x 2..8 cells, walls of a random density, 1 to 6 targets: on resting
// cells only or anywhere, half each.
inline Maze random_maze(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> side(2, 8), count(1, 6), coin(0, 1);
  std::uniform_real_distribution<double> density(0.1, 0.6);
  Maze maze = open_maze(side(rng), side(rng));
  std::bernoulli_distribution wall(density(rng));
  for (auto& w : maze.east) w = wall(rng) ? 1 : 0;
  for (auto& w : maze.south) w = wall(rng) ? 1 : 0;
  maze.start = std::uniform_int_distribution<int>(0, maze.cells() - 1)(rng);
  std::vector<int> pool;
  if (coin(rng) == 0) {
    pool = resting_cells(maze);
  } else {
    for (int c = 0; c < maze.cells(); ++c) pool.push_back(c);
  }
  std::shuffle(pool.begin(), pool.end(), rng);
  pool.resize(std::min(pool.size(), static_cast<std::size_t>(count(rng))));
  maze.targets = pool;
  return maze;
}

}  // namespace levelforge::tiltmaze::testing
