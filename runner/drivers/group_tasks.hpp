#pragma once
// The drivers whose tasks are run by groups of ranks (`ga`, `qd`): ranks form groups of
// consecutive ranks; each group pulls whole tasks from the work queue and splits every
// step's evaluations among its members (docs/drivers.md, "GA rank groups"). A driver gives
// how one task runs and how its state in progress is saved; the pulling, checkpoints,
// resumption and failures are here, once.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/engine/evaluation_group.hpp"

namespace levelforge {

// Segment keys of a task's saved state that the loop reads; the driver adds its own.
namespace snapshot_key {
inline constexpr const char* evaluations = "snapshot.evaluations";
}  // namespace snapshot_key

template <class Snapshot>
class MpiEvaluationGroup final : public EvaluationGroupOf<Snapshot> {
 public:
  using Saver = std::function<void(const Snapshot*)>;

  // `progress` is called after every generation (rank 0 reports when a report is due).
  MpiEvaluationGroup(mpi::Comm comm, WorkQueue& queue, IdleClock& idle, CheckpointPace pace,
                     Saver saver, std::function<void()> progress)
      : comm_(std::move(comm)),
        queue_(queue),
        idle_(idle),
        pace_(pace),
        saver_(std::move(saver)),
        progress_(std::move(progress)) {}

  [[nodiscard]] std::size_t rank() const override { return static_cast<std::size_t>(comm_.rank()); }
  [[nodiscard]] std::size_t size() const override { return static_cast<std::size_t>(comm_.size()); }

  void all_gather(std::span<const std::byte> local, std::span<std::byte> all) override {
    const auto timer = idle_.measure();
    comm_.all_gather_into(local, all);
  }

  std::string first_failure(const std::string& local) override {
    if (comm_.size() == 1) return local;
    const auto timer = idle_.measure();
    if (comm_.all_reduce_max(static_cast<std::int64_t>(!local.empty())) == 0) return {};
    const auto messages = comm_.all_gather_strings(local);
    return *std::find_if(messages.begin(), messages.end(),
                         [](const std::string& message) { return !message.empty(); });
  }

  void generation_done(std::uint64_t evaluations) override {
    const auto [begin, end] = share_of(evaluations, rank(), size());
    local_evaluations_ += end - begin;
    ++generations_unsaved_;
    if (comm_.rank() == 0) queue_.finished(0, evaluations);
    progress_();
  }

  // A signal on any member stops the task for all of them.
  GenerationCheck after_generation(std::int64_t /*generations_run*/) override {
    auto stop = static_cast<std::int64_t>(StopSignal::requested());
    if (comm_.size() > 1) {
      const auto timer = idle_.measure();
      stop = comm_.all_reduce_max(stop);
    }
    return {stop != 0 || save_due(), stop != 0};
  }

  void save(const Snapshot& snapshot) override { save_now(&snapshot); }

  // Between tasks: finished tasks go into a segment once the interval is full.
  void save_if_due() {
    if (save_due()) save_now(nullptr);
  }

  // Evaluations this member made itself, over all tasks so far.
  [[nodiscard]] std::uint64_t local_evaluations() const { return local_evaluations_; }

  [[nodiscard]] const mpi::Comm& comm() const { return comm_; }

 private:
  // Only the leader writes, so members may decide differently by the clock: harmless.
  [[nodiscard]] bool save_due() const { return pace_.due(generations_unsaved_); }

  void save_now(const Snapshot* snapshot) {
    if (comm_.rank() == 0) saver_(snapshot);
    generations_unsaved_ = 0;
    pace_.saved();
  }

