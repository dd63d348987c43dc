#include "kernels/tiltmaze/maze_text.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/api/index.hpp"
#include "kernels/api/text.hpp"

namespace levelforge::tiltmaze {

MazeFormatError::MazeFormatError(std::string source, int line, int column, std::string message)
    : PuzzleInputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                       message),
      source_(std::move(source)),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

namespace {

constexpr int max_line_length = 2 * max_side + 1;

// A character as an error message shows it.
std::string describe(char ch) { return ch == '\t' ? "a tab" : describe_char(ch); }

// --- the model's invariants, shared by format_maze and to_compact ---------------------

void check_maze(const Maze& maze, bool start_may_be_target) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("tilt maze: " + what); };
  if (maze.width < 1 || maze.width > max_side || maze.height < 1 || maze.height > max_side) {
    fail("size " + std::to_string(maze.width) + " x " + std::to_string(maze.height) +
         " outside 1..64 x 1..64");
  }
  const int cells = maze.cells();
  if (maze.east.size() != to_index(cells) || maze.south.size() != to_index(cells)) {
    fail("east and south need one entry per cell (" + std::to_string(cells) + ")");
  }
  if (maze.start < 0 || maze.start >= cells) {
    fail("start cell " + std::to_string(maze.start) + " outside 0.." + std::to_string(cells - 1));
  }
  if (maze.targets.size() > to_index(max_targets)) fail("more than 64 targets");
  std::vector<int> sorted = maze.targets;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] < 0 || sorted[i] >= cells) {
      fail("target cell " + std::to_string(sorted[i]) + " outside 0.." + std::to_string(cells - 1));
    }
    if (i > 0 && sorted[i] == sorted[i - 1]) {
      fail("target cell " + std::to_string(sorted[i]) + " listed twice");
    }
    if (!start_may_be_target && sorted[i] == maze.start) {
      fail("the start cell " + std::to_string(maze.start) +
           " is also a target, which the text form cannot show");
    }
  }
}

// --- the text form -----------------------------------------------------------------

struct Line {
  int number;  // 1-based line of the file
  std::string_view text;
};

class TextParser {
 public:
  TextParser(std::string_view text, std::string_view source) : source_(source) { split(text); }

  Maze parse() {
    if (lines_.empty()) fail(1, 1, "empty maze: the text has no lines besides comments");
    set_width();
    for (std::size_t row = 0; row < lines_.size(); ++row) scan(row);
    finish();
    return std::move(maze_);
  }

 private:
  [[noreturn]] void fail(int line, int column, const std::string& message) const {
    throw MazeFormatError(std::string(source_), line, column, message);
  }

