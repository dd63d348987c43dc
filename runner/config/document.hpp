#pragma once
// The config's YAML tree after the --set overrides, and where each part of it came from,
// so that every message can point at a line of the file or at the override at fault.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace levelforge::config {

// Keys from the root down: {"ga", "population"}, {"sweep", "grid", "params.width"}.
using KeyPath = std::vector<std::string>;

class Document {
 public:
  // Throws ConfigError for YAML syntax errors, duplicate keys and a non-map document.
  Document(std::string_view yaml_text, std::string_view source_name);

  // Applies one "KEY.PATH=VALUE" assignment (VALUE is YAML); a later one wins.
  void apply_override(const std::string& assignment);

  [[nodiscard]] const YAML::Node& root() const { return root_; }

  // "FILE:LINE:COL" of `node`, which sits at `path`, or "--set KEY=VALUE" when the last
  // override that touched `path` put it there.
  [[nodiscard]] std::string location(const KeyPath& path, const YAML::Node& node) const;

  // Where the file begins, for what is missing from it.
  [[nodiscard]] std::string start_location() const;

  // The directory that a file name at `path` is relative to: the config file's, or the
  // current directory for a name an override wrote (or a config that is not a file).
  [[nodiscard]] std::filesystem::path directory(const KeyPath& path, const YAML::Node& node) const;

  // Puts `value` at `path`, which the config already holds: a table parameter's rows in place
  // of the file names they came from.
  void replace(const KeyPath& path, const YAML::Node& value);

  // The tree as YAML text.
  [[nodiscard]] std::string yaml() const;

 private:
  struct Override {
    KeyPath path;
    std::string location;
  };

  void assign(const KeyPath& path, const YAML::Node& value, const std::string& location);
  // The last override that put `node`, at `path`, there; nullptr when the file did.
  [[nodiscard]] const Override* override_of(const KeyPath& path, const YAML::Node& node) const;

  std::string source_name_;
  YAML::Node root_;
  std::vector<Override> overrides_;
};

// The most nodes that aliases may add to one YAML text (a config, an override, a table file),
// counted as if each alias were a copy of the node its anchor marks. A real config's aliases
// repeat a setting or a few table rows: hundreds or thousands of nodes (the shipped configs use
// none). The bound is not higher because what aliases add is expanded where the config is read,
// and its time and memory grow with it: a few million aliased nodes take most of a minute and
// gigabytes to validate. Nested aliases (a list of nine
// aliases of a list of nine aliases ..., nine levels: 9^9 values in under 1 KB, the "billion
// laughs") would otherwise never finish or exhaust memory.
inline constexpr std::uint64_t max_alias_nodes = std::uint64_t{1} << 20U;

// Throws ConfigError "FILE:LINE:COL: ..." at the alias with which the aliases of the first
// YAML document in `text` add more than `limit` nodes, and at an alias inside the node its own
// anchor marks (a cycle). Counts without expanding: each anchor's node is measured once.
void check_alias_expansion(std::string_view text, std::string_view file_name,
                           std::uint64_t limit = max_alias_nodes);

// Parses a YAML file that the config names, checked like the config itself: ConfigError
// "FILE:LINE:COL: ..." for syntax errors, duplicate keys and more than one document.
YAML::Node parse_yaml_file(std::string_view text, std::string_view file_name);

// "FILE:LINE:COL" of `mark` in the text called `file_name`.
std::string file_location(std::string_view file_name, const YAML::Mark& mark);

// The value of `key` in `map`, a YAML map.
std::optional<YAML::Node> find_value(const YAML::Node& map, std::string_view key);

// Splits an override's key path on '.', keeping what follows "sweep.grid." or
// "sweep.zip." as one key. Empty when a segment is empty.
KeyPath split_override_key(std::string_view key);

}  // namespace levelforge::config
