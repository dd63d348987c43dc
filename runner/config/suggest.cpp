#include "runner/config/suggest.hpp"

#include <algorithm>
#include <numeric>

namespace levelforge::config {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string closest_hint(std::string_view name, const std::vector<std::string>& candidates,
                         std::string_view what) {
  const std::string* closest = nullptr;
  std::size_t closest_distance = 0;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(name, candidate);
    if (closest == nullptr || distance < closest_distance) {
      closest = &candidate;
      closest_distance = distance;
    }
  }
  const std::size_t tolerance = std::max<std::size_t>(2, name.size() / 3);
  // A hint that has to replace the whole name is no hint.
  if (closest != nullptr && closest_distance <= tolerance && closest_distance < name.size()) {
    return "; did you mean '" + *closest + "'?";
  }
  if (candidates.empty()) return "; there are no " + std::string(what);
  return "; " + std::string(what) + ": " + join(candidates);
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> pieces;
  if (text.empty()) return pieces;
  for (std::size_t begin = 0;;) {
    const auto end = text.find(separator, begin);
    pieces.emplace_back(text.substr(begin, end - begin));
    if (end == std::string_view::npos) return pieces;
    begin = end + 1;
  }
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) joined += separator;
    joined += items[i];
  }
  return joined;
}

}  // namespace levelforge::config