  // The maze's lines: every line but comments ('#' first) and the empty lines that end
  // the file; a '\r' before the '\n' is dropped.
  void split(std::string_view text) {
    int number = 0;
    std::size_t last_nonempty = 0;
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      ++number;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (!line.empty() && line.front() == '#') continue;
      lines_.push_back({number, line});
      if (!line.empty()) last_nonempty = lines_.size();
    }
    lines_.resize(last_nonempty);
  }

  // The first maze line (the top border) sets the width: 2W+1 characters.
  void set_width() {
    const Line& first = lines_.front();
    const int length = static_cast<int>(first.text.size());
    if (length < 3) {
      fail(first.number, length + 1,
           "first maze line too short (" + std::to_string(length) +
               " characters): a maze line has 2W+1 >= 3 characters");
    }
    if (length % 2 == 0) {
      fail(first.number, length,
           "first maze line has an even length (" + std::to_string(length) +
               " characters): a maze line has 2W+1 characters");
    }
    if (length > max_line_length) {
      fail(first.number, max_line_length + 1,
           "maze too wide: " + std::to_string((length - 1) / 2) +
               " cells across, at most 64 (129 characters)");
    }
    width_ = (length - 1) / 2;
    maze_.width = width_;
  }

  // Checks one maze line (`row` counts maze lines from 0) and records its walls and cells.
  void scan(std::size_t row_index) {
    const Line& line = lines_[row_index];
    const int row = static_cast<int>(row_index);
    if (row >= max_line_length) {
      fail(line.number, 1, "maze too tall: more than 64 rows of cells (129 lines)");
    }
    const int expected = 2 * width_ + 1;
    const int length = static_cast<int>(line.text.size());
    const bool cell_row = row % 2 == 1;
    if (cell_row) {
      maze_.east.resize(maze_.east.size() + to_index(width_), 0);
    } else if (row > 0) {
      maze_.south.resize(maze_.south.size() + to_index(width_), 0);
    }
    const std::size_t first_cell = to_index((row - 1) / 2 * width_);
    for (int j = 0; j < expected; ++j) {
      const char ch = j < length ? line.text[to_index(j)] : ' ';
      // An error found in the padding is a short line: report where it ends.
      auto bad = [&](const std::string& message) {
        if (j >= length) {
          fail(line.number, length + 1,
               "line too short: " + std::to_string(length) + " characters, the maze's lines have " +
                   std::to_string(expected) +
                   " (only trailing spaces may be left out, and every line ends at the closed "
                   "border)");
        }
        fail(line.number, j + 1, message);
      };
      const int column = j / 2;  // the cell left of a vertical wall, above a horizontal one
      if (!cell_row && j % 2 == 0) {
        if (ch != '+') bad("expected '+' at a corner, found " + describe(ch));
      } else if (!cell_row) {
        if (ch == '-') {
          if (row > 0) maze_.south[to_index((row / 2 - 1) * width_ + column)] = 1;
        } else if (ch == ' ') {
          if (row == 0) bad("open border: the top border needs '-' here");
        } else {
          bad("invalid character " + describe(ch) +
              " at a horizontal wall position: expected '-' or ' '");
        }
      } else if (j % 2 == 0) {
        if (ch == '|') {
          if (j > 0 && j < expected - 1) maze_.east[first_cell + to_index(column - 1)] = 1;
        } else if (ch == ' ') {
          if (j == 0) bad("open border: the left border needs '|' here");
          if (j == expected - 1) bad("open border: the right border needs '|' here");
        } else {
          bad("invalid character " + describe(ch) +
              " at a vertical wall position: expected '|' or ' '");
        }
      } else {
        const int cell = static_cast<int>(first_cell) + column;
        if (ch == 'S') {
          if (start_line_ != 0) {
            bad("second start 'S' (the first is at line " + std::to_string(start_line_) +
                ", column " + std::to_string(start_column_) + "): a maze has exactly one");
          }
          start_line_ = line.number;
          start_column_ = j + 1;
          maze_.start = cell;
        } else if (ch == 'T') {
          if (maze_.targets.size() == to_index(max_targets)) {
            bad("more than 64 targets");
          }
          maze_.targets.push_back(cell);
        } else if (ch != ' ') {
          bad("invalid cell character " + describe(ch) + ": expected ' ', 'S' or 'T'");
        }
      }
    }
    if (length > expected) {
      fail(line.number, expected + 1,
           "line too long: " + std::to_string(length) + " characters, the first maze line (line " +
               std::to_string(lines_.front().number) + ") has " + std::to_string(expected));
    }
  }

  void finish() {
    const int count = static_cast<int>(lines_.size());
    const Line& last = lines_.back();
    if (count % 2 == 0) {
      fail(last.number, 1,
           "the maze has an even number of lines (" + std::to_string(count) +
               ") and ends with a row of cells: a maze has 2H+1 lines, the last the bottom border");
    }
    if (count < 3) {
      fail(last.number, 1,
           "only 1 maze line: a maze has 2H+1 >= 3 lines (a row of cells between two borders)");
    }
    for (int j = 1; j < 2 * width_ + 1; j += 2) {
      if (last.text[to_index(j)] == ' ') {
        fail(last.number, j + 1, "open border: the bottom border needs '-' here");
      }
    }
    maze_.height = (count - 1) / 2;
    // The bottom border's '-' are not walls of the model: the last row's south is ignored.
    maze_.south.resize(to_index(maze_.cells()), 0);
    std::fill(maze_.south.end() - width_, maze_.south.end(), std::uint8_t{0});
    if (start_line_ == 0) {
      fail(lines_.front().number, 1, "no start cell: a maze needs exactly one 'S'");
    }
    std::sort(maze_.targets.begin(), maze_.targets.end());
  }

  std::string_view source_;
  std::vector<Line> lines_;
  int width_ = 0;
  int start_line_ = 0;
  int start_column_ = 0;
  Maze maze_;
};

// --- the compact form --------------------------------------------------------------

constexpr std::string_view hex_digits = "0123456789abcdef";

// The walls the model uses as a hex bit string: wall k is bit 3 - k % 4 of digit k / 4.
std::string to_hex(const std::vector<std::uint8_t>& walls, int width, int height, bool east) {
  std::vector<bool> bits;
  for (int row = 0; row < height - (east ? 0 : 1); ++row) {
    for (int column = 0; column < width - (east ? 1 : 0); ++column) {
      bits.push_back(walls[to_index(row * width + column)] != 0);
    }
  }
  std::string hex;
  for (std::size_t k = 0; k < bits.size(); k += 4) {
    unsigned digit = 0;
    for (std::size_t b = 0; b < 4; ++b) {
      digit = digit << 1U | ((k + b < bits.size() && bits[k + b]) ? 1U : 0U);
    }
    hex += hex_digits[digit];
  }
  return hex;
}

