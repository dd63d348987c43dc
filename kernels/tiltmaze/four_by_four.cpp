// The 4x4 config encoding and the plain references (four_by_four.hpp). The fast bulk
// versions live in four_by_four_summary.cpp and four_by_four_pairs.cpp.

#include "kernels/tiltmaze/four_by_four.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/api/index.hpp"
#include "kernels/tiltmaze/solver.hpp"

namespace levelforge::tiltmaze::four {
namespace {

constexpr int side = 4;
// Shortest tilt distances from `source` to every cell, -1 where the ball cannot come to
// rest; plain BFS with roll().
std::array<int, 16> distances_from(const Maze& maze, int source) {
  std::array<int, 16> distance{};
  distance.fill(-1);
  distance[to_index(source)] = 0;
  std::vector<int> queue{source};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int cell = queue[head];
    for (int d = 0; d < 4; ++d) {
      const int next = roll(maze, cell, static_cast<Direction>(d));
      if (distance[to_index(next)] < 0) {
        distance[to_index(next)] = distance[to_index(cell)] + 1;
        queue.push_back(next);
      }
    }
  }
  return distance;
}

}  // namespace

Maze maze_of(std::uint32_t config) {
  if (config >= config_count)
    throw std::out_of_range("tiltmaze::four::maze_of: config " + std::to_string(config) +
                            " is not below 2^24");
  Maze maze = open_maze(side, side);
  for (int row = 0; row < side; ++row)
    for (int column = 0; column < side - 1; ++column)
      maze.east[to_index(row * side + column)] =
          static_cast<std::uint8_t>((config >> (row * 3 + column)) & 1U);
  for (int column = 0; column < side; ++column)
    for (int row = 0; row < side - 1; ++row)
      maze.south[to_index(row * side + column)] =
          static_cast<std::uint8_t>((config >> (12 + column * 3 + row)) & 1U);
  return maze;
}

std::uint32_t reflect(std::uint32_t config) {
  return ((config & 0xFFFU) << 12) | ((config >> 12) & 0xFFFU);
}

int reflect_cell(int cell) { return (cell % side) * side + cell / side; }

Summary summarize_reference(std::uint32_t config) {
  const Maze maze = maze_of(config);
  const RollGraph graph = roll_graph(maze);
  const Condensation condensation = condense(graph);
  const std::array<int, 16> distance = distances_from(maze, maze.start);
  const int largest = *std::max_element(distance.begin(), distance.end());
  const auto farthest = std::find(distance.begin(), distance.end(), largest) - distance.begin();
  return {static_cast<std::uint8_t>(graph.resting.size()),
          static_cast<std::uint8_t>(condensation.count), static_cast<std::uint8_t>(largest),
          static_cast<std::uint8_t>(largest == 0 ? 0 : farthest)};
}

PairSummary hardest_pair_reference(std::uint32_t config) {
  const Maze maze = maze_of(config);
  std::array<std::array<int, 16>, 16> distance{};
  for (int cell = 0; cell < 16; ++cell) distance[to_index(cell)] = distances_from(maze, cell);
  const auto& from_start = distance[to_index(maze.start)];
  PairSummary best{0, -1, -1};
  for (int a = 0; a < 16; ++a)
    for (int b = a + 1; b < 16; ++b) {
      if (a == maze.start || b == maze.start || from_start[to_index(a)] < 0 ||
          from_start[to_index(b)] < 0)
        continue;
      int length = -1;  // the better of the two visiting orders, -1 when neither works
      if (distance[to_index(a)][to_index(b)] >= 0)
        length = from_start[to_index(a)] + distance[to_index(a)][to_index(b)];
      if (distance[to_index(b)][to_index(a)] >= 0) {
        const int other = from_start[to_index(b)] + distance[to_index(b)][to_index(a)];
        length = length < 0 ? other : std::min(length, other);
      }
      if (length > best.length)  // strictly: the first pair in (a, b) order wins ties
        best = {static_cast<std::uint8_t>(length), static_cast<std::int8_t>(a),
                static_cast<std::int8_t>(b)};
    }
  return best;
}

}  // namespace levelforge::tiltmaze::four
