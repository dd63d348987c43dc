#include "kernels/matchstick/equation.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <utility>

#include "kernels/api/index.hpp"
#include "kernels/api/text.hpp"

namespace levelforge::matchstick {

PuzzleError::PuzzleError(const std::string& source, int column, const std::string& message)
    : PuzzleInputError(source + ":" + std::to_string(column) + ": " + message), column_(column) {}

namespace {

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
bool is_symbol(char ch) { return is_digit(ch) || ch == '+' || ch == '-' || ch == '='; }

// A character as an error message shows it.
std::string describe(char ch) { return ch == ' ' ? "' ' (a space)" : describe_char(ch); }

class EquationParser {
 public:
  EquationParser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Layout parse() {
    layout_.form.a_digits = number("the first operand");
    if (end()) fail("missing the operator '+' or '-'");
    if (peek() == '=') fail("missing the operator '+' or '-' before '='");
    if (peek() != '+' && peek() != '-') unexpected("expected '+' or '-'");
    layout_.cells.push_back(peek() == '+' ? plus_pattern : minus_pattern);
    ++next_;
    layout_.form.b_digits = number("the second operand");
    if (end()) fail("missing '=' and the result");
    if (peek() != '=') unexpected("expected '=' after the second operand");
    ++next_;
    layout_.form.c_digits = number("the result");
    if (!end()) {
      if (peek() == '=') fail("a second '='");
      unexpected("expected the end of the equation after the result");
    }
    return std::move(layout_);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw PuzzleError(source_, static_cast<int>(next_) + 1, message);
  }
  // A character that does not belong where it stands: unknown ones say so first.
  [[noreturn]] void unexpected(const std::string& expectation) const {
    if (!is_symbol(peek())) fail("unknown symbol " + describe(peek()));
    fail(expectation + ", found " + describe(peek()));
  }
  [[nodiscard]] bool end() const { return next_ == text_.size(); }
  [[nodiscard]] char peek() const { return text_[next_]; }

  // The digits of one number, appended as patterns; returns how many.
  int number(const std::string& name) {
    const std::size_t begin = next_;
    while (!end() && is_digit(peek())) {
      if (next_ - begin == to_index(max_digits)) {
        fail(name + " has more than " + std::to_string(max_digits) + " digits");
      }
      layout_.cells.push_back(digit_patterns[to_index(peek() - '0')]);
      ++next_;
    }
    if (next_ == begin) {
      if (end()) fail("missing " + name);
      unexpected(name + " is empty");
    }
    return static_cast<int>(next_ - begin);
  }