class CompactParser {
 public:
  explicit CompactParser(std::string_view text) : text_(text) {}

  Maze parse() {
    std::vector<std::size_t> separators;
    for (std::size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] != ';') continue;
      if (separators.size() == 4) {
        fail(i, "too many fields: the compact form has 5, WxH;START;TARGETS;EAST;SOUTH");
      }
      separators.push_back(i);
    }
    if (separators.size() < 4) {
      fail(text_.size(),
           "expected 5 fields separated by ';' (WxH;START;TARGETS;EAST;SOUTH), found " +
               std::to_string(separators.size() + 1));
    }
    auto field = [&](std::size_t k) {
      const std::size_t begin = k == 0 ? 0 : separators[k - 1] + 1;
      const std::size_t end = k == 4 ? text_.size() : separators[k];
      return std::pair{begin, end};
    };

    Maze maze;
    auto [size_begin, size_end] = field(0);
    std::size_t at = size_begin;
    maze.width = number(at, size_end, "the width");
    if (maze.width < 1 || maze.width > max_side) {
      fail(size_begin, "width " + std::to_string(maze.width) + " outside 1..64");
    }
    if (at == size_end || text_[at] != 'x') expected(at, "'x' between width and height");
    const std::size_t height_begin = ++at;
    maze.height = number(at, size_end, "the height");
    if (maze.height < 1 || maze.height > max_side) {
      fail(height_begin, "height " + std::to_string(maze.height) + " outside 1..64");
    }
    if (at != size_end) expected(at, "';' after the size");
    const int cells = maze.cells();

    auto [start_begin, start_end] = field(1);
    at = start_begin;
    maze.start = number(at, start_end, "the start cell");
    if (maze.start >= cells) {
      fail(start_begin,
           "start cell " + std::to_string(maze.start) + " outside 0.." + std::to_string(cells - 1));
    }
    if (at != start_end) expected(at, "';' after the start cell");

    auto [targets_begin, targets_end] = field(2);
    at = targets_begin;
    while (at < targets_end) {
      const std::size_t target_begin = at;
      const int target = number(at, targets_end, "a target cell");
      if (target >= cells) {
        fail(target_begin,
             "target cell " + std::to_string(target) + " outside 0.." + std::to_string(cells - 1));
      }
      if (!maze.targets.empty() && target <= maze.targets.back()) {
        fail(target_begin, "targets must be strictly ascending: " + std::to_string(target) +
                               " after " + std::to_string(maze.targets.back()));
      }
      if (maze.targets.size() == to_index(max_targets)) fail(target_begin, "more than 64 targets");
      maze.targets.push_back(target);
      if (at == targets_end) break;
      if (text_[at] != ',') expected(at, "',' between targets");
      ++at;
      if (at == targets_end) expected(at, "a target cell after ','");
    }

    auto [east_begin, east_end] = field(3);
    maze.east = walls(east_begin, east_end, maze.width, maze.height, true);
    auto [south_begin, south_end] = field(4);
    maze.south = walls(south_begin, south_end, maze.width, maze.height, false);
    return maze;
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw MazeFormatError("<compact>", 1, static_cast<int>(offset) + 1, message);
  }

  [[noreturn]] void expected(std::size_t offset, const std::string& what) const {
    fail(offset, "expected " + what +
                     (offset < text_.size() ? ", found " + describe(text_[offset])
                                            : std::string(", found the end")));
  }

  // A decimal number without sign or leading zeros, read from `at` (advanced past it).
  int number(std::size_t& at, std::size_t end, const std::string& what) const {
    const std::size_t begin = at;
    if (at == end || text_[at] < '0' || text_[at] > '9') expected(at, what);
    int value = 0;
    while (at < end && text_[at] >= '0' && text_[at] <= '9') {
      if (at > begin && value == 0) fail(begin, what + " has a leading zero");
      if (value > 100000) fail(begin, what + " is far too large");
      value = value * 10 + (text_[at] - '0');
      ++at;
    }
    return value;
  }

  [[nodiscard]] std::vector<std::uint8_t> walls(std::size_t begin, std::size_t end, int width,
                                                int height, bool east) const {
    const int rows = east ? height : height - 1;
    const int columns = east ? width - 1 : width;
    const std::size_t bits = to_index(rows * columns);
    const std::size_t digits = (bits + 3) / 4;
    const std::string name = east ? "east" : "south";
    std::vector<std::uint8_t> result(to_index(width * height), 0);
    for (std::size_t d = 0; d < digits; ++d) {
      const std::size_t at = begin + d;
      if (at >= end) {
        fail(at, "the " + name + " walls need " + std::to_string(digits) + " hex digits (" +
                     std::to_string(bits) + " walls), found " + std::to_string(end - begin));
      }
      const std::size_t value = hex_digits.find(text_[at]);
      if (value == std::string_view::npos) {
        fail(at, "invalid character " + describe(text_[at]) + " in the " + name +
                     " walls: expected a lower-case hex digit");
      }
      for (std::size_t b = 0; b < 4; ++b) {
        if (((value >> (3 - b)) & 1U) == 0) continue;
        const std::size_t k = d * 4 + b;
        if (k >= bits) {
          fail(at, "padding bits set in the last digit of the " + name + " walls (" +
                       std::to_string(bits) + " walls): they must be 0");
        }
        const int row = static_cast<int>(k) / columns;
        const int column = static_cast<int>(k) % columns;
        result[to_index(row * width + column)] = 1;
      }
    }
    if (begin + digits < end) {
      fail(begin + digits, "the " + name + " walls have " + std::to_string(end - begin) +
                               " hex digits, " + std::to_string(digits) + " expected (" +
                               std::to_string(bits) + " walls)");
    }
    return result;
  }

  std::string_view text_;
};

}  // namespace

