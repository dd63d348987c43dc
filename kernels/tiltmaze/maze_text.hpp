#pragma once
// The plain-text form of a tilt maze and its one-string compact form (docs/tiltmaze.md,
// "Maze text format", is the normative description).

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kernels/api/puzzle.hpp"
#include "kernels/tiltmaze/maze.hpp"

namespace levelforge::tiltmaze {

// A maze text (or compact string) that does not follow the format. what() is
// "SOURCE:LINE:COLUMN: message", line and column 1-based, counted in the file as given
// (comment lines included); a compact string is one line, its column the offset + 1.
class MazeFormatError : public PuzzleInputError {
 public:
  MazeFormatError(std::string source, int line, int column, std::string message);

  [[nodiscard]] const std::string& source() const { return source_; }
  [[nodiscard]] int line() const { return line_; }
  [[nodiscard]] int column() const { return column_; }
  // The message without the position.
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  std::string source_;
  int line_;
  int column_;
  std::string message_;
};

// The maze drawn in `text`; `source` names it in errors. Targets come out sorted
// ascending; the wall entries the model ignores (east of the last column, south of the
// last row) are 0.
Maze parse_maze(std::string_view text, std::string_view source = "<maze>");

// The text form: 2H+1 lines of 2W+1 characters, each ending in '\n', no comments.
// parse_maze(format_maze(m)) == m when m's targets are sorted and its ignored wall
// entries are 0. Throws std::invalid_argument for a maze the model does not allow
// (size, vector lengths, start or targets out of range, repeated targets) or that the
// text cannot show (the start cell also a target).
std::string format_maze(const Maze& maze);

// The compact form "WxH;START;T1,T2,...;EAST;SOUTH" (docs/tiltmaze.md): the walls the
// model uses as hex bit strings. from_compact(to_compact(m)) == m under the same
// conditions as the text form; the start may also be a target here. Throws
// std::invalid_argument like format_maze.
std::string to_compact(const Maze& maze);

// The longest compact string of any maze the model allows (64 x 64, 64 targets): the size
// of a fixed-length text field that can hold every maze. Sizes, start and targets are
// decimal; the walls one hex digit per 4 of the (W-1)*H east and W*(H-1) south walls.
inline constexpr std::size_t max_compact_length = [] {
  const std::size_t cell_digits = 4;  // cells up to 4095
  const auto side = static_cast<std::size_t>(max_side);
  const std::size_t walls = (side - 1) * side;
  return std::size_t{5} + 1                                                   // "64x64;"
         + cell_digits + 1                                                    // start ";"
         + static_cast<std::size_t>(max_targets) * (cell_digits + 1) - 1 + 1  // targets "," ... ";"
         + (walls + 3) / 4 + 1 + (walls + 3) / 4;                             // east ";" south
}();

// The maze a compact string describes; anything but the one canonical spelling (leading
// zeros, upper-case hex, unsorted targets, non-zero padding bits, ...) is a
// MazeFormatError with source "<compact>", line 1.
Maze from_compact(std::string_view compact);

// A maze file's text: the drawing of docs/tiltmaze.md, or a file whose only line besides
// comments and trailing empty lines is a compact string. Throws MazeFormatError
// "SOURCE:LINE:COLUMN: message", the position counted in the file for both forms.
Maze read_maze_file(std::string_view text, const std::string& source);

}  // namespace levelforge::tiltmaze
