// The tilt maze's plain-text and compact forms (docs/tiltmaze.md, "Maze text format"):
// parsing the documented example, round trips on random mazes, and every parse error
// with its exact line and column.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/index.hpp"
#include "kernels/tiltmaze/maze.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "tests/error_message.hpp"

namespace {

using levelforge::to_index;
using levelforge::testing::error_message;
using levelforge::tiltmaze::format_maze;
using levelforge::tiltmaze::from_compact;
using levelforge::tiltmaze::Maze;
using levelforge::tiltmaze::MazeFormatError;
using levelforge::tiltmaze::open_maze;
using levelforge::tiltmaze::parse_maze;
using levelforge::tiltmaze::to_compact;

using Lines = std::vector<std::string>;

const Lines example_lines = {
    "+-+-+-+",  //
    "|S  |T|",  //
    "+ +-+ +",  //
    "|  T  |",  //
    "+-+-+-+",  //
};

std::string join(const Lines& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The example with line `number` (1-based) replaced.
std::string example_with(std::size_t number, const std::string& line) {
  Lines lines = example_lines;
  lines.at(number - 1) = line;
  return join(lines);
}

Maze example_maze() {
  Maze maze = open_maze(3, 2);
  maze.east = {0, 1, 0, 0, 0, 0};
  maze.south = {0, 1, 0, 0, 0, 0};
  maze.start = 0;
  maze.targets = {2, 4};
  return maze;
}

// A random maze: the walls the model uses random, the ignored entries 0, sorted targets
// that avoid the start.
Maze random_maze(std::mt19937& rng, int width, int height) {
  Maze maze = open_maze(width, height);
  std::bernoulli_distribution wall(0.4);
  for (int row = 0; row < height; ++row) {
    for (int column = 0; column < width; ++column) {
      const int cell = row * width + column;
      if (column < width - 1) maze.east[to_index(cell)] = wall(rng) ? 1 : 0;
      if (row < height - 1) maze.south[to_index(cell)] = wall(rng) ? 1 : 0;
    }
  }
  const int cells = maze.cells();
  maze.start = std::uniform_int_distribution<int>(0, cells - 1)(rng);
  std::vector<int> others;
  for (int cell = 0; cell < cells; ++cell) {
    if (cell != maze.start) others.push_back(cell);
  }
  std::shuffle(others.begin(), others.end(), rng);
  const int count = std::uniform_int_distribution<int>(
      0, std::min(levelforge::tiltmaze::max_targets, cells - 1))(rng);
  maze.targets.assign(others.begin(), others.begin() + count);
  std::sort(maze.targets.begin(), maze.targets.end());
  return maze;
}

struct Position {
  int line;
  int column;
};

// Parses `text`, expects a MazeFormatError at `where` whose message contains `words`.
void expect_text_error(const std::string& text, Position where, std::string_view words) {
  SCOPED_TRACE(text);
  try {
    parse_maze(text);
    ADD_FAILURE() << "parsed without an error";
  } catch (const MazeFormatError& error) {
    EXPECT_EQ(error.source(), "<maze>");
    EXPECT_EQ(error.line(), where.line);
    EXPECT_EQ(error.column(), where.column);
    const std::string prefix =
        "<maze>:" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": ";
    EXPECT_EQ(std::string(error.what()).substr(0, prefix.size()), prefix) << error.what();
    EXPECT_NE(error.message().find(words), std::string::npos) << error.what();
  }
}

void expect_compact_error(const std::string& compact, int column, std::string_view words) {
  SCOPED_TRACE(compact);
  try {
    from_compact(compact);
    ADD_FAILURE() << "parsed without an error";
  } catch (const MazeFormatError& error) {
    EXPECT_EQ(error.source(), "<compact>");
    EXPECT_EQ(error.line(), 1);
    EXPECT_EQ(error.column(), column) << error.what();
    const std::string prefix = "<compact>:1:" + std::to_string(column) + ": ";
    EXPECT_EQ(std::string(error.what()).substr(0, prefix.size()), prefix) << error.what();
    EXPECT_NE(error.message().find(words), std::string::npos) << error.what();
  }
}

// --- the example and round trips -------------------------------------------------------

TEST(MazeText, ParsesTheDocumentedExample) {
  const Maze maze = parse_maze(join(example_lines));
  EXPECT_EQ(maze.width, 3);
  EXPECT_EQ(maze.height, 2);
  EXPECT_EQ(maze.east, (std::vector<std::uint8_t>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(maze.south, (std::vector<std::uint8_t>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(maze.start, 0);
  EXPECT_EQ(maze.targets, (std::vector<int>{2, 4}));
  EXPECT_EQ(maze, example_maze());
}

TEST(MazeText, FormatsTheDocumentedExample) {
  EXPECT_EQ(format_maze(example_maze()), join(example_lines));
}

TEST(MazeText, CompactFormOfTheExample) {
  // East walls used: (0,0) (0,1) (1,0) (1,1) -> 0100 = "4"; south: (0,0) (0,1) (0,2) ->
  // 010 + one padding bit = "4".
  EXPECT_EQ(to_compact(example_maze()), "3x2;0;2,4;4;4");
  EXPECT_EQ(from_compact("3x2;0;2,4;4;4"), example_maze());
}

TEST(MazeText, SmallestMaze) {
  const Maze maze = parse_maze("+-+\n|S|\n+-+\n");
  EXPECT_EQ(maze, open_maze(1, 1));
  EXPECT_EQ(format_maze(maze), "+-+\n|S|\n+-+\n");
  EXPECT_EQ(to_compact(maze), "1x1;0;;;");
  EXPECT_EQ(from_compact("1x1;0;;;"), maze);
}

TEST(MazeText, RandomMazesRoundTrip) {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> side(1, 12);
  for (int i = 0; i < 500; ++i) {
    const int width = side(rng);
    const int height = side(rng);
    const Maze maze = random_maze(rng, width, height);
    SCOPED_TRACE("maze " + std::to_string(i) + ": " + to_compact(maze));
    const std::string text = format_maze(maze);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2 * height + 1);
    EXPECT_EQ(text.find('\n'), to_index(2 * width + 1));
    EXPECT_EQ(parse_maze(text), maze);
    EXPECT_EQ(from_compact(to_compact(maze)), maze);
    EXPECT_EQ(to_compact(parse_maze(text)), to_compact(maze));
  }
}

TEST(MazeText, RoundTripsSortTargets) {
  Maze maze = example_maze();
  maze.targets = {4, 2};
  EXPECT_EQ(parse_maze(format_maze(maze)), example_maze());
  EXPECT_EQ(from_compact(to_compact(maze)), example_maze());
}

TEST(MazeText, LargestMazeParses) {
  std::mt19937 rng(7);
  Maze maze = random_maze(rng, 64, 64);
  while (maze.targets.size() < 64) {
    // Fill up to the maximum so that 64 targets parse as well.
    const int cell = std::uniform_int_distribution<int>(0, maze.cells() - 1)(rng);
    if (cell != maze.start &&
        std::find(maze.targets.begin(), maze.targets.end(), cell) == maze.targets.end()) {
      maze.targets.push_back(cell);
    }
  }
  std::sort(maze.targets.begin(), maze.targets.end());
  const std::string text = format_maze(maze);
  EXPECT_EQ(text.find('\n'), to_index(129));
  const Maze parsed = parse_maze(text);
  EXPECT_EQ(parsed.width, 64);
  EXPECT_EQ(parsed.height, 64);
  EXPECT_EQ(parsed.targets.size(), to_index(64));
  EXPECT_EQ(parsed, maze);
  EXPECT_EQ(from_compact(to_compact(maze)), maze);
}

TEST(MazeText, CommentsAreSkipped) {
  const std::string text =
      "# a 3 x 2 maze\n"
      "+-+-+-+\n"
      "|S  |T|\n"
      "# comments may sit between maze lines\n"
      "#\n"
      "+ +-+ +\n"
      "|  T  |\n"
      "+-+-+-+\n"
      "# and after it\n";
  EXPECT_EQ(parse_maze(text), example_maze());
}

TEST(MazeText, LineEndingsAndTrailingBlankLines) {
  Lines crlf = example_lines;
  for (std::string& line : crlf) line += '\r';
  EXPECT_EQ(parse_maze(join(crlf)), example_maze());
  std::string no_final_newline = join(example_lines);
  no_final_newline.pop_back();
  EXPECT_EQ(parse_maze(no_final_newline), example_maze());
  EXPECT_EQ(parse_maze(join(example_lines) + "\n\n# end\n\n"), example_maze());
}

// Missing trailing spaces are padded back; since every maze line ends at the closed
// border ('+' or '|'), a line that lacks characters is then reported as short, at the
// column after its last character.
TEST(MazeText, ShortLinesArePaddedAndReportedAtTheirEnd) {
  expect_text_error(example_with(2, "|S  |T"), {2, 7}, "line too short: 6 characters");
  expect_text_error(example_with(2, "|S"), {2, 3}, "line too short: 2 characters");
  expect_text_error(example_with(3, "+ +-+"), {3, 6}, "line too short");
  expect_text_error(example_with(4, ""), {4, 1}, "line too short: 0 characters");
  // A character error before the line's end comes first.
  expect_text_error(example_with(2, "|Sx"), {2, 3}, "invalid character 'x' at a vertical");
}

TEST(MazeText, ErrorsNameTheSource) {
  const std::string message = error_message<MazeFormatError>(
      [] { parse_maze(example_with(3, "+ +-- +"), "levels/first.maze"); });
  EXPECT_EQ(message, "levels/first.maze:3:5: expected '+' at a corner, found '-'");
}

// --- every text error, with its line and column --------------------------------------

TEST(MazeTextErrors, EmptyInput) {
  expect_text_error("", {1, 1}, "empty maze");
  expect_text_error("# only a comment\n", {1, 1}, "empty maze");
  expect_text_error("\n\n", {1, 1}, "empty maze");
}

TEST(MazeTextErrors, FirstLineSetsAnOddWidthOfAtLeastThree) {
  expect_text_error("+-+-\n|S  |\n+-+-\n", {1, 4}, "even length (4 characters)");
  expect_text_error("# c\n+\n", {2, 2}, "first maze line too short (1 characters)");
  expect_text_error("\n+-+\n|S|\n+-+\n", {1, 1}, "first maze line too short (0 characters)");
}

TEST(MazeTextErrors, LineLongerThanTheFirst) {
  expect_text_error(example_with(2, "|S  |T||"), {2, 8}, "line too long: 8 characters");
  expect_text_error(example_with(3, "+ +-+ +-+"), {3, 8}, "line too long: 9 characters");
  // Trailing spaces beyond the width count too.
  expect_text_error(example_with(4, "|  T  |  "), {4, 8}, "line too long");
}

TEST(MazeTextErrors, LineCount) {
  expect_text_error("+-+-+-+\n", {1, 1}, "only 1 maze line");
  expect_text_error("+-+\n|S|\n", {2, 1}, "even number of lines (2)");
  expect_text_error("+-+-+-+\n|S  |T|\n+ +-+ +\n|  T  |\n", {4, 1}, "even number of lines (4)");
  // Line numbers count comments.
  expect_text_error("#\n+-+-+-+\n|S  |T|\n+ +-+ +\n|  T  |\n# x\n", {5, 1}, "even number");
}

TEST(MazeTextErrors, CornerMustBePlus) {
  expect_text_error(example_with(3, "+ +-- +"), {3, 5}, "expected '+' at a corner, found '-'");
  expect_text_error(example_with(1, "--+-+-+"), {1, 1}, "expected '+' at a corner");
  expect_text_error(example_with(5, "+-+-+-|"), {5, 7}, "expected '+' at a corner, found '|'");
}

TEST(MazeTextErrors, InvalidWallCharacter) {
  expect_text_error(example_with(3, "+ +x+ +"), {3, 4},
                    "invalid character 'x' at a horizontal wall position: expected '-' or ' '");
  expect_text_error(example_with(3, "+|+-+ +"), {3, 2}, "invalid character '|' at a horizontal");
  expect_text_error(example_with(2, "|Sx |T|"), {2, 3},
                    "invalid character 'x' at a vertical wall position: expected '|' or ' '");
  expect_text_error(example_with(4, "| - T |"), {4, 3}, "invalid character '-' at a vertical");
  expect_text_error(example_with(2, "|S\t |T|"), {2, 3}, "invalid character a tab");
}

TEST(MazeTextErrors, InvalidCellCharacter) {
  expect_text_error(example_with(2, "|S  |t|"), {2, 6},
                    "invalid cell character 't': expected ' ', 'S' or 'T'");
  expect_text_error(example_with(4, "|\t  T |"), {4, 2}, "invalid cell character a tab");
  expect_text_error(example_with(4, "|  |  |"), {4, 4}, "invalid cell character '|'");
  expect_text_error(example_with(4, std::string("|  \x01T |")), {4, 4},
                    "invalid cell character byte 0x01");
}

TEST(MazeTextErrors, StartCell) {
  expect_text_error(example_with(2, "|   |T|"), {1, 1}, "no start cell");
  expect_text_error("# no start\n+-+\n| |\n+-+\n", {2, 1}, "no start cell");
  expect_text_error(example_with(4, "|  S  |"), {4, 4},
                    "second start 'S' (the first is at line 2, column 2)");
}

TEST(MazeTextErrors, OpenBorder) {
  expect_text_error(example_with(1, "+-+ +-+"), {1, 4}, "open border: the top border");
  expect_text_error(example_with(2, " S  |T|"), {2, 1}, "open border: the left border");
  expect_text_error(example_with(2, "|S  |T "), {2, 7}, "open border: the right border");
  expect_text_error(example_with(5, "+-+-+ +"), {5, 6}, "open border: the bottom border");
  expect_text_error("+-+\n|S|\n+ +\n", {3, 2}, "open border: the bottom border");
}

TEST(MazeTextErrors, MoreThan64Targets) {
  // 9 x 8: the start in cell 0 and a target in every other cell; the 65th target is
  // cell 65 (row 7, column 2): line 16, column 6.
  Lines lines;
  std::string wall_line = "+";
  for (int i = 0; i < 9; ++i) wall_line += "-+";
  std::string open_line = "+";
  for (int i = 0; i < 9; ++i) open_line += " +";
  std::string target_row = "|";
  for (int i = 0; i < 9; ++i) target_row += i == 8 ? "T|" : "T ";
  std::string first_row = target_row;
  first_row[1] = 'S';
  lines.push_back(wall_line);
  for (int row = 0; row < 8; ++row) {
    lines.push_back(row == 0 ? first_row : target_row);
    lines.push_back(row == 7 ? wall_line : open_line);
  }
  expect_text_error(join(lines), {16, 6}, "more than 64 targets");
  // With 64 targets it parses.
  lines[15][5] = ' ';
  lines[15][7] = ' ';
  lines[15][9] = ' ';
  lines[15][11] = ' ';
  lines[15][13] = ' ';
  lines[15][15] = ' ';
  lines[15][17] = ' ';
  const Maze parsed = parse_maze(join(lines));
  EXPECT_EQ(parsed.width, 9);
  EXPECT_EQ(parsed.height, 8);
  EXPECT_EQ(parsed.targets.size(), to_index(64));
  EXPECT_EQ(parsed.targets.front(), 1);
  EXPECT_EQ(parsed.targets.back(), 64);
}

TEST(MazeTextErrors, SizeOver64) {
  // 65 cells across: the first line has 131 characters; column 130 is beyond 129.
  std::string wide = "+";
  for (int i = 0; i < 65; ++i) wide += "-+";
  expect_text_error(wide + "\n", {1, 130}, "maze too wide: 65 cells across, at most 64");
  // 65 rows: the 130th maze line is one too many.
  Lines tall = {"+-+"};
  for (int row = 0; row < 65; ++row) {
    tall.push_back(row == 0 ? "|S|" : "| |");
    tall.push_back(row == 64 ? "+-+" : "+ +");
  }
  expect_text_error(join(tall), {130, 1}, "maze too tall: more than 64 rows");
  tall.resize(129);
  tall.back() = "+-+";
  EXPECT_EQ(parse_maze(join(tall)).height, 64);
}

// --- the compact form's errors -----------------------------------------------------------

TEST(MazeCompactErrors, Fields) {
  expect_compact_error("", 1, "expected 5 fields separated by ';'");
  expect_compact_error("3x2;0;2,4;4", 12, "expected 5 fields separated by ';'");
  expect_compact_error("3x2;0;2,4;4;4;", 14, "too many fields");
}

TEST(MazeCompactErrors, Size) {
  expect_compact_error("0x2;0;;0;0", 1, "width 0 outside 1..64");
  expect_compact_error("65x1;0;;;", 1, "width 65 outside 1..64");
  expect_compact_error("3X2;0;2,4;4;4", 2, "expected 'x' between width and height, found 'X'");
  expect_compact_error("3x65;0;;0;0", 3, "height 65 outside 1..64");
  expect_compact_error("03x2;0;2,4;4;4", 1, "the width has a leading zero");
  expect_compact_error("x2;0;2,4;4;4", 1, "expected the width");
  expect_compact_error("3x;0;2,4;4;4", 3, "expected the height, found ';'");
  expect_compact_error("3x2 ;0;2,4;4;4", 4, "expected ';' after the size");
  expect_compact_error("99999999999x2;0;;;", 1, "far too large");
}

TEST(MazeCompactErrors, StartAndTargets) {
  expect_compact_error("3x2;6;2,4;4;4", 5, "start cell 6 outside 0..5");
  expect_compact_error("3x2;;2,4;4;4", 5, "expected the start cell");
  expect_compact_error("3x2;-1;2,4;4;4", 5, "expected the start cell, found '-'");
  expect_compact_error("3x2;0;4,2;4;4", 9, "strictly ascending: 2 after 4");
  expect_compact_error("3x2;0;2,2;4;4", 9, "strictly ascending: 2 after 2");
  expect_compact_error("3x2;0;2,,4;4;4", 9, "expected a target cell, found ','");
  expect_compact_error("3x2;0;2,;4;4", 9, "expected a target cell after ','");
  expect_compact_error("3x2;0;2 4;4;4", 8, "expected ',' between targets, found ' '");
  expect_compact_error("3x2;0;2,6;4;4", 9, "target cell 6 outside 0..5");
  // 9 x 8 with targets 1..65: the 65th target, "65", starts at offset 189.
  std::string many = "9x8;0;";
  for (int target = 1; target <= 65; ++target) {
    if (target > 1) many += ',';
    many += std::to_string(target);
  }
  const std::size_t offset = many.find(",65") + 1;
  expect_compact_error(many + ";" + std::string(16, '0') + ";" + std::string(16, '0'),
                       static_cast<int>(offset) + 1, "more than 64 targets");
  EXPECT_EQ(offset, to_index(189));
}

TEST(MazeCompactErrors, Walls) {
  expect_compact_error("3x2;0;2,4;;4", 11, "the east walls need 1 hex digits (4 walls), found 0");
  expect_compact_error("3x2;0;2,4;44;4", 12, "the east walls have 2 hex digits, 1 expected");
  expect_compact_error("3x2;0;2,4;A;4", 11, "invalid character 'A' in the east walls");
  expect_compact_error("3x2;0;2,4;4;g", 13, "invalid character 'g' in the south walls");
  // South: 3 walls in one digit, its last bit padding.
  expect_compact_error("3x2;0;2,4;4;5", 13, "padding bits set in the last digit of the south");
  expect_compact_error("1x1;0;;0;", 8, "the east walls have 1 hex digits, 0 expected");
}

TEST(MazeCompact, StartMayBeATargetThere) {
  Maze maze = example_maze();
  maze.targets = {0, 2, 4};
  EXPECT_EQ(to_compact(maze), "3x2;0;0,2,4;4;4");
  EXPECT_EQ(from_compact(to_compact(maze)), maze);
  EXPECT_THROW(format_maze(maze), std::invalid_argument);
}

TEST(MazeText, InvalidMazesAreNotWritten) {
  auto broken = [](auto change) {
    Maze maze = example_maze();
    change(maze);
    return maze;
  };
  const std::vector<Maze> mazes = {
      broken([](Maze& m) { m.width = 0; }),        broken([](Maze& m) { m.width = 65; }),
      broken([](Maze& m) { m.east.pop_back(); }),  broken([](Maze& m) { m.south.push_back(0); }),
      broken([](Maze& m) { m.start = 6; }),        broken([](Maze& m) { m.start = -1; }),
      broken([](Maze& m) { m.targets = {2, 2}; }), broken([](Maze& m) { m.targets = {6}; }),
      broken([](Maze& m) { m.targets = {-1}; }),
  };
  for (const Maze& maze : mazes) {
    EXPECT_THROW(format_maze(maze), std::invalid_argument);
    EXPECT_THROW(to_compact(maze), std::invalid_argument);
  }
  Maze too_many = open_maze(9, 8);
  too_many.start = 71;
  for (int cell = 0; cell < 65; ++cell) too_many.targets.push_back(cell);
  EXPECT_THROW(format_maze(too_many), std::invalid_argument);
  EXPECT_THROW(to_compact(too_many), std::invalid_argument);
}

}  // namespace

namespace levelforge::tiltmaze {
namespace {

// The longest compact string: 64 x 64, start and 64 targets with 4-digit cells.
TEST(CompactForm, MaxCompactLengthFitsTheLongestMaze) {
  Maze maze = open_maze(max_side, max_side);
  maze.start = 4000;
  for (int t = 0; t < max_targets; ++t) maze.targets.push_back(4032 + t);
  EXPECT_EQ(to_compact(maze).size(), max_compact_length);
  EXPECT_EQ(max_compact_length, 2348U);  // as docs/tiltmaze.md says
}

}  // namespace
}  // namespace levelforge::tiltmaze