  mpi::Comm comm_;
  WorkQueue& queue_;
  IdleClock& idle_;
  CheckpointPace pace_;
  Saver saver_;
  std::function<void()> progress_;
  std::uint64_t local_evaluations_ = 0;
  std::uint64_t generations_unsaved_ = 0;
};

// The group size holds for the whole run: `DRIVER.ranks_per_task` of `point` must be the first
// point's. Throws config::ConfigError otherwise.
inline void check_group_size_not_swept(const config::Experiment& experiment, std::size_t point) {
  const auto& settings = experiment.points[point].driver;
  if (settings.integer("ranks_per_task") != experiment.points[0].driver.integer("ranks_per_task")) {
    throw config::ConfigError(experiment.driver +
                              ".ranks_per_task cannot be swept: one value holds for the whole run");
  }
}

// Groups that evaluate tasks side by side: one per task while ranks suffice (auto), or
// as many groups of the configured size as the ranks allow.
inline int group_count(std::int64_t ranks_per_task, int ranks, std::uint64_t tasks) {
  if (ranks_per_task > 0) return std::max(1, static_cast<int>(ranks / ranks_per_task));
  return static_cast<int>(std::clamp<std::uint64_t>(tasks, 1, static_cast<std::uint64_t>(ranks)));
}

// The newest saved state of each unfinished task, from every rank's restored segments: any
// group may pick the task up.
inline std::map<std::uint64_t, Segment> gather_snapshots(const std::vector<Segment>& restored,
                                                         const std::vector<std::uint64_t>& finished,
                                                         const mpi::Comm& comm) {
  std::vector<std::byte> local;
  for (const auto& segment : restored) {
    const auto tasks = segment.ints(segment_key::snapshot_tasks);
    if (tasks.size() != 1) continue;
    const auto task = static_cast<std::uint64_t>(tasks.front());
    if (std::binary_search(finished.begin(), finished.end(), task)) continue;
    const auto bytes = segment.serialize();
    const std::uint64_t size = bytes.size();
    const auto* header = reinterpret_cast<const std::byte*>(&size);
    local.insert(local.end(), header, header + sizeof size);
    local.insert(local.end(), bytes.begin(), bytes.end());
  }
  const auto all = comm.all_gather_bytes(local);
  std::map<std::uint64_t, Segment> newest;
  for (std::size_t offset = 0; offset < all.size();) {
    std::uint64_t size = 0;
    std::memcpy(&size, all.data() + offset, sizeof size);
    offset += sizeof size;
    auto segment = Segment::deserialize(std::span(all).subspan(offset, size));
    offset += size;
    const auto task = static_cast<std::uint64_t>(segment.ints(segment_key::snapshot_tasks).front());
    const auto found = newest.find(task);
    if (found == newest.end() || found->second.ints(segment_key::snapshot_generations).front() <
                                     segment.ints(segment_key::snapshot_generations).front()) {
      newest.insert_or_assign(task, std::move(segment));
    }
  }
  return newest;
}

// How one task of a driver runs inside the loop.
struct GroupTaskOutcome {
  bool stopped = false;  // the group stopped the task early (a signal): nothing to keep
  std::uint64_t evaluations = 0;
  std::uint64_t evaluations_before = 0;  // restored from the saved state it resumed from
};

template <class Snapshot>
struct GroupTaskPlan {
  std::vector<std::uint64_t> point_units;  // evaluations of one uninterrupted task, per point
  std::int64_t ranks_per_task = 0;
  // The task in progress as a segment: snapshot_key::evaluations, segment_key's
  // snapshot_tasks and snapshot_generations (steps done), and the driver's own keys.
  std::function<Segment(std::uint64_t task, const Snapshot& snapshot)> snapshot_segment;
  // Runs `task` of `point` with `group`, from `saved` (its newest saved state, or nullptr);
  // when it finishes, the group's leader fills `blocks` (the task's result blocks).
  std::function<GroupTaskOutcome(std::uint64_t task, std::uint64_t point, const Segment* saved,
                                 EvaluationGroupOf<Snapshot>& group,
                                 const std::function<std::vector<std::span<std::byte>>()>& blocks)>
      run;
};

// Collective: runs every task of the run (restored ones skipped), saving checkpoints as the
// context's pace asks, and writes `results` (a failed task's blocks missing). Returns the
// size of each group for the driver's own datasets, or nothing when there is nothing to
// write: the work ended early (a signal, or a failure that aborts the run) or the run
// writes no file.
template <class Snapshot>
std::optional<std::vector<std::int64_t>> run_group_tasks(DriverContext& context,
                                                         TaskBlocks& results,
                                                         const GroupTaskPlan<Snapshot>& plan) {
  const auto& experiment = context.experiment;
  const auto task_count = experiment.task_count();
  const auto& point_units = plan.point_units;
  // Earlier sessions' work: finished tasks stay with the rank that read them; the newest
  // state of each unfinished one goes to every rank.
  const auto [restored_ids, finished_units] = context.restore_tasks(results);
  auto restored_units = static_cast<std::int64_t>(finished_units);
  const auto done = context.restore_done(restored_ids);
  // A retried task starts over: its saved state came before what made it fail.
  auto skipped = done;
  const auto& retried = context.failures.retried();
  skipped.insert(skipped.end(), retried.begin(), retried.end());
  std::sort(skipped.begin(), skipped.end());
  const auto snapshots = gather_snapshots(context.restored, skipped, context.comm);
  context.restored.clear();
  for (const auto& [task, segment] : snapshots) {
    if (context.comm.rank() == 0) restored_units += segment.ints(snapshot_key::evaluations).front();
  }
  std::vector<std::int64_t> prior_units{restored_units};
  context.comm.all_reduce_sum(prior_units);
  const auto todo = context.remaining(task_count, done, "task");
  std::uint64_t units_total = 0;
  for (std::uint64_t task = 0; task < task_count; ++task) {
    if (context.shard.owns(task))
      units_total += point_units[task / static_cast<std::uint64_t>(experiment.replicates)];
  }

  const int groups = group_count(plan.ranks_per_task, context.comm.size(), todo.size());
  // Contiguous blocks of ranks (neighbours on a node), sizes differing by at most one.
  const int color = static_cast<int>(static_cast<std::int64_t>(context.comm.rank()) * groups /
                                     context.comm.size());
  WorkQueue queue(context.comm, todo.size(), context.idle,
                  {done.size(), static_cast<std::uint64_t>(prior_units.front())},
                  context.queue_options);
  std::size_t saved = results.size();
  std::uint64_t current_task = 0;
  // The group leader's segment: tasks finished since the last one, and the task in progress.
  auto save_segment = [&](const Snapshot* snapshot) {
    if (snapshot == nullptr && saved == results.size() && context.failures.unsaved() == 0) return;
    Segment segment =
        snapshot != nullptr ? plan.snapshot_segment(current_task, *snapshot) : Segment();
    context.tasks.save_since(saved, segment);
    results.save_since(saved, segment);
    saved = results.size();
    context.save(std::move(segment));
  };
  MpiEvaluationGroup<Snapshot> group(context.comm.split(color, context.comm.rank()), queue,
                                     context.idle, context.checkpoint_pace(), save_segment,
                                     [&] { context.poll_progress(queue, units_total); });
  const bool leader = group.rank() == 0;

  bool stopped = false;
  for (;;) {
    std::uint64_t position = 0;
    if (leader) {
      if (StopSignal::requested()) queue.stop();
      position = queue.next();
    }
    {
      const auto timer = context.idle.measure();
      group.comm().broadcast_value(position, 0);
    }
    if (position >= todo.size()) break;
    const auto task = todo[position];
    current_task = task;
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto started = std::chrono::steady_clock::now();
    const auto saved_state = snapshots.find(task);
    GroupTaskOutcome outcome;
    // Every member fails alike (the group agrees on evaluations), except in the leader's own
    // work at the end (validation, rendering), which the other members do not wait for.
    const auto failure = context.attempt(task, [&] {
      outcome =
          plan.run(task, point, saved_state == snapshots.end() ? nullptr : &saved_state->second,
                   group, [&] { return results.add(task); });
    });
    if (failure) {
      if (leader) {
        const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
        context.failures.add(
            {task, task, -1, -1, context.comm.rank(), context.session, wall.count(), *failure});
        queue.finished(1, 0);
      }
      group.save_if_due();
      context.poll_progress(queue, units_total);
      continue;
    }
    if (outcome.stopped) {
      if (leader) queue.stop();
      stopped = true;
      break;
    }
    if (leader) {
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
      context.tasks.add(experiment, {task, wall.count(), context.comm.rank(), outcome.evaluations,
                                     outcome.evaluations_before, context.session});
      queue.finished(1, 0);
    }
    group.save_if_due();
    context.poll_progress(queue, units_total);
  }
  if (context.end_work(queue, stopped || queue.stopped())) {
    if (leader) save_segment(nullptr);
    return std::nullopt;
  }
  context.work_units = group.local_evaluations();
  context.log_failed_tasks(0);
  if (context.file == nullptr) return std::nullopt;
  // A failed task's rows are missing, as those of a point that keeps fewer.
  for (const auto& failure : context.failures.local()) (void)results.add(failure.task);
  results.write(*context.file, task_count);
  std::vector<std::int64_t> group_sizes(static_cast<std::size_t>(groups), 0);
  for (std::int64_t rank = 0; rank < context.comm.size(); ++rank) {
    ++group_sizes[static_cast<std::size_t>(rank * groups / context.comm.size())];
  }
  return group_sizes;
}

}  // namespace levelforge
