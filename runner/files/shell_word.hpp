#pragma once
// Commands that levelforge prints for the user to paste ("continue with `levelforge resume
// FILE`") quote each path for a POSIX shell, so that a path with a space, a parenthesis or a
// quote pastes as itself.

#include <string>
#include <vector>

namespace levelforge {

// `text` as one word of a POSIX shell: unchanged when it holds only characters no shell
// treats specially, otherwise in single quotes (a quote inside written '\'').
std::string shell_word(const std::string& text);

// The words quoted one by one and joined by spaces.
std::string shell_command(const std::vector<std::string>& words);

}  // namespace levelforge
