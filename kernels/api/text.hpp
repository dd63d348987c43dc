#pragma once
// How error messages show a character or a user's value, and what every text reader accepts
// the way editors write it.

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

// `text` as a message shows a user's value: each control character (a NUL, a tab, a line
// break, ...) and the backslash written as an escape (\0, \t, \n, \r, \x01, \\), other bytes
// as they are (UTF-8 stays readable). A raw NUL would end the message wherever it is printed
// as a C string (what(), "%s"), and a raw line break would split it; the backslash is
// escaped too, so that "\0" in a message is a NUL and never the two characters typed.
inline std::string printable(std::string_view text) {
  std::string shown;
  shown.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '\0': shown += "\\0"; break;
      case '\t': shown += "\\t"; break;
      case '\n': shown += "\\n"; break;
      case '\r': shown += "\\r"; break;
      case '\\': shown += "\\\\"; break;
      default: {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte >= 0x20 && byte != 0x7f) {
          shown += ch;
          break;
        }
        std::array<char, 8> buffer{};
        std::snprintf(buffer.data(), buffer.size(), "\\x%02x", static_cast<unsigned>(byte));
        shown += buffer.data();
      }
    }
  }
  return shown;
}

// A user's value in single quotes, as printable() shows it: 'a\0b'.
inline std::string quoted_value(std::string_view text) {
  std::string quoted(1, '\'');
  quoted += printable(text);
  quoted += '\'';
  return quoted;
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
