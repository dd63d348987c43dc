#pragma once
// What every driver gets: the experiment, the kernel, the communicator, the result file
// (absent when output is disabled), the checkpoint, and the bookkeeping shared by all
// drivers.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/driver.hpp"
#include "runner/drivers/failure_log.hpp"
#include "runner/drivers/idle_clock.hpp"
#include "runner/drivers/point_facts.hpp"
#include "runner/drivers/progress.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/drivers/work_queue.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/errors.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge {

// One row of /tasks before packing.
struct TaskEntry {
  std::uint64_t task;
  double wall_seconds;
  int rank;
  std::uint64_t units;         // work units of the whole task
  std::uint64_t units_before;  // of those, restored from a checkpoint or a shard
  std::int64_t session;        // the run session that finished the task
  std::int64_t status = task_done;

  static constexpr std::int64_t task_done = 1;
  static constexpr std::int64_t task_failed = 2;  // on_error: record; see /failures
};

// "task 7 (point 3 (width=8, fill=0.3), replicate 1)"
std::string describe_task(const config::Experiment& experiment, std::uint64_t task);
// "point 3 (width=8, fill=0.3)"
std::string describe_point(const config::Experiment& experiment, std::size_t point);

// A kernel call of a task that threw: the run ends (on_error: abort, the default) with this,
// which names the task; or the task is recorded in /failures (on_error: record). This rank's:
// the job is aborted, exit 1.
class TaskError : public RankError {
 public:
  using RankError::RankError;
};

// The rows of /tasks this rank is responsible for.
class TaskLog {
 public:
  static RecordLayout layout();
  void add(const config::Experiment& experiment, const TaskEntry& entry);
  // Rows packed elsewhere (a checkpoint, a shard), in the order of `tasks`.
  void add_packed(std::span<const std::int64_t> tasks, std::span<const std::byte> rows);
  [[nodiscard]] std::size_t size() const { return tasks_.size(); }
  // The sum of the `units` column over packed rows.
  static std::uint64_t units_of(std::span<const std::byte> rows);
  // Rows [from, size()) as they go into a segment.
  void save_since(std::size_t from, Segment& segment) const;
  // Collective.
  void write(ResultFile& file, std::uint64_t task_count) const;

 private:
  std::vector<std::uint64_t> tasks_;
  std::vector<std::byte> rows_;
};

// When a rank (a GA group) saves the work it has not saved yet: every `checkpoint.every`
// units, or, with every 0, at the first unit boundary `checkpoint.seconds` after its last
// segment. Never when the run keeps no checkpoint.
class CheckpointPace {
 public:
  CheckpointPace(const config::Experiment& experiment, bool enabled)
      : every_(experiment.checkpoint_every),
        interval_(std::chrono::seconds(experiment.checkpoint_seconds)),
        enabled_(enabled) {}

  [[nodiscard]] bool due(std::uint64_t units_unsaved) const {
    if (!enabled_ || units_unsaved == 0) return false;
    if (every_ > 0) return units_unsaved >= static_cast<std::uint64_t>(every_);
    return std::chrono::steady_clock::now() - last_ >= interval_;
  }
  void saved() { last_ = std::chrono::steady_clock::now(); }

 private:
  std::int64_t every_;
  std::chrono::steady_clock::duration interval_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

struct DriverContext {
  const config::Experiment& experiment;
  const KernelEntry& kernel;
  const std::vector<PointFacts>& facts;  // of each point, from check_points
  const mpi::Comm& comm;
  ResultFile* file;  // nullptr: output disabled
  ProgressReporter& progress;
  TaskLog& tasks;
  IdleClock& idle;
  ShardSpec shard{};
  QueueOptions queue_options{};
  std::string work_queue{};               // set by end_work: how the queue's counters were held
  CheckpointStore* checkpoint = nullptr;  // nullptr: no checkpoints (no output, merge)
  std::vector<Segment> restored{};        // this rank's share of earlier sessions' work
  // Merge: the restored work must be the whole run; nothing may be left to do.
  bool restored_is_complete = false;
  std::int64_t session = 0;
  // Failures restored from sessions before this one run again (a retry's first session; 0:
  // none do).
  std::int64_t retry_before_session = 0;
  FailureLog failures{};
  std::uint64_t work_units = 0;  // kernel calls made by this rank, for the timing table
  bool stopped = false;          // set by the driver: stopped on a signal with work left
  int stop_signal = 0;           // the signal any rank got (the largest number), 0: none
  // Set by remaining(): the run's units (tasks or chunks, every shard's), and this shard's.
  std::uint64_t run_units = 0;
  std::uint64_t shard_units = 0;