Maze parse_maze(std::string_view text, std::string_view source) {
  return TextParser(text, source).parse();
}

std::string format_maze(const Maze& maze) {
  check_maze(maze, false);
  const int w = maze.width;
  const int h = maze.height;
  std::vector<char> cell_chars(to_index(maze.cells()), ' ');
  cell_chars[to_index(maze.start)] = 'S';
  for (int target : maze.targets) cell_chars[to_index(target)] = 'T';
  std::string text;
  text.reserve(to_index((2 * h + 1) * (2 * w + 2)));
  for (int row = 0; row <= h; ++row) {
    // The wall line above `row` (the bottom border when row == h).
    text += '+';
    for (int column = 0; column < w; ++column) {
      const bool wall = row == 0 || row == h || maze.south[to_index((row - 1) * w + column)] != 0;
      text += wall ? '-' : ' ';
      text += '+';
    }
    text += '\n';
    if (row == h) break;
    text += '|';
    for (int column = 0; column < w; ++column) {
      const int cell = row * w + column;
      text += cell_chars[to_index(cell)];
      text += column == w - 1 || maze.east[to_index(cell)] != 0 ? '|' : ' ';
    }
    text += '\n';
  }
  return text;
}

std::string to_compact(const Maze& maze) {
  check_maze(maze, true);
  std::vector<int> targets = maze.targets;
  std::sort(targets.begin(), targets.end());
  std::string text = std::to_string(maze.width) + "x" + std::to_string(maze.height) + ";" +
                     std::to_string(maze.start) + ";";
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(targets[i]);
  }
  text += ';';
  text += to_hex(maze.east, maze.width, maze.height, true);
  text += ';';
  text += to_hex(maze.south, maze.width, maze.height, false);
  return text;
}

Maze from_compact(std::string_view compact) { return CompactParser(compact).parse(); }

Maze read_maze_file(std::string_view original, const std::string& source) {
  // As editors write it: a byte-order mark, old Mac line ends.
  const std::string plain = with_plain_line_ends(original);
  const std::string_view text = plain;
  // The first line that is not a comment decides the form: a compact string starts with
  // its width, a drawing with the corner '+'.
  int line_number = 0;
  std::size_t begin = 0;
  std::string_view first;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_number;
    begin = end + 1;
    if (line.empty() || line.front() != '#') {
      first = line;
      break;
    }
  }
  if (first.empty() || first.front() < '0' || first.front() > '9') return parse_maze(text, source);

  const int compact_line = line_number;
  for (int number = line_number + 1; begin < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    begin = end + 1;
    // Comments and empty lines may follow; anything else is a second maze line.
    if (line.empty() || line.front() == '#') continue;
    throw MazeFormatError(source, number, 1,
                          "a second line after the compact maze on line " +
                              std::to_string(compact_line) +
                              ": a compact maze file holds one line besides comments");
  }
  try {
    return from_compact(first);
  } catch (const MazeFormatError& error) {
    throw MazeFormatError(source, compact_line, error.column(), error.message());
  }
}

}  // namespace levelforge::tiltmaze
