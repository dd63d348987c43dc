#pragma once
// The drivers whose tasks are run by groups of ranks (`ga`, `qd`): ranks form groups of
// consecutive ranks; each group pulls whole tasks from the work queue and splits every
// step's evaluations among its members (docs/drivers.md, "GA rank groups"). A driver gives
// how one task runs and how its state in progress is saved; the pulling, checkpoints,
// resumption and failures are here, once.

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/drivers/work_loop.hpp"
#include "runner/engine/evaluation_group.hpp"

namespace levelforge {

// Segment keys of a task's saved state that the loop reads; the driver adds its own.
namespace snapshot_key {
inline constexpr const char* evaluations = "snapshot.evaluations";
}  // namespace snapshot_key

// A task's saved state in a segment: its task (segment_key::snapshot_tasks), the steps it ran
// (snapshot_generations), the evaluations it made (snapshot_key::evaluations), and the
// driver's own lists of the state, each under its key.
template <class Snapshot>
struct SnapshotCodec {
  const char* driver = "";  // "GA", "QD": in the message of a state that is incomplete
  std::int64_t Snapshot::*steps = nullptr;
  std::uint64_t Snapshot::*evaluations = nullptr;
  std::vector<std::pair<const char*, std::vector<std::int64_t> Snapshot::*>> ints;
  std::vector<std::pair<const char*, std::vector<std::byte> Snapshot::*>> bytes;

  [[nodiscard]] Segment encode(std::uint64_t task, const Snapshot& snapshot) const {
    Segment segment;
    segment.put_ints(segment_key::snapshot_tasks, {static_cast<std::int64_t>(task)});
    segment.put_ints(segment_key::snapshot_generations, {snapshot.*steps});
    segment.put_ints(snapshot_key::evaluations, {static_cast<std::int64_t>(snapshot.*evaluations)});
    for (const auto& [key, list] : ints) segment.put_ints(key, snapshot.*list);
    for (const auto& [key, list] : bytes) segment.put_bytes(key, snapshot.*list);
    return segment;
  }

  // Throws CheckpointError when the steps or the evaluations are missing.
  [[nodiscard]] Snapshot decode(const Segment& segment) const {
    const auto saved_steps = segment.ints(segment_key::snapshot_generations);
    const auto saved_evaluations = segment.ints(snapshot_key::evaluations);
    if (saved_steps.size() != 1 || saved_evaluations.size() != 1) {
      throw CheckpointError(std::string("a saved ") + driver + " task state is incomplete");
    }
    Snapshot snapshot;
    snapshot.*steps = saved_steps.front();
    snapshot.*evaluations = static_cast<std::uint64_t>(saved_evaluations.front());
    for (const auto& [key, list] : ints) {
      const auto saved = segment.ints(key);
      snapshot.*list = {saved.begin(), saved.end()};
    }
    for (const auto& [key, list] : bytes) {
      const auto saved = segment.bytes(key);
      snapshot.*list = {saved.begin(), saved.end()};
    }
    return snapshot;
  }
};

// A task's engine on the ranks of the work loop's group: each step's evaluations split among
// them, its end reported to the loop, its state saved when the loop's pace asks.
template <class Snapshot>
class MpiEvaluationGroup final : public EvaluationGroupOf<Snapshot> {
 public:
  using Encode = std::function<Segment(const Snapshot&)>;

  MpiEvaluationGroup(WorkLoop& loop, Encode encode) : loop_(loop), encode_(std::move(encode)) {}

  [[nodiscard]] std::size_t rank() const override {
    return static_cast<std::size_t>(comm().rank());
  }
  [[nodiscard]] std::size_t size() const override {
    return static_cast<std::size_t>(comm().size());
  }

  void all_gather(std::span<const std::byte> local, std::span<std::byte> all) override {
    const auto timer = loop_.idle().measure();
    comm().all_gather_into(local, all);
  }

  std::string first_failure(const std::string& local) override {
    if (comm().size() == 1) return local;
    const auto timer = loop_.idle().measure();
    if (comm().all_reduce_max(static_cast<std::int64_t>(!local.empty())) == 0) return {};
    const auto messages = comm().all_gather_strings(local);
    return *std::find_if(messages.begin(), messages.end(),
                         [](const std::string& message) { return !message.empty(); });
  }

  void generation_done(std::uint64_t evaluations) override { loop_.step_done(evaluations); }