  std::string_view text_;
  std::string source_;
  std::size_t next_ = 0;
  Layout layout_;
};

int decimal_digits(std::int64_t value) {
  int digits = 1;
  for (std::int64_t power = 10; value >= power && digits <= max_digits; power *= 10) ++digits;
  return digits;
}

char segment_name(const Layout& layout, int position, int segment) {
  if (position == layout.form.operator_position()) return segment == 0 ? 'h' : 'v';
  return static_cast<char>('a' + segment);
}

}  // namespace

Layout parse_equation(std::string_view text, std::string_view source) {
  return EquationParser(text, source).parse();
}

namespace {

// What every reader of a layout needs: the numbers' sizes and one cell per position.
void check_shape(const Layout& layout) {
  const Form& form = layout.form;
  for (const int digits : {form.a_digits, form.b_digits, form.c_digits}) {
    if (digits < 1 || digits > max_digits) {
      throw std::invalid_argument("matchstick layout: a number of " + std::to_string(digits) +
                                  " digits, outside 1.." + std::to_string(max_digits));
    }
  }
  if (layout.cells.size() != to_index(form.positions())) {
    throw std::invalid_argument("matchstick layout: " + std::to_string(layout.cells.size()) +
                                " cells for " + std::to_string(form.positions()) + " positions");
  }
}

}  // namespace

void check_layout(const Layout& layout) {
  check_shape(layout);
  const Form& form = layout.form;
  for (int position = 0; position < form.positions(); ++position) {
    const int places = position == form.operator_position() ? operator_segments : digit_segments;
    if ((layout.cells[to_index(position)] >> places) != 0) {
      throw std::invalid_argument("matchstick layout: position " + std::to_string(position) +
                                  " has a stick outside its " + std::to_string(places) + " places");
    }
  }
}

void check_rules(const Rules& rules) {
  if (rules.moves < 1 || rules.moves > max_moves) {
    throw std::invalid_argument("matchstick rules: moves " + std::to_string(rules.moves) +
                                ", outside 1.." + std::to_string(max_moves));
  }
}

std::string to_string(const Layout& layout) {
  check_shape(layout);
  return std::string(equation_text(layout.form, layout.cells).view());
}

void throw_too_long(std::size_t limit) {
  throw std::length_error("matchstick text: more than " + std::to_string(limit) + " characters");
}

EquationText equation_text(const Form& form, std::span<const Pattern> cells) {
  // The symbol of a digit position's pattern; sweeps write one text per solution.
  static constexpr std::array<char, 256> digit_symbols = [] {
    std::array<char, 256> table{};
    table.fill('?');
    for (std::size_t d = 0; d < digit_patterns.size(); ++d)
      table[digit_patterns[d]] = static_cast<char>('0' + d);
    return table;
  }();
  EquationText text;
  const auto digits = [&](int first, int count) {
    for (int position = first; position < first + count; ++position)
      text.push_back(digit_symbols[cells[to_index(position)]]);
  };
  digits(0, form.a_digits);
  const Pattern op = cells[to_index(form.operator_position())];
  text.push_back(op == plus_pattern ? '+' : op == minus_pattern ? '-' : '?');
  digits(form.first_position(1), form.b_digits);
  text.push_back('=');
  digits(form.first_position(2), form.c_digits);
  return text;
}

int sticks(const Layout& layout) {
  check_layout(layout);
  int count = 0;
  for (const Pattern pattern : layout.cells) count += std::popcount(pattern);
  return count;
}

bool is_true(const Layout& layout, LeadingZeros leading_zeros) {
  check_shape(layout);
  const Form& form = layout.form;
  const Pattern op = layout.cells[to_index(form.operator_position())];
  if (op != plus_pattern && op != minus_pattern) return false;
  std::array<std::int64_t, 3> values = {};
  for (int number = 0; number < 3; ++number) {
    const int first = form.first_position(number);
    const int digits = form.digits(number);
    if (leading_zeros == LeadingZeros::forbid && digits > 1 &&
        layout.cells[to_index(first)] == digit_patterns[0]) {
      return false;
    }
    for (int position = first; position < first + digits; ++position) {
      const int digit = digit_of(layout.cells[to_index(position)]);
      if (digit < 0) return false;
      values[to_index(number)] = 10 * values[to_index(number)] + digit;
    }
  }
  return (op == plus_pattern ? values[0] + values[1] : values[0] - values[1]) == values[2];
}

void layout_of(std::int64_t a, char op, std::int64_t b, std::int64_t c, Layout& layout) {
  if (op != '+' && op != '-') {
    throw std::invalid_argument(std::string("matchstick layout: operator '") + op +
                                "', expected '+' or '-'");
  }
  const std::array<std::int64_t, 3> numbers = {a, b, c};
  std::array<int, 3> digits = {};
  for (int n = 0; n < 3; ++n) {
    if (numbers[to_index(n)] < 0) {
      throw std::invalid_argument("matchstick layout: negative number " +
                                  std::to_string(numbers[to_index(n)]));
    }
    digits[to_index(n)] = decimal_digits(numbers[to_index(n)]);
    if (digits[to_index(n)] > max_digits) {
      throw std::invalid_argument("matchstick layout: " + std::to_string(numbers[to_index(n)]) +
                                  " has more than " + std::to_string(max_digits) + " digits");
    }
  }
  layout.form = Form{digits[0], digits[1], digits[2]};
  layout.cells.resize(to_index(layout.form.positions()));
  int end = 0;  // one past the number's last position
  for (int n = 0; n < 3; ++n) {
    end += digits[to_index(n)];
    auto rest = static_cast<std::uint32_t>(numbers[to_index(n)]);  // below 10^max_digits
    for (int position = end - 1; position >= end - digits[to_index(n)]; --position, rest /= 10) {
      layout.cells[to_index(position)] = digit_patterns[rest % 10];
    }
    if (n == 0) layout.cells[to_index(end++)] = op == '+' ? plus_pattern : minus_pattern;
  }
}

Layout layout_of(std::int64_t a, char op, std::int64_t b, std::int64_t c) {
  Layout layout;
  layout_of(a, op, b, c, layout);
  return layout;
}

std::string moved_sticks(const Layout& puzzle, const Layout& after) {
  check_layout(puzzle);
  check_layout(after);
  if (puzzle.form != after.form) {
    throw std::invalid_argument("moved_sticks: the layouts have different forms");
  }
  return std::string(moved_sticks(puzzle, after.cells).view());
}

MovedText moved_sticks(const Layout& puzzle, std::span<const Pattern> after) {
  // Places as (position, segment), in the order the loop meets them: a sweep names every
  // solution's moves, so no string per place.
  struct Place {  // no constructor: the arrays below are not zeroed
    int position;
    int segment;
  };
  constexpr auto places = static_cast<std::size_t>(max_positions) * digit_segments;
  std::array<Place, places> sources;  // filled up to the counts below
  std::array<Place, places> destinations;
  std::size_t source_count = 0;
  std::size_t destination_count = 0;
  for (int position = 0; position < puzzle.form.positions(); ++position) {
    const Pattern before = puzzle.cells[to_index(position)];
    const Pattern now = after[to_index(position)];
    if (before == now) continue;
    // Segments ascending: the lowest set bit first.
    for (unsigned taken = before & ~now & 0x7FU; taken != 0; taken &= taken - 1)
      sources[source_count++] = {position, std::countr_zero(taken)};
    for (unsigned placed = now & ~before & 0x7FU; placed != 0; placed &= placed - 1)
      destinations[destination_count++] = {position, std::countr_zero(placed)};
  }
  if (source_count != destination_count) {
    throw std::invalid_argument("moved_sticks: the layouts have different numbers of sticks");
  }
  static_assert(max_positions < 100);  // a place is at most "PP.S"
  MovedText moved;
  const auto append = [&](const Place& place) {
    const auto [position, segment] = place;
    if (position >= 10) moved.push_back(static_cast<char>('0' + position / 10));
    moved.push_back(static_cast<char>('0' + position % 10));
    moved.push_back('.');
    moved.push_back(segment_name(puzzle, position, segment));
  };
  for (std::size_t i = 0; i < source_count; ++i) {
    if (i > 0) moved.push_back(' ');
    append(sources[i]);
    moved.push_back('>');
    append(destinations[i]);
  }
  return moved;
}

}  // namespace levelforge::matchstick
