#pragma once
// A tilt maze (../shared/seeds/tiltmaze-scc-2sat.txt): width x height cells with thin
// walls between them and a solid border, a start cell and targets. Tilting rolls the ball
// in one direction until the next step would cross a wall.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace levelforge::tiltmaze {

inline constexpr int max_side = 64;
inline constexpr int max_targets = 64;

enum Direction : int { up = 0, down = 1, left = 2, right = 3 };
// The letter of each direction, in Direction order.
inline constexpr std::string_view direction_letters = "UDLR";

// `stop`: a target counts when the ball comes to rest on it (the document's model).
// `pass`: it counts when the ball rolls over it or rests on it.
enum class Collect { stop, pass };

struct Maze {
  int width = 0;
  int height = 0;
  // east[cell]: a wall between cell and its right neighbour (ignored in the last column);
  // south[cell]: a wall between cell and the one below (ignored in the last row).
  std::vector<std::uint8_t> east;
  std::vector<std::uint8_t> south;
  int start = 0;             // cell = row * width + column, row 0 at the top
  std::vector<int> targets;  // distinct cells, at most max_targets

  [[nodiscard]] int cells() const { return width * height; }
  friend bool operator==(const Maze&, const Maze&) = default;
};

// An empty maze (no inner walls) of the given size, start at cell 0, no targets.
Maze open_maze(int width, int height);

// True when the ball at `cell` cannot step in `direction` (a wall or the border).
bool blocked(const Maze& maze, int cell, Direction direction);

// Where the ball comes to rest rolling from `cell` in `direction` (`cell` itself when it
// cannot move); `passed`, when given, receives the cells rolled over, the end included.
int roll(const Maze& maze, int cell, Direction direction, std::vector<int>* passed = nullptr);

}  // namespace levelforge::tiltmaze
