#pragma once
// The checkpoint of a run: a directory OUTPUT.checkpoint/ beside the result file, holding
// a manifest (what run this is: config, seed, version, shard; how many sessions ran) and
// segment files, each written by one rank and holding the work it finished since its
// previous segment. Segments only ever add work, so a run killed at any moment loses at
// most what its ranks did since their last segment; a segment being written when the
// process died is left as a .tmp file and discarded on resume. See docs/checkpoint.md.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/checkpoint/session_builds.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/errors.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

// A checkpoint that cannot be used: another run's, unreadable, inconsistent. The message
// says which file and what was lost. Raised identically on every rank: exit 2.
class CheckpointError : public InputError {
 public:
  using InputError::InputError;
};

// Names shared by the drivers' segments and `inspect`.
namespace segment_key {
inline constexpr const char* tasks = "tasks";          // finished tasks (ga, sweep)
inline constexpr const char* task_rows = "task_rows";  // their /tasks rows
inline constexpr const char* chunks = "chunks";        // finished chunks (exhaustive)
inline constexpr const char* chunk_total = "chunk_total";
inline constexpr const char* snapshot_tasks = "snapshot.tasks";  // ga tasks saved mid-run
inline constexpr const char* snapshot_generations = "snapshot.generations";
// Failed units (on_error: record): tasks (ga, sweep) or chunks (exhaustive), done but failed.
inline constexpr const char* failed_units = "failed_units";
inline constexpr const char* failures = "failures";  // their rows, see FailureLog
inline constexpr const char* failure_messages = "failure_messages";
// The kernel's error that stopped a session under on_error: abort (a stop segment's only key).
inline constexpr const char* stop_error = "stop_error";
}  // namespace segment_key

std::string checkpoint_directory(const std::string& output);

// The command that continues the run of `output`, quoted for the shell: "levelforge resume
// 'my results/x.h5'" and `extra` (e.g. " --retry-failed").
std::string resume_command_text(const std::string& output, const std::string& extra = {});

// The two ways on after a kernel's error stopped the run of `output` under on_error: abort:
// "`levelforge resume FILE --set on_error=record` records this failure and goes on; ...".
std::string ways_on_after_kernel_error(const std::string& output);

// What stands at a checkpoint path before a run, as rank 0 finds it. Only the kinds
// levelforge made (unstarted, levelforge, unusable) are ever deleted, and only on request.
struct CheckpointFound {
  enum class Kind {
    absent,      // nothing there
    unstarted,   // a folder with nothing saved: stopped before its first manifest, or while
                 // remove_checkpoint emptied it
    levelforge,  // a checkpoint with a readable manifest
    unusable,    // levelforge's manifest, but damaged or of another format version
    foreign,     // not made by levelforge: a file, or a folder without a manifest
  };
  Kind kind = Kind::absent;
  std::string problem;  // unusable, foreign: what is wrong, naming the path
};
CheckpointFound find_checkpoint(const std::string& directory);

// Deletes the checkpoint folder `directory`, its manifest last: a process killed meanwhile
// leaves a checkpoint still known as levelforge's (its manifest, fewer segments) or an
// empty folder, never segments without their manifest, which every command must refuse.
void remove_checkpoint(const std::string& directory);

// What `levelforge resume OUTPUT` needs to run again what a checkpoint holds.
struct SavedRun {
  std::string config;  // the config text after overrides
  ShardSpec shard;
  RunIdentity identity;
  // A retry of failures in progress (`--retry-failed`, stopped): its first session, whose
  // earlier sessions' failures run again; -1 when none.
  std::int64_t retry_session = -1;
};
// One process; throws CheckpointError when `directory` is not a readable checkpoint.
SavedRun read_saved_run(const std::string& directory);

