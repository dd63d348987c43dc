#pragma once
// Matchstick layouts as seven-segment ASCII art, five lines per symbol like the console
// output of the document (../shared/seeds/matchstick-equation-dfs.txt, figure 8).
//
// "0+3=09", positions numbered by draw_positions:
//
//    --         --        --   --      line 0: segment a
//   |  |   |      |  --  |  | |  |     line 1: f and b; the top bar of '='
//         -+-   --             --      line 2: g; the operator slot
//   |  |   |      |  --  |  |    |     line 3: e and c; the bottom bar of '='
//    --         --        --   --      line 4: d
//    0     1    2         3    4
//
// A digit cell is 4 columns wide, the operator slot 3 ('-+-': both sticks, '---' the
// horizontal one, '|' alone the vertical one), the fixed '=' 2. Digits of one number are
// one space apart, the operator and '=' two spaces from their neighbours. Only lit
// segments are drawn, so a pattern that is no symbol ('?') shows its sticks as they lie.

#include <string>

#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {

inline constexpr int drawing_lines = 5;

// The layout in five lines, each ending in '\n', trailing spaces removed.
std::string draw(const Layout& layout);

// One line, ending in '\n', that numbers the positions of `form` (0-based, the numbers of
// Solution::moved) under their cells in draw(); trailing spaces removed.
std::string draw_positions(const Form& form);

}  // namespace levelforge::matchstick
