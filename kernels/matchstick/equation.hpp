#pragma once
// Matchstick equations (../shared/seeds/matchstick-equation-dfs.txt): `A op B = C` drawn
// in seven-segment symbols. A layout holds one pattern per position: the digits of A, the
// operator slot, the digits of B, the digits of C ('=' is fixed and never a position).

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/puzzle.hpp"

namespace levelforge::matchstick {

// Segments A..G as bits 0..6 (a top, b top right, c bottom right, d bottom, e bottom left,
// f top left, g middle).
using Pattern = std::uint8_t;
inline constexpr int digit_segments = 7;
inline constexpr std::array<Pattern, 10> digit_patterns = {
    0x3F,  // 0: a b c d e f
    0x06,  // 1: b c
    0x5B,  // 2: a b d e g
    0x4F,  // 3: a b c d g
    0x66,  // 4: b c f g
    0x6D,  // 5: a c d f g
    0x7D,  // 6: a c d e f g
    0x07,  // 7: a b c
    0x7F,  // 8: all seven
    0x6F,  // 9: a b c d f g
};
// The operator slot has two places: bit 0 the horizontal stick, bit 1 the vertical one.
inline constexpr int operator_segments = 2;
inline constexpr Pattern minus_pattern = 0x01;
inline constexpr Pattern plus_pattern = 0x03;

inline constexpr int max_digits = 6;  // per number: every value fits comfortably in int64
inline constexpr int max_positions = 3 * max_digits + 1;

enum class LeadingZeros { allow, forbid };  // forbid: a number of 2+ digits cannot start with 0
enum class Count { up_to, exact };          // solutions at distance 1..k, or exactly k

struct Form {
  int a_digits = 1;
  int b_digits = 1;
  int c_digits = 1;
  [[nodiscard]] int positions() const { return a_digits + 1 + b_digits + c_digits; }
  [[nodiscard]] int operator_position() const { return a_digits; }
  // Number 0, 1, 2 (A, B, C): how many digits it has, where its first one stands.
  [[nodiscard]] int digits(int number) const {
    return number == 0 ? a_digits : number == 1 ? b_digits : c_digits;
  }
  [[nodiscard]] int first_position(int number) const {
    return number == 0 ? 0 : number == 1 ? a_digits + 1 : a_digits + 1 + b_digits;
  }
  friend bool operator==(const Form&, const Form&) = default;
};

struct Layout {
  Form form;
  std::vector<Pattern> cells;  // form.positions() patterns, left to right
  friend bool operator==(const Layout&, const Layout&) = default;
};

// A puzzle string that is not an equation of this model. what() is
// "SOURCE:COLUMN: message" with the 1-based column of the offending character (one past
// the end for a missing part).
class PuzzleError : public PuzzleInputError {
 public:
  PuzzleError(const std::string& source, int column, const std::string& message);
  [[nodiscard]] int column() const { return column_; }

 private:
  int column_;
};

// "6+4=4": digits, one of '+' '-', digits, '=', digits; no spaces. Each number has 1 to
// max_digits digits (leading zeros are kept: "09" is two positions).
Layout parse_equation(std::string_view text, std::string_view source = "<puzzle>");

// The symbol each position shows: '0'-'9', '+', '-', or '?' for a pattern that is none.
std::string to_string(const Layout& layout);

[[noreturn]] void throw_too_long(std::size_t limit);

// Text of at most N characters kept without allocation: the strings a sweep writes for
// every solution.
template <std::size_t N>
class FixedText {
 public:
  void push_back(char c) {
    if (size_ == N) [[unlikely]]
      throw_too_long(N);
    chars_[size_++] = c;
  }
  [[nodiscard]] std::string_view view() const { return {chars_.data(), size_}; }

