#pragma once
// Which build ran each session of a run. A run resumed or retried after a rebuild (a kernel
// fixed, levelforge upgraded: `--retry-failed` accepts it) holds work of several builds;
// the checkpoint's manifest and the result's `builds` attribute say which sessions each
// build ran, and `/tasks`' session column says which tasks each session finished.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace levelforge {

class SessionBuilds {
 public:
  // Lines as lines() writes them; a line that is neither form is kept as the build of no
  // known session (a file of another levelforge).
  static SessionBuilds parse(const std::vector<std::string>& lines);

  void add(std::int64_t session, const std::string& build);
  [[nodiscard]] bool has(std::int64_t session) const { return builds_.contains(session); }
  [[nodiscard]] bool empty() const { return builds_.empty(); }
  // The distinct builds, in session order.
  [[nodiscard]] std::vector<std::string> distinct() const;
  // "session 0: BUILD", or "sessions 0-2: BUILD" for consecutive sessions of one build.
  [[nodiscard]] std::vector<std::string> lines() const;
  // The lines joined by line breaks, as a manifest holds them and rank 0 sends them; and back.
  [[nodiscard]] std::string text() const;
  static SessionBuilds from_text(std::string_view text);

 private:
  std::map<std::int64_t, std::string> builds_;
  std::vector<std::string> unplaced_;
};

}  // namespace levelforge
