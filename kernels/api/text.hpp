#pragma once
// How parse errors of puzzle and level texts show a character, and what every text reader
// accepts the way editors write it.

#include <array>
#include <cstdio>
#include <string>
#include <string_view>

namespace levelforge {

// 'c' for a printable ASCII character (the space included), "byte 0xNN" otherwise.
inline std::string describe_char(char ch) {
  if (ch >= 0x20 && ch <= 0x7e) return std::string("'") + ch + "'";
  std::array<char, 16> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "byte 0x%02x",
                static_cast<unsigned>(static_cast<unsigned char>(ch)));
  return buffer.data();
}

// `text` without a leading UTF-8 byte-order mark and with each lone CR (old Mac line ends)
// made an LF: line breaks are LF or CRLF afterwards, and line numbers do not change.
inline std::string with_plain_line_ends(std::string_view text) {
  constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  if (text.starts_with(byte_order_mark)) text.remove_prefix(byte_order_mark.size());
  std::string result(text);
  for (std::size_t i = 0; i < result.size(); ++i) {
    if (result[i] == '\r' && (i + 1 == result.size() || result[i + 1] != '\n')) result[i] = '\n';
  }
  return result;
}

}  // namespace levelforge