 private:
  std::array<char, N> chars_;  // not zeroed: the first size_ are written
  std::size_t size_ = 0;
};

// to_string of the layout of `form` whose patterns are `cells`, unchecked.
using EquationText = FixedText<max_positions + 1>;  // the positions and '='
EquationText equation_text(const Form& form, std::span<const Pattern> cells);

namespace detail {
inline constexpr std::array<std::int8_t, 256> digit_of_pattern = [] {
  std::array<std::int8_t, 256> table{};
  table.fill(-1);
  for (std::size_t d = 0; d < digit_patterns.size(); ++d) {
    table[digit_patterns[d]] = static_cast<std::int8_t>(d);
  }
  return table;
}();
}  // namespace detail

// -1 when the pattern is no digit. A table: the searches ask for every layout they reach.
constexpr int digit_of(Pattern pattern) { return detail::digit_of_pattern[pattern]; }

// Number of sticks: set bits over all positions (the operator slot included).
int sticks(const Layout& layout);

// Throws std::invalid_argument unless every number has 1 to max_digits digits, `cells` has
// form.positions() patterns and no cell has a bit outside its places (segments a-g in a
// digit position, h and v in the operator slot). A cell may hold a pattern that is no
// symbol: the solvers then search for layouts that repair it. The solvers, sticks and
// moved_sticks check all of it; to_string and is_true only the first two (a stray stick
// makes no symbol: '?', and a false equation).
void check_layout(const Layout& layout);

// Every position a valid symbol, no forbidden leading zero, and A op B == C.
bool is_true(const Layout& layout, LeadingZeros leading_zeros);

struct Rules {
  int moves = 1;  // k, 1..max_moves
  Count count = Count::up_to;
  LeadingZeros leading_zeros = LeadingZeros::allow;
  friend bool operator==(const Rules&, const Rules&) = default;
};
inline constexpr int max_moves = 3;
// Throws std::invalid_argument for moves outside 1..max_moves (the solvers call it).
void check_rules(const Rules& rules);

// A solution: a true equation (not the puzzle) with the puzzle's stick count whose layout
// differs from the puzzle's by `distance` moves: the places it fills that the puzzle had
// empty (as many as it empties).
struct Solution {
  std::string equation;  // to_string of the layout
  int distance = 0;
  // The sticks moved as "FROM>TO" place pairs joined by ' ', places named POSITION.SEGMENT
  // (position 0-based over the layout, segment a-g, or h/v in the operator slot), sources
  // ascending paired with destinations ascending (by position, then segment): e.g.
  // "0.e>0.b" for 6 -> 9 in the first position, "1.v>3.e" for 9+3=5 -> 9-3=6 (one of the
  // pairings; every pairing gives the same layout).
  std::string moved;
  friend bool operator==(const Solution&, const Solution&) = default;
};

// A layout of the natural form of three numbers (no leading zeros): A op B = C, op '+' or
// '-'. Throws std::invalid_argument for a negative number, one of more than max_digits or
// another operator.
Layout layout_of(std::int64_t a, char op, std::int64_t b, std::int64_t c);
// The same into `layout`, reusing its storage: no allocation once its cells have grown, for
// sweeps that build one puzzle after another.
void layout_of(std::int64_t a, char op, std::int64_t b, std::int64_t c, Layout& layout);

// The document's depth-first search over single stick moves with its move-history stack and
// its check against equations already found (below the first move with cuts that lose no
// solution, see dfs.cpp). Solutions sorted by equation.
std::vector<Solution> solve_dfs(const Layout& puzzle, const Rules& rules);

// A solution as the fast solver finds it: its layout's patterns and its distance.
struct FoundLayout {
  std::array<Pattern, max_positions> cells{};  // the first form.positions() are used
  int distance = 0;
};

// The table-driven solver: per-symbol transitions (sticks removed, added or moved inside a
// symbol) built once for a rule set, combined across the positions of each puzzle. The
// sweeps keep one per kernel and call solve() per puzzle.
class FastSolver {
 public:
  explicit FastSolver(Rules rules);
  // Appends every solution of `puzzle` to `out` (any order); no allocation once `out` has
  // grown. Returns how many it appended.
  std::size_t solve(const Layout& puzzle, std::vector<FoundLayout>& out) const;
  [[nodiscard]] const Rules& rules() const { return rules_; }

 private:
  // One way a digit cell can end: the digit it then shows and the sticks that takes.
  struct Transition {
    Pattern to = 0;
    std::uint8_t digit = 0;
    std::uint8_t removed = 0;  // places it empties
    std::uint8_t added = 0;    // places it fills
  };
  struct Decoded;  // a puzzle as the general search reads it (fast.cpp)

  // k = 1 on a puzzle whose every position shows an allowed symbol; not_whole otherwise.
  static constexpr std::size_t not_whole = ~std::size_t{0};
  std::size_t solve_one_move(const Layout& puzzle, std::vector<FoundLayout>& out) const;
  std::size_t solve_general(const Layout& puzzle, const Decoded& decoded,
                            std::vector<FoundLayout>& out) const;

  Rules rules_;
  // For each 7-bit pattern and whether the cell is a leading digit that may not become 0
  // (key = 2 * pattern + that flag): the digits it can turn into with at most k sticks
  // removed and k added, staying put included when it already is an allowed digit:
  // transitions_[first_[key], first_[key + 1]).
  std::vector<Transition> transitions_;
  std::array<std::uint16_t, 2 * 128 + 1> first_{};
};

// The same solutions as solve_dfs, through FastSolver, sorted by equation.
std::vector<Solution> solve_fast(const Layout& puzzle, const Rules& rules);

// `moved` of a Solution for the layout `after` of `puzzle` (see Solution::moved).
std::string moved_sticks(const Layout& puzzle, const Layout& after);
// The same for the patterns `after` of the puzzle's form, the layouts unchecked but for
// their stick counts: every place pair fits (at most 10 characters each).
using MovedText = FixedText<std::size_t{max_positions * digit_segments / 2} * 10>;
MovedText moved_sticks(const Layout& puzzle, std::span<const Pattern> after);

}  // namespace levelforge::matchstick