  // Rank 0 reports when due; every rank may call it.
  void poll_progress(WorkQueue& queue, std::uint64_t units_total);

  [[nodiscard]] CheckpointPace checkpoint_pace() const {
    return {experiment, checkpoint != nullptr};
  }
  // With this rank's unsaved failures added.
  void save(Segment segment);

  // Runs `call`, a kernel call of `task`. Returns the kernel's message when it throws and
  // the run records failures; throws TaskError naming the task when it does not. Errors of
  // the runner itself (levelforge::Error: MPI, HDF5, checkpoints) pass through, as raised by
  // this rank alone: no other rank runs this unit.
  // `place()` narrows the task down in that message (", indices 0 to 999"); it is called
  // only when the kernel threw.
  template <class Call, class Place = std::string (*)()>
  std::optional<std::string> attempt(
      std::uint64_t task, Call&& call, Place&& place = [] { return std::string(); }) {
    try {
      std::forward<Call>(call)();
      return std::nullopt;
    } catch (Error& error) {
      error.raised_by_this_rank_alone();
      throw;
    } catch (const std::exception& error) {
      if (!experiment.record_failures) {
        throw TaskError(
            stop_on_kernel_error(describe_task(experiment, task) + place() + ": " + error.what()));
      }
      return std::string(error.what());
    }
  }

  // A kernel's exception under on_error: abort, `error` naming where it was thrown: the
  // checkpoint keeps it for `inspect` and the next resume, and the message the run ends with
  // adds the checkpoint's commands that keep the finished work.
  [[nodiscard]] std::string stop_on_kernel_error(const std::string& error) const;

  // After the work of a driver whose unit is the task: a /tasks row for each failed task this
  // rank holds, with `units` work units.
  void log_failed_tasks(std::uint64_t units);

  // Collective: the union of every rank's `local` ids, sorted.
  [[nodiscard]] std::vector<std::uint64_t> gather_ids(std::span<const std::int64_t> local) const;
  // For a driver whose unit is the task: the tasks of this rank's restored segments go into
  // `results` and the task log. Returns their ids and the work units they hold.
  [[nodiscard]] std::pair<std::vector<std::int64_t>, std::uint64_t> restore_tasks(
      TaskBlocks& results);

  // Collective, before `restored` is cleared: the units earlier sessions did on any rank,
  // sorted: those in `succeeded` (this rank's) and those that failed (unless retried).
  [[nodiscard]] std::vector<std::uint64_t> restore_done(std::span<const std::int64_t> succeeded);
  // The units 0..total-1 of this shard that are not in `done` (sorted), in order. Throws
  // CheckpointError when the run must be complete and is not. A resumed run's rank 0 says
  // how many of the shard's units were restored. Sets run_units and shard_units.
  [[nodiscard]] std::vector<std::uint64_t> remaining(std::uint64_t total,
                                                     const std::vector<std::uint64_t>& done,
                                                     const char* unit_name);
  // Collective, after the work loop: whether the run stops here for a checkpoint (a signal
  // arrived on some rank and work is left), recorded in `stopped`; if not, the final
  // progress line. Frees the queue either way.
  bool end_work(WorkQueue& queue, bool local_stop);
};

// ---- reading a shard's result file back as the work it did (for `merge`) ----

// The finished tasks of a result file: ids, their packed /tasks rows, and their positions.
struct FinishedTasks {
  std::vector<std::int64_t> ids;
  std::vector<std::byte> rows;
};
FinishedTasks read_finished_tasks(const h5::File& file);
// For a driver whose unit is the task: its finished tasks, their blocks of `results`'s
// datasets and its failures.
Segment read_task_shard(const ShardReading& shard, const TaskBlocks& results);

}  // namespace levelforge
