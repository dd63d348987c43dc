#include "kernels/tiltmaze/maze.hpp"

#include <array>

namespace levelforge::tiltmaze {

Maze open_maze(int width, int height) {
  const auto cells = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  return {width, height, std::vector<std::uint8_t>(cells, 0), std::vector<std::uint8_t>(cells, 0),
          0,     {}};
}

bool blocked(const Maze& maze, int cell, Direction direction) {
  const int row = cell / maze.width;
  const int column = cell % maze.width;
  switch (direction) {
    case up: return row == 0 || maze.south[static_cast<std::size_t>(cell - maze.width)] != 0;
    case down: return row == maze.height - 1 || maze.south[static_cast<std::size_t>(cell)] != 0;
    case left: return column == 0 || maze.east[static_cast<std::size_t>(cell - 1)] != 0;
    case right: return column == maze.width - 1 || maze.east[static_cast<std::size_t>(cell)] != 0;
  }
  return true;
}

int roll(const Maze& maze, int cell, Direction direction, std::vector<int>* passed) {
  static constexpr std::array<int, 4> row_step = {-1, 1, 0, 0};
  static constexpr std::array<int, 4> column_step = {0, 0, -1, 1};
  const auto d = static_cast<std::size_t>(direction);
  const int step = row_step[d] * maze.width + column_step[d];
  while (!blocked(maze, cell, direction)) {
    cell += step;
    if (passed != nullptr) passed->push_back(cell);
  }
  return cell;
}

}  // namespace levelforge::tiltmaze
