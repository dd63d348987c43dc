#pragma once
// How parse errors of puzzle and level texts show a character.

#include <array>
#include <cstdio>
#include <string>

namespace levelforge {

// 'c' for a printable ASCII character (the space included), "byte 0xNN" otherwise.
inline std::string describe_char(char ch) {
  if (ch >= 0x20 && ch <= 0x7e) return std::string("'") + ch + "'";
  std::array<char, 16> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "byte 0x%02x",
                static_cast<unsigned>(static_cast<unsigned char>(ch)));
  return buffer.data();
}

}  // namespace levelforge
