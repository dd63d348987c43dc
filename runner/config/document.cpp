#include "runner/config/document.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include "kernels/api/text.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/values.hpp"

namespace levelforge::config {
namespace {

// Where parsed text came from: a file, whose marks give the line, or an override.
struct Source {
  std::string name;
  bool is_override = false;

  [[nodiscard]] std::string at(const YAML::Mark& mark) const {
    return is_override ? name : file_location(name, mark);
  }
};

std::string key_text(const YAML::Node& key) {
  return key.IsScalar() ? quoted_value(key.Scalar()) : describe(key);
}

// yaml-cpp 0.7 keeps both entries of a repeated key, and lookups silently see the first.
void check_duplicate_keys(const YAML::Node& node, const Source& source) {
  if (node.IsSequence()) {
    for (const auto& element : node) check_duplicate_keys(element, source);
    return;
  }
  if (!node.IsMap()) return;
  std::vector<YAML::Node> keys;
  for (const auto& entry : node) {
    const YAML::Node& key = entry.first;
    const auto same_key = [&](const YAML::Node& seen) {
      return seen.IsScalar() && key.IsScalar() && seen.Scalar() == key.Scalar();
    };
    const auto first = std::find_if(keys.begin(), keys.end(), same_key);
    if (first != keys.end()) {
      std::string message = source.at(key.Mark()) + ": duplicate key " + key_text(key);
      if (!source.is_override) message += " (first at " + source.at(first->Mark()) + ")";
      throw ConfigError(message);
    }
    keys.push_back(key);
    check_duplicate_keys(entry.second, source);
  }
}

// The first tab in the indentation of a line up to `last_line` (0-based), which YAML forbids;
// blank and comment lines do not count.
std::optional<YAML::Mark> tab_in_indentation(std::string_view text, int last_line) {
  std::size_t start = 0;
  for (int line = 0; line <= last_line && start <= text.size(); ++line) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::size_t tab = std::string_view::npos;
    std::size_t i = start;
    for (; i < end && (text[i] == ' ' || text[i] == '\t'); ++i)
      if (text[i] == '\t' && tab == std::string_view::npos) tab = i;
    const bool blank = i == end || text[i] == '#' || text[i] == '\r';
    if (tab != std::string_view::npos && !blank) {
      YAML::Mark mark = YAML::Mark::null_mark();
      mark.pos = static_cast<int>(tab);
      mark.line = line;
      mark.column = static_cast<int>(tab - start);
      return mark;
    }
    start = end + 1;
  }
  return std::nullopt;
}

// Where the content of a document after the first begins, when there is one. yaml-cpp 0.7's
// LoadAll never ends on some malformed text (a lone ',' reads as endless empty documents,
// jbeder/yaml-cpp#1040), so the parser is asked for the second document only.
class SecondDocument : public YAML::EventHandler {
 public:
  [[nodiscard]] std::optional<YAML::Mark> content(std::string_view text) {
    std::istringstream input{std::string(text)};
    YAML::Parser parser(input);
    if (!parser.HandleNextDocument(*this)) return std::nullopt;
    content_.reset();
    if (!parser.HandleNextDocument(*this)) return std::nullopt;
    return content_;
  }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { found(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    found(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    found(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    found(mark);
  }
  void OnMapEnd() override {}

 private:
  void found(const YAML::Mark& mark) {
    if (!content_) content_ = mark;
  }

  std::optional<YAML::Mark> content_;
};

// Counts, from the parser's events, the nodes that aliases add to a document, as if each alias
// were a copy of the node its anchor marks: that node is measured once, when it ends, and each
// alias adds what it holds. An anchor is how yaml-cpp's tree shares one node among its aliases,
// so nothing is expanded, here or in the tree. Throws ConfigError at the alias that passes the
// limit, and at one inside the node its anchor marks, which makes the tree a cycle.
class AliasMeter : public YAML::EventHandler {
 public:
  AliasMeter(Source source, std::uint64_t limit) : source_(std::move(source)), limit_(limit) {}

  // Reads the first document of `text`.
  void measure(std::string_view text) {
    std::istringstream input{std::string(text)};
    YAML::Parser parser(input);
    parser.HandleNextDocument(*this);
  }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  // Comes just before the event of the node it names.
  void OnAnchor(const YAML::Mark&, const std::string& name) override { next_anchor_name_ = name; }
  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override { leaf(anchor); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    leaf(anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override;
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Anchor {
    std::string name;
    std::optional<std::uint64_t> nodes;  // what its node holds, once that has ended
  };
  struct OpenNode {
    YAML::anchor_t anchor;
    std::uint64_t nodes;  // itself and what it holds so far
  };

  void name_anchor(YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchors_[anchor].name = std::exchange(next_anchor_name_, {});
  }
  void leaf(YAML::anchor_t anchor) {
    name_anchor(anchor);
    ended(anchor, 1);
  }
  void open(YAML::anchor_t anchor) {
    name_anchor(anchor);
    open_.push_back({anchor, 1});
  }
  void close() {
    const OpenNode node = open_.back();
    open_.pop_back();
    ended(node.anchor, node.nodes);
  }
  // A node of `nodes` nodes is complete: its anchor's measure, and part of the node holding it.
  void ended(YAML::anchor_t anchor, std::uint64_t nodes) {
    if (anchor != YAML::NullAnchor) anchors_[anchor].nodes = nodes;
    if (!open_.empty()) open_.back().nodes += nodes;
  }

  Source source_;
  std::uint64_t limit_;
  std::uint64_t added_ = 0;  // by the aliases so far; never past limit_
  std::string next_anchor_name_;
  std::map<YAML::anchor_t, Anchor> anchors_;
  std::vector<OpenNode> open_;
};

void AliasMeter::OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) {
  const Anchor& target = anchors_[anchor];
  if (!target.nodes) {
    throw ConfigError(source_.at(mark) + ": alias *" + target.name +
                      " stands inside the node its anchor &" + target.name +
                      " marks: the config would be endless");
  }
  const std::uint64_t nodes = *target.nodes;
  if (nodes > limit_ - added_) {
    throw ConfigError(source_.at(mark) + ": aliases expand the config past " +
                      std::to_string(limit_) + " nodes here: alias *" + target.name +
                      " stands for " + std::to_string(nodes) +
                      " (nested aliases multiply, as in a 'billion laughs')");
  }
  added_ += nodes;
  ended(YAML::NullAnchor, nodes);
}

YAML::Node load_yaml(std::string_view original, const Source& source) {
  // YAML breaks lines at a lone CR too; yaml-cpp would read such a file as one line.
  const std::string text = with_plain_line_ends(original);
  YAML::Node document;
  std::optional<YAML::Mark> second;
  try {
    document = YAML::Load(text);
    // Before anything walks the tree, which expands what aliases share.
    AliasMeter(source, max_alias_nodes).measure(text);
    second = SecondDocument().content(text);
  } catch (const YAML::DeepRecursion& error) {
    throw ConfigError(source.at(error.mark) + ": nested " + std::to_string(error.depth()) +
                      " levels deep, past what a config may nest (yaml-cpp's limit)");
  } catch (const YAML::Exception& error) {
    // yaml-cpp reports a tab in the indentation as whatever it then fails to read
    // ("illegal map value"), somewhere else: name the tab itself.
    if (const auto tab =
            source.is_override ? std::nullopt : tab_in_indentation(text, error.mark.line)) {
      throw ConfigError(source.at(*tab) +
                        ": a tab in the indentation; YAML indents with spaces only (" +
                        printable(error.msg) + " at " + source.at(error.mark) + ")");
    }
    // yaml-cpp's message may hold the character it stopped at.
    const std::string message = printable(error.msg);
    const std::string what = source.is_override ? "invalid YAML: " + message : message;
    throw ConfigError(source.at(error.mark) + ": " + what);
  }
  if (second) {
    throw ConfigError(source.at(*second) + ": expected one YAML document, found a second one");
  }
  check_duplicate_keys(document, source);
  return document;
}

bool starts_with(const KeyPath& path, const KeyPath& prefix) {
  return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

std::string join_path(const KeyPath& path, std::size_t count) {
  std::string joined;
  for (std::size_t i = 0; i < count; ++i) joined += (i > 0 ? "." : "") + path[i];
  return joined;
}

}  // namespace

Document::Document(std::string_view yaml_text, std::string_view source_name)
    : source_name_(source_name) {
  const Source source{source_name_};
  root_.reset(load_yaml(yaml_text, source));
  if (root_.IsNull()) root_.reset(YAML::Node(YAML::NodeType::Map));
  if (!root_.IsMap()) {
    throw ConfigError(source.at(root_.Mark()) + ": the config must be a map of keys, got " +
                      describe(root_));
  }
}

void Document::apply_override(const std::string& assignment) {
  const std::string location = "--set " + assignment;
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) {
    throw ConfigError(location + ": malformed override, expected KEY.PATH=VALUE");
  }
  const KeyPath path = split_override_key(std::string_view(assignment).substr(0, equals));
  if (path.empty()) {
    throw ConfigError(location + ": malformed key path " +
                      quoted_value(assignment.substr(0, equals)) +
                      ", expected names joined by '.'");
  }
  const YAML::Node value = load_yaml(assignment.substr(equals + 1), Source{location, true});
  assign(path, value, location);
  overrides_.push_back({path, location});
}

void Document::assign(const KeyPath& path, const YAML::Node& value, const std::string& location) {
  // Node handles share what they refer to; reset() rebinds a handle, operator= would copy.
  YAML::Node map;
  map.reset(root_);
  for (std::size_t depth = 0; depth + 1 < path.size(); ++depth) {
    std::optional<YAML::Node> child = find_value(map, path[depth]);
    if (!child || child->IsNull()) {
      map[path[depth]] = YAML::Node(YAML::NodeType::Map);
      child = find_value(map, path[depth]);
    } else if (!child->IsMap()) {
      throw ConfigError(location + ": " + quoted_value(join_path(path, depth + 1)) +
                        " is not a map but " + describe(*child));
    }
    map.reset(*child);
  }
  map[path.back()] = value;
}

void Document::replace(const KeyPath& path, const YAML::Node& value) {
  // The path exists, so assign() finds every map on the way and has nothing to report.
  assign(path, value, source_name_);
}

const Document::Override* Document::override_of(const KeyPath& path, const YAML::Node& node) const {
  // The last override wins: search from the end.
  const auto latest = [&](auto covers) -> const Override* {
    const auto found = std::find_if(overrides_.rbegin(), overrides_.rend(), covers);
    return found == overrides_.rend() ? nullptr : &*found;
  };
  if (const auto* above = latest([&](const Override& o) { return starts_with(path, o.path); })) {
    return above;
  }
  // A node without a mark is a map an override created on its way to its key.
  if (node.Mark().is_null()) {
    return latest([&](const Override& o) { return starts_with(o.path, path); });
  }
  return nullptr;
}

std::string Document::location(const KeyPath& path, const YAML::Node& node) const {
  const Override* by_override = override_of(path, node);
  return by_override != nullptr ? by_override->location : Source{source_name_}.at(node.Mark());
}

std::string Document::start_location() const { return Source{source_name_}.at(root_.Mark()); }

std::filesystem::path Document::directory(const KeyPath& path, const YAML::Node& node) const {
  if (override_of(path, node) != nullptr) return {};
  return std::filesystem::path(source_name_).parent_path();
}

std::string Document::yaml() const {
  YAML::Emitter out;
  out << root_;
  return out.c_str();
}

void check_alias_expansion(std::string_view text, std::string_view file_name, std::uint64_t limit) {
  AliasMeter(Source{std::string(file_name)}, limit).measure(text);
}

YAML::Node parse_yaml_file(std::string_view text, std::string_view file_name) {
  return load_yaml(text, Source{std::string(file_name)});
}

std::string file_location(std::string_view file_name, const YAML::Mark& mark) {
  const std::string name(file_name);
  if (mark.is_null()) return name + ":1:1";
  return name + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

std::optional<YAML::Node> find_value(const YAML::Node& map, std::string_view key) {
  for (const auto& entry : map) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
  }
  return std::nullopt;
}

KeyPath split_override_key(std::string_view key) {
  KeyPath path;
  while (true) {
    const bool rest_is_one_key =
        path.size() == 2 && path[0] == "sweep" && (path[1] == "grid" || path[1] == "zip");
    const auto dot = rest_is_one_key ? std::string_view::npos : key.find('.');
    path.emplace_back(key.substr(0, dot));
    if (path.back().empty()) return {};
    if (dot == std::string_view::npos) return path;
    key.remove_prefix(dot + 1);
  }
}

}  // namespace levelforge::config