// What a checkpoint directory says about its run, for `inspect` and messages.
struct CheckpointSummary {
  std::string directory;
  std::string experiment;
  std::string driver;
  std::string shard;
  std::int64_t sessions = 0;
  std::uint64_t tasks_total = 0;
  std::string unit;               // the driver's unit of work: "task", "chunk"
  std::uint64_t units_total = 0;  // 0 until known: chunks are counted by the first segment
  std::uint64_t units_done = 0;
  std::uint64_t failed = 0;  // of the done units, those that failed
  // Failed units of the sessions before a retry in progress, which it runs again: not done.
  std::uint64_t to_retry = 0;
  std::int64_t retry_session = -1;                                  // SavedRun's
  std::vector<std::pair<std::uint64_t, std::int64_t>> in_progress;  // ga: task, generations
  std::size_t segments = 0;
  std::size_t unfinished_files = 0;  // .tmp: being written when the run died
  // The kernel's errors that stopped the last session (on_error: abort), each once; empty
  // when it was stopped otherwise (a signal, a kill) or still runs.
  std::vector<std::string> stop_errors;
};

// One process; throws CheckpointError when `directory` is not a readable checkpoint.
CheckpointSummary summarize_checkpoint(const std::string& directory);
// "12 of 40 tasks done in 2 sessions", in the driver's unit.
std::string describe_progress(const CheckpointSummary& summary);

// What a manifest tells a reader outside levelforge (docs/checkpoint.md): the layout of all
// that the segments and `tables` pack, and the run's tables that do not depend on its work
// (its points, their genome lengths and measure ranges), which the manifest holds too.
struct SegmentDescription {
  std::vector<PackedLayout> layouts;
  Segment tables;
};

class CheckpointStore {
 public:
  // Collective. Creates the directory and its manifest for `session` (0 for a new run; a
  // retry of a complete result's failures continues its sessions, after `earlier` builds).
  static CheckpointStore start(const config::Experiment& experiment, const ShardSpec& shard,
                               const mpi::Comm& comm, const SegmentDescription& description,
                               std::int64_t session = 0, const SessionBuilds& earlier = {});
  // Collective. Continues the checkpoint of `experiment`'s output: checks that it was made
  // by the same experiment and shard, and by this build unless `retry_failed` (a retry after
  // a fix runs with the new build, and both are recorded), CheckpointError listing the
  // differences otherwise; that every segment is whole and of that run; reads this rank's
  // share of them, and only then starts a new session: a refused resume changes nothing.
  // With `retry_failed` the new session is a retry: the failures of every earlier session
  // run again; without, a retry in progress goes on (retry_before_session).
  static CheckpointStore resume(const config::Experiment& experiment, const ShardSpec& shard,
                                const mpi::Comm& comm, const SegmentDescription& description,
                                bool retry_failed = false);

  [[nodiscard]] std::int64_t session() const { return session_; }
  // Failures of sessions before this one run again (a retry's first session); 0: none do.
  [[nodiscard]] std::int64_t retry_before_session() const { return retry_before_; }
  // Which build ran each session, this one included.
  [[nodiscard]] const SessionBuilds& builds() const { return builds_; }
  [[nodiscard]] const std::string& directory() const { return directory_; }
  // What resume() read on this rank; each segment is read by exactly one rank.
  [[nodiscard]] std::vector<Segment> take_restored() { return std::move(restored_); }
  // Messages for the user about the resume (discarded .tmp files), rank 0's to print.
  [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }

  // This rank alone: the next segment file of this rank and session, stamped with the run's
  // identity.
  void save(Segment segment);
  // This rank alone: the kernel's error that stops the session (on_error: abort), in a
  // segment of its own that `inspect` and the next resume find by its name.
  void save_stop_error(const std::string& message);
  // Collective: the run is complete; the directory goes.
  void remove();

 private:
  CheckpointStore(std::string directory, mpi::Comm comm, std::int64_t session, std::string identity,
                  SessionBuilds builds, std::int64_t retry_before);

  std::string directory_;
  mpi::Comm comm_;
  std::int64_t session_;
  std::string identity_;  // encode_identity's text, in every segment
  SessionBuilds builds_;
  std::int64_t retry_before_ = 0;
  std::int64_t next_sequence_ = 0;
  std::vector<Segment> restored_;
  std::vector<std::string> notes_;
};

}  // namespace levelforge
