#include "kernels/matchstick/drawing.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace levelforge::matchstick {

namespace {

constexpr int digit_width = 4;
constexpr int operator_width = 3;
constexpr int equals_width = 2;
constexpr int digit_gap = 1;   // between the digits of one number
constexpr int symbol_gap = 2;  // around the operator and '='
constexpr int equals_piece = -1;

// The bits of a digit's segments a..g (equation.hpp), and of the operator slot's sticks.
enum Segment { top, top_right, bottom_right, bottom, bottom_left, top_left, middle };
constexpr int operator_horizontal = 0;
constexpr int operator_vertical = 1;

using Rows = std::array<std::string, drawing_lines>;

bool lit(Pattern pattern, int segment) {
  return ((static_cast<unsigned>(pattern) >> segment) & 1U) != 0;
}

Rows digit_rows(Pattern pattern) {
  const auto horizontal = [&](int segment) {
    return std::string(lit(pattern, segment) ? " -- " : "    ");
  };
  const auto verticals = [&](int left, int right) {
    std::string row(digit_width, ' ');
    if (lit(pattern, left)) row.front() = '|';
    if (lit(pattern, right)) row.back() = '|';
    return row;
  };
  return {horizontal(top), verticals(top_left, top_right), horizontal(middle),
          verticals(bottom_left, bottom_right), horizontal(bottom)};
}

Rows operator_rows(Pattern pattern) {
  const bool horizontal = lit(pattern, operator_horizontal);
  const bool vertical = lit(pattern, operator_vertical);
  const std::string upright = vertical ? " | " : "   ";
  std::string middle = horizontal ? "---" : upright;
  if (horizontal && vertical) middle[1] = '+';
  return {"   ", upright, middle, upright, "   "};
}

Rows equals_rows() { return {"  ", "--", "  ", "--", "  "}; }

// One symbol of the drawing: a position of the layout or the fixed '=', where it starts.
struct Piece {
  int position = equals_piece;
  int column = 0;
};

// The pieces of `form` left to right, and the width of the whole drawing.
struct Placement {
  std::vector<Piece> pieces;
  int width = 0;
};

Placement place(const Form& form) {
  Placement placement;
  int column = 0;
  const auto add = [&](int position, int width, int gap) {
    if (!placement.pieces.empty()) column += gap;
    placement.pieces.push_back({position, column});
    column += width;
  };
  int position = 0;
  const auto add_number = [&](int digits) {
    for (int i = 0; i < digits; ++i) add(position++, digit_width, i == 0 ? symbol_gap : digit_gap);
  };
  add_number(form.a_digits);
  add(position++, operator_width, symbol_gap);
  add_number(form.b_digits);
  add(equals_piece, equals_width, symbol_gap);
  add_number(form.c_digits);
  placement.width = column;
  return placement;
}

void trim_right(std::string& line) {
  const std::size_t end = line.find_last_not_of(' ');
  line.erase(end == std::string::npos ? 0 : end + 1);
}

}  // namespace

std::string draw(const Layout& layout) {
  const Form& form = layout.form;
  if (layout.cells.size() != static_cast<std::size_t>(form.positions())) {
    throw std::invalid_argument("draw: the layout has " + std::to_string(layout.cells.size()) +
                                " cells, its form " + std::to_string(form.positions()) +
                                " positions");
  }
  const Placement placement = place(form);
  Rows lines;
  lines.fill(std::string(static_cast<std::size_t>(placement.width), ' '));
  for (const Piece& piece : placement.pieces) {
    Rows rows;
    if (piece.position == equals_piece) {
      rows = equals_rows();
    } else {
      const Pattern pattern = layout.cells[static_cast<std::size_t>(piece.position)];
      rows =
          piece.position == form.operator_position() ? operator_rows(pattern) : digit_rows(pattern);
    }
    for (std::size_t line = 0; line < lines.size(); ++line)
      lines[line].replace(static_cast<std::size_t>(piece.column), rows[line].size(), rows[line]);
  }
  std::string art;
  for (std::string& line : lines) {
    trim_right(line);
    art += line;
    art += '\n';
  }
  return art;
}

std::string draw_positions(const Form& form) {
  const Placement placement = place(form);
  // A number starts one column into its cell, under a digit's bar or the operator's stick;
  // two digits still end inside the cell.
  std::string line(static_cast<std::size_t>(placement.width), ' ');
  for (const Piece& piece : placement.pieces) {
    if (piece.position == equals_piece) continue;
    const std::string number = std::to_string(piece.position);
    line.replace(static_cast<std::size_t>(piece.column) + 1, number.size(), number);
  }
  trim_right(line);
  return line + '\n';
}

}  // namespace levelforge::matchstick
