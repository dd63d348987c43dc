#include "runner/checkpoint/session_builds.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "runner/config/suggest.hpp"

namespace levelforge {

namespace {

std::optional<std::int64_t> number(std::string_view text) {
  std::int64_t value = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || value < 0) return std::nullopt;
  return value;
}

}  // namespace

SessionBuilds SessionBuilds::parse(const std::vector<std::string>& lines) {
  SessionBuilds builds;
  for (const auto& line : lines) {
    const auto colon = line.find(": ");
    const std::string_view head = std::string_view(line).substr(0, colon);
    std::optional<std::int64_t> first;
    std::optional<std::int64_t> last;
    if (colon != std::string::npos && head.starts_with("sessions ")) {
      const auto range = head.substr(std::string_view("sessions ").size());
      const auto dash = range.find('-');
      if (dash != std::string_view::npos) {
        first = number(range.substr(0, dash));
        last = number(range.substr(dash + 1));
      }
    } else if (colon != std::string::npos && head.starts_with("session ")) {
      first = last = number(head.substr(std::string_view("session ").size()));
    }
    if (!first || !last || *last < *first) {
      builds.unplaced_.push_back(line);
      continue;
    }
    for (auto session = *first; session <= *last; ++session)
      builds.add(session, line.substr(colon + 2));
  }
  return builds;
}

void SessionBuilds::add(std::int64_t session, const std::string& build) {
  builds_[session] = build;
}

std::vector<std::string> SessionBuilds::distinct() const {
  std::vector<std::string> seen = unplaced_;
  for (const auto& [session, build] : builds_) {
    if (std::find(seen.begin(), seen.end(), build) == seen.end()) seen.push_back(build);
  }
  return seen;
}

std::vector<std::string> SessionBuilds::lines() const {
  std::vector<std::string> lines = unplaced_;
  for (auto it = builds_.begin(); it != builds_.end();) {
    auto last = it;
    for (auto next = std::next(it);
         next != builds_.end() && next->first == last->first + 1 && next->second == it->second;
         ++next) {
      last = next;
    }
    lines.push_back(last == it
                        ? fmt::format("session {}: {}", it->first, it->second)
                        : fmt::format("sessions {}-{}: {}", it->first, last->first, it->second));
    it = std::next(last);
  }
  return lines;
}

std::string SessionBuilds::text() const { return config::join(lines(), "\n"); }

SessionBuilds SessionBuilds::from_text(std::string_view text) {
  return parse(config::split(text, '\n'));
}

}  // namespace levelforge