  // A signal on any member stops the task for all of them.
  GenerationCheck after_generation(std::int64_t /*generations_run*/) override {
    auto stop = static_cast<std::int64_t>(StopSignal::requested());
    if (comm().size() > 1) {
      const auto timer = loop_.idle().measure();
      stop = comm().all_reduce_max(stop);
    }
    return {stop != 0 || loop_.save_due(), stop != 0};
  }

  // Only the leader encodes and writes: members may decide differently by the clock.
  void save(const Snapshot& snapshot) override {
    if (!loop_.leader()) {
      loop_.save(nullptr);
      return;
    }
    const auto segment = encode_(snapshot);
    loop_.save(&segment);
  }

 private:
  [[nodiscard]] const mpi::Comm& comm() const { return loop_.group(); }

  WorkLoop& loop_;
  Encode encode_;
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

template <class Snapshot>
struct GroupTaskPlan {
  std::vector<std::uint64_t> point_units;  // evaluations of one uninterrupted task, per point
  std::int64_t ranks_per_task = 0;
  SnapshotCodec<Snapshot> codec;
  // Runs `task` of `point` with `group`, from `saved` (its newest saved state, or nullptr);
  // when it finishes, the group's leader fills `blocks` (the task's result blocks).
  std::function<UnitOutcome(std::uint64_t task, std::uint64_t point, const Snapshot* saved,
                            EvaluationGroupOf<Snapshot>& group,
                            const std::function<std::vector<std::span<std::byte>>()>& blocks)>
      run;
};

// A unit is a task, run by a group of ranks from its newest saved state; the leader keeps its
// result blocks and /tasks row.
template <class Snapshot>
class GroupTaskWork final : public UnitWork {
 public:
  GroupTaskWork(DriverContext& context, TaskBlocks& results, const GroupTaskPlan<Snapshot>& plan,
                const std::map<std::uint64_t, Segment>& snapshots)
      : context_(context),
        results_(results),
        plan_(plan),
        snapshots_(snapshots),
        saved_(results.size()) {}

  [[nodiscard]] std::uint64_t task_of(std::uint64_t unit) const override { return unit; }
  [[nodiscard]] std::uint64_t work_of(std::uint64_t task) const override {
    return plan_.point_units[point_of(task)];
  }

  UnitOutcome run(std::uint64_t task, WorkLoop& loop) override {
    MpiEvaluationGroup<Snapshot> group(
        loop, [&](const Snapshot& snapshot) { return plan_.codec.encode(task, snapshot); });
    std::optional<Snapshot> resume;
    if (const auto saved = snapshots_.find(task); saved != snapshots_.end())
      resume = plan_.codec.decode(saved->second);
    return plan_.run(task, point_of(task), resume ? &*resume : nullptr, group,
                     [&] { return results_.add(task); });
  }

  void ended(std::uint64_t task, const UnitOutcome* outcome, double seconds) override {
    if (outcome == nullptr) return;
    context_.tasks.add(context_.experiment, {task, seconds, context_.comm.rank(), outcome->work,
                                             outcome->work_before, context_.session});
  }

  void save_kept(Segment& segment) override {
    context_.tasks.save_since(saved_, segment);
    results_.save_since(saved_, segment);
    saved_ = results_.size();
  }

 private:
  [[nodiscard]] std::uint64_t point_of(std::uint64_t task) const {
    return task / static_cast<std::uint64_t>(context_.experiment.replicates);
  }

  DriverContext& context_;
  TaskBlocks& results_;
  const GroupTaskPlan<Snapshot>& plan_;
  const std::map<std::uint64_t, Segment>& snapshots_;
  std::size_t saved_;
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
  const auto task_count = context.experiment.task_count();
  // Earlier sessions' work: finished tasks stay with the rank that read them; the newest
  // state of each unfinished one goes to every rank.
  const auto [restored_ids, finished_units] = context.restore_tasks(results);
  auto restored_units = static_cast<std::int64_t>(finished_units);
  auto done = context.restore_done(restored_ids);
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

  GroupTaskWork<Snapshot> work(context, results, plan, snapshots);
  WorkLoop loop(context, work,
                {"task", task_count, std::move(done),
                 static_cast<std::uint64_t>(prior_units.front()), plan.ranks_per_task});
  if (!loop.run()) return std::nullopt;
  context.log_failed_tasks(0);
  if (context.file == nullptr) return std::nullopt;
  // A failed task's rows are missing, as those of a point that keeps fewer.
  for (const auto& failure : context.failures.local()) (void)results.add(failure.task);
  results.write(*context.file, task_count);
  return loop.group_sizes();
}

}  // namespace levelforge
