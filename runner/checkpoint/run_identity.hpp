#pragma once
// What makes two files the same run: two sessions of one run, the shards of one run, a
// result file and the checkpoint beside it. The identity is the effective config without
// output and checkpoint settings, flattened to one line per value, plus the levelforge
// version, git commit and shard; differences are listed key by key.

#include <map>
#include <string>
#include <vector>

#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"

namespace levelforge {

using RunIdentity = std::map<std::string, std::string>;

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
