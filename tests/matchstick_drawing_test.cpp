// kernels/matchstick/drawing.hpp: the exact art of a few layouts, built here from the
// segment tables so that the drawing is tested apart from the equation parser.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/matchstick/drawing.hpp"
#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {
namespace {

Pattern digit(char symbol) { return digit_patterns.at(static_cast<std::size_t>(symbol - '0')); }

// A layout of digit strings and an operator slot pattern; '?' in a number stands for the
// pattern `unknown`.
Layout layout(const std::string& a, Pattern op, const std::string& b, const std::string& c,
              Pattern unknown = 0) {
  Layout result;
  result.form = {static_cast<int>(a.size()), static_cast<int>(b.size()),
                 static_cast<int>(c.size())};
  const auto add = [&](const std::string& number) {
    for (const char symbol : number)
      result.cells.push_back(symbol == '?' ? unknown : digit(symbol));
  };
  add(a);
  result.cells.push_back(op);
  add(b);
  add(c);
  return result;
}

TEST(MatchstickDrawing, SixPlusFourIsFour) {
  const std::string expected =
      " --\n"
      "|      |   |  |  --  |  |\n"
      " --   -+-   --        --\n"
      "|  |   |      |  --     |\n"
      " --\n";
  EXPECT_EQ(draw(layout("6", plus_pattern, "4", "4")), expected);
  EXPECT_EQ(draw_positions(layout("6", plus_pattern, "4", "4").form), " 0     1    2         3\n");
}

TEST(MatchstickDrawing, EveryDigitAndMinusAcrossSeveralDigits) {
  const Layout equation = layout("10", minus_pattern, "23", "456789");
  const std::string expected =
      "      --         --   --             --   --   --   --   --\n"
      "   | |  |          |    |  --  |  | |    |       | |  | |  |\n"
      "           ---   --   --        --   --   --        --   --\n"
      "   | |  |       |       |  --     |    | |  |    | |  |    |\n"
      "      --         --   --             --   --        --   --\n";
  EXPECT_EQ(draw(equation), expected);
  EXPECT_EQ(draw_positions(equation.form),
            " 0    1     2    3    4         5    6    7    8    9    10\n");
}

TEST(MatchstickDrawing, PatternsThatAreNoSymbolShowTheirSticks) {
  // 7 |1 = (a d): the operator slot holds only its vertical stick, the last position the
  // top and bottom bars, which is no digit.
  const Layout odd = layout("7", 0x02, "1", "?", 0x09);
  const std::string expected =
      " --                   --\n"
      "   |   |      |  --\n"
      "       |\n"
      "   |   |      |  --\n"
      "                      --\n";
  EXPECT_EQ(draw(odd), expected);
}

TEST(MatchstickDrawing, AnEmptyOperatorSlotKeepsItsWidth) {
  const std::string expected =
      " --         --        --\n"
      "|  |       |  |  --  |  |\n"
      " --         --        --\n"
      "|  |       |  |  --  |  |\n"
      " --         --        --\n";
  EXPECT_EQ(draw(layout("8", 0x00, "8", "8")), expected);
}

TEST(MatchstickDrawing, TwoDigitPositionsStayUnderTheirCells) {
  const Form widest{max_digits, max_digits, max_digits};
  const std::string ruler = draw_positions(widest);
  // Position 18 is the last digit of C, one column into the last cell of the drawing.
  const Layout eights = layout("888888", plus_pattern, "888888", "888888");
  const std::string art = draw(eights);
  const std::size_t first_line_end = art.find('\n');
  EXPECT_EQ(ruler.size() - 1, first_line_end);  // "18" ends where the last bar " --" does
  EXPECT_EQ(ruler.substr(ruler.size() - 3), "18\n");
}

TEST(MatchstickDrawing, AgreesWithTheParser) {
  EXPECT_EQ(draw(parse_equation("10-23=456789")),
            draw(layout("10", minus_pattern, "23", "456789")));
}

TEST(MatchstickDrawing, RefusesACellCountThatIsNotTheForms) {
  Layout broken = layout("6", plus_pattern, "4", "4");
  broken.cells.pop_back();
  EXPECT_THROW(draw(broken), std::invalid_argument);
}

}  // namespace
}  // namespace levelforge::matchstick
