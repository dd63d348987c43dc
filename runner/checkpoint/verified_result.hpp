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
#include "runner/checkpoint/session_builds.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/errors.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

// A file that is not what the command needs; the message names the file and the problem.
// Refused alike on every rank: exit 2.
class VerifyError : public InputError {
 public:
  using InputError::InputError;
};

// What a verified result file says about itself.
struct ResultHeader {
  std::string path;
  std::string config;  // the config text after overrides
  bool complete = false;
  std::optional<ShardSpec> shard;  // a shard's index and count
  std::int64_t sessions = 1;
  // The run identity of the file's config, shard, levelforge version and git commit, and of
  // its kernel's code.
  RunIdentity identity;
  // Which build ran each session (the `builds` attribute; for a file without one, its own
  // build for every session).
  SessionBuilds builds;
};

// One process: opens `path` once its seal matches and it is a levelforge result file of
// this format version. Throws VerifyError otherwise.
h5::File open_result(const std::string& path);
// One process: the header of a file opened by open_result. Throws VerifyError.
ResultHeader read_result_header(const h5::File& file);

// What a file found at an output path is to a run.
enum class ResultMatch {
  other,            // not a complete result of this run's experiment (`why` says what it is)
  this_run,         // its complete result, made by this build
  this_experiment,  // its complete result, made by another build (`why` lists the differences)
};

// One process: what the file at `path` is to the run `identity` (run_identity's). Reads
// nothing but the seal and the root attributes.
ResultMatch match_result(const std::string& path, const RunIdentity& identity, std::string& why);

}  // namespace levelforge
