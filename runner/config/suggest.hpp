#pragma once
// "Did you mean" hints for misspelled names.

#include <string>
#include <string_view>
#include <vector>

namespace levelforge::config {

std::size_t edit_distance(std::string_view a, std::string_view b);

// "; did you mean 'X'?" when a candidate is close to `name`, otherwise
// "; <what>: A, B, C" listing every candidate.
std::string closest_hint(std::string_view name, const std::vector<std::string>& candidates,
                         std::string_view what);

std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");
// join's inverse: the pieces of `text` between `separator`s; nothing for an empty text.
std::vector<std::string> split(std::string_view text, char separator);

}  // namespace levelforge::config
