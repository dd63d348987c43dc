#pragma once
// The one check of an existing result file that every command makes before it reads,
// skips, replaces or deletes anything on the strength of it (`run`, `resume`, `merge`,
// `inspect`, `maze`): its seal matches, it is a levelforge result of this format version,
// and, where a command needs it, it is complete and of a given run.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

// A file that is not what the command needs; the message names the file and the problem.
class VerifyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a verified result file says about itself.
struct ResultHeader {
  std::string path;
  std::string config;  // the config text after overrides
  bool complete = false;
  std::optional<ShardSpec> shard;  // a shard's index and count
  std::int64_t sessions = 1;
  // The run identity of the file's config, shard, levelforge version and git commit.
  RunIdentity identity;
};

// One process: opens `path` once its seal matches and it is a levelforge result file of
// this format version. Throws VerifyError otherwise.
h5::File open_result(const std::string& path);
// One process: the header of a file opened by open_result. Throws VerifyError.
ResultHeader read_result_header(const h5::File& file);

// One process: whether the file at `path` is the complete result of the run `identity`
// (run_identity's); when it is not, `why` says what it is instead. Reads nothing but the
// seal and the root attributes.
bool is_complete_result_of(const std::string& path, const RunIdentity& identity, std::string& why);

}  // namespace levelforge
