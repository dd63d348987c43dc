// Fuzzes the tilt-maze text parsers (kernels/tiltmaze/maze_text.cpp): the text form and the
// compact form. Any bytes are either a MazeFormatError or a maze that the formatters accept
// and that reads back equal, as their documented round trips promise.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "kernels/tiltmaze/maze_text.hpp"

namespace {

namespace tiltmaze = levelforge::tiltmaze;

void check_text_form(std::string_view text) {
  tiltmaze::Maze maze;
  try {
    maze = tiltmaze::parse_maze(text, "<fuzz>");
  } catch (const tiltmaze::MazeFormatError&) {
    return;
  }
  // A parsed maze has sorted targets and zero ignored walls, so both round trips hold.
  if (tiltmaze::parse_maze(tiltmaze::format_maze(maze)) != maze) std::abort();
  const auto compact = tiltmaze::to_compact(maze);
  if (compact.size() > tiltmaze::max_compact_length) std::abort();
  if (tiltmaze::from_compact(compact) != maze) std::abort();
}

void check_compact_form(std::string_view text) {
  tiltmaze::Maze maze;
  try {
    maze = tiltmaze::from_compact(text);
  } catch (const tiltmaze::MazeFormatError&) {
    return;
  }
  // The compact form has one canonical spelling: it must print back byte for byte.
  if (tiltmaze::to_compact(maze) != text) std::abort();
  try {
    // The text form cannot show a start that is also a target; that one is refused.
    if (tiltmaze::parse_maze(tiltmaze::format_maze(maze)) != maze) std::abort();
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_text_form(text);
  check_compact_form(text);
  return 0;
}
