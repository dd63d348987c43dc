#include "runner/files/shell_word.hpp"

#include <algorithm>
#include <cctype>

namespace levelforge {

namespace {

bool plain(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) != 0 ||
         std::string_view("_-./,:@%+=").find(ch) != std::string_view::npos;
}

}  // namespace

std::string shell_word(const std::string& text) {
  if (!text.empty() && std::all_of(text.begin(), text.end(), plain)) return text;
  std::string quoted = "'";
  for (const char ch : text) {
    if (ch == '\'') {
      quoted += "'\\''";
    } else {
      quoted += ch;
    }
  }
  quoted += '\'';
  return quoted;
}

std::string shell_command(const std::vector<std::string>& words) {
  std::string command;
  for (const auto& word : words) {
    if (!command.empty()) command += ' ';
    command += shell_word(word);
  }
  return command;
}

}  // namespace levelforge
