#pragma once
// What makes two files the same run: two sessions of one run, the shards of one run, a
// result file and the checkpoint beside it. The identity is the effective config without
// the settings that change no finished result (output, checkpoint, on_error), flattened to
// one line per value, plus the shard and the build: the levelforge version, its git commit
// (with a hash of the uncommitted changes it was built with) and the code of the run's
// kernel (kernel_code.hpp). Differences are listed key by key.

#include <map>
#include <string>
#include <vector>

#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"

namespace levelforge {

using RunIdentity = std::map<std::string, std::string>;

// The keys of the build that made a run.
inline constexpr const char* version_key = "levelforge version";
inline constexpr const char* commit_key = "git commit";
inline constexpr const char* kernel_code_key = "kernel code";
bool is_build_key(const std::string& key);

// The identity's keys of the experiment alone, or of the build alone.
RunIdentity experiment_part(const RunIdentity& identity);
RunIdentity build_part(const RunIdentity& identity);

// The value of commit_key for a commit and the hash of its uncommitted changes (empty: none).
std::string commit_identity(const std::string& commit, const std::string& changes);

// One line for a build's part of an identity, for messages and the provenance's `builds`:
// "levelforge 0.1.0 (commit 0123abc...), kernel code sources sha256:..., version 0.1.0".
std::string describe_build(const RunIdentity& identity);

// The identity of `experiment` run by this levelforge as `shard`.
RunIdentity run_identity(const config::Experiment& experiment, const ShardSpec& shard);

// "  key: A <first_label>, B <second_label>" for every key whose values differ.
std::vector<std::string> identity_differences(const RunIdentity& first, const RunIdentity& second,
                                              const std::string& first_label,
                                              const std::string& second_label);

// "key\nvalue\n" pairs: values are YAML scalars or flow sequences, one line each.
std::string encode_identity(const RunIdentity& identity);
RunIdentity decode_identity(const std::string& text);

}  // namespace levelforge
