// Fuzzes the matchstick equation parser (kernels/matchstick/equation.cpp): any bytes are
// either a PuzzleError or a layout that every layout function accepts and that prints back
// as the text it was parsed from.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "kernels/matchstick/equation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace matchstick = levelforge::matchstick;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  matchstick::Layout layout;
  try {
    layout = matchstick::parse_equation(text, "<fuzz>");
  } catch (const matchstick::PuzzleError&) {
    return 0;
  }
  // A parsed layout is valid by contract: these throw std::invalid_argument only for an
  // invalid one, which would be a parser bug, so nothing is caught here.
  matchstick::check_layout(layout);
  if (matchstick::to_string(layout) != text) std::abort();  // digits and operator survive
  (void)matchstick::sticks(layout);
  (void)matchstick::is_true(layout, matchstick::LeadingZeros::allow);
  (void)matchstick::is_true(layout, matchstick::LeadingZeros::forbid);
  if (matchstick::parse_equation(matchstick::to_string(layout)) != layout) std::abort();
  return 0;
}
