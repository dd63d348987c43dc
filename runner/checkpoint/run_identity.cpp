#include "runner/checkpoint/run_identity.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "runner/engine/kernel_registry.hpp"
#include "runner/output/provenance.hpp"

namespace levelforge {

namespace {

// Keys of the effective config that may change between sessions of one run: where results
// go, how often they are saved, and what a kernel's exception does to the rest of the run
// (the finished work is the same either way; docs/checkpoint.md).
bool is_identity_key(const std::string& key) {
  return key != "output" && !key.starts_with("output.") && !key.starts_with("checkpoint.") &&
         key != "on_error";
}

RunIdentity part(const RunIdentity& identity, bool build) {
  RunIdentity kept;
  for (const auto& [key, value] : identity) {
    if (is_build_key(key) == build) kept.emplace(key, value);
  }
  return kept;
}

// One line per value. A list of maps or lists (a table's rows) is keyed by index, so that a
// difference names the row and field that changed: params.species[1].motives.fear. Values are
// written as YAML, so a text with a line break still takes one line.
void flatten(const YAML::Node& node, const std::string& prefix, RunIdentity& out) {
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const auto key = entry.first.Scalar();
      flatten(entry.second, prefix.empty() ? key : fmt::format("{}.{}", prefix, key), out);
    }
    return;
  }
  const auto holds_structure = [](const YAML::Node& list) {
    return std::any_of(list.begin(), list.end(), [](const YAML::Node& element) {
      return element.IsMap() || element.IsSequence();
    });
  };
  if (node.IsSequence() && holds_structure(node)) {
    std::size_t index = 0;
    for (const auto& element : node) flatten(element, fmt::format("{}[{}]", prefix, index++), out);
    return;
  }
  // The node's own style wins over the emitter's: a list read in block style would take
  // several lines, which the one-line-per-value encoding cannot hold.
  YAML::Node one_line = YAML::Clone(node);
  one_line.SetStyle(YAML::EmitterStyle::Flow);
  YAML::Emitter flow;
  flow << YAML::Flow << one_line;
  out[prefix] = flow.c_str();
}

}  // namespace

RunIdentity run_identity(const config::Experiment& experiment, const ShardSpec& shard) {
  RunIdentity config;
  flatten(YAML::Load(config::effective_yaml(experiment, config_schema())), "", config);
  RunIdentity identity;
  for (auto& [key, value] : config) {
    if (is_identity_key(key)) identity.emplace(key, std::move(value));
  }
  identity[version_key] = std::string(build_version());
  identity[commit_key] = commit_identity(std::string(build_commit()), std::string(build_changes()));
  if (const auto* kernel = find_kernel(experiment.kernel)) {
    identity[kernel_code_key] = kernel->code.identity();
  }
  identity["shard"] = shard.sharded() ? shard.text() : "none";
  return identity;
}

bool is_build_key(const std::string& key) {
  return key == version_key || key == commit_key || key == kernel_code_key;
}

RunIdentity experiment_part(const RunIdentity& identity) { return part(identity, false); }
RunIdentity build_part(const RunIdentity& identity) { return part(identity, true); }

std::string commit_identity(const std::string& commit, const std::string& changes) {
  return changes.empty() ? commit : commit + " with uncommitted changes " + changes;
}

std::string describe_build(const RunIdentity& identity) {
  const auto value = [&](const char* key) {
    const auto found = identity.find(key);
    return found == identity.end() ? std::string("unknown") : found->second;
  };
  return fmt::format("levelforge {} (commit {}), kernel code {}", value(version_key),
                     value(commit_key), value(kernel_code_key));
}

std::vector<std::string> identity_differences(const RunIdentity& first, const RunIdentity& second,
                                              const std::string& first_label,
                                              const std::string& second_label) {
  std::set<std::string> keys;
  for (const auto& [key, value] : first) keys.insert(key);
  for (const auto& [key, value] : second) keys.insert(key);
  const auto show = [](const RunIdentity& identity, const std::string& key) {
    const auto found = identity.find(key);
    return found == identity.end() ? std::string("(absent)") : found->second;
  };
  std::vector<std::string> lines;
  for (const auto& key : keys) {
    const auto one = show(first, key);
    const auto two = show(second, key);
    if (one == two && first.contains(key) && second.contains(key)) continue;
    lines.push_back(fmt::format("  {}: {} {}, {} {}", key, one, first_label, two, second_label));
  }
  return lines;
}

std::string encode_identity(const RunIdentity& identity) {
  std::string text;
  for (const auto& [key, value] : identity) text += fmt::format("{}\n{}\n", key, value);
  return text;
}

RunIdentity decode_identity(const std::string& text) {
  RunIdentity identity;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const auto key_end = text.find('\n', begin);
    const auto value_end = key_end == std::string::npos ? key_end : text.find('\n', key_end + 1);
    if (value_end == std::string::npos) break;
    identity[text.substr(begin, key_end - begin)] =
        text.substr(key_end + 1, value_end - key_end - 1);
    begin = value_end + 1;
  }
  return identity;
}

}  // namespace levelforge
