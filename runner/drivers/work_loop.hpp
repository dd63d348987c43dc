#pragma once
// The one loop every driver's work runs through. Ranks, alone or in groups, pull units (tasks,
// chunks) from the work queue; the loop runs each through DriverContext::attempt, records
// failures, saves segments at the checkpoint's pace, stops on a signal, reports progress and
// ends the work on every rank together. A driver gives what is its own (UnitWork): how a unit
// runs, what it keeps of a finished one and what of that a segment holds.

#include <cstdint>
#include <optional>
#include <vector>

#include "runner/checkpoint/segment.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/work_queue.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

struct UnitOutcome {
  bool stopped = false;  // the group stopped the unit early (a signal): nothing to keep
  std::uint64_t work = 0;
  std::uint64_t work_before = 0;  // restored from the saved state it resumed from
};

// Where a failed unit lies in its task: the indices [begin, end) of a chunk; -1, -1 for a task.
struct UnitRange {
  std::int64_t begin = -1;
  std::int64_t end = -1;
};

class WorkLoop;

class UnitWork {
 public:
  UnitWork() = default;
  UnitWork(const UnitWork&) = delete;
  UnitWork& operator=(const UnitWork&) = delete;
  UnitWork(UnitWork&&) = delete;
  UnitWork& operator=(UnitWork&&) = delete;
  virtual ~UnitWork() = default;

  [[nodiscard]] virtual std::uint64_t task_of(std::uint64_t unit) const = 0;
  // The work units `unit` plans (runs, indices, a task's evaluations): progress's total.
  [[nodiscard]] virtual std::uint64_t work_of(std::uint64_t unit) const = 0;
  [[nodiscard]] virtual UnitRange range_of(std::uint64_t /*unit*/) const { return {}; }
  // Runs `unit` on `loop`'s group; the kernel's exceptions pass through.
  virtual UnitOutcome run(std::uint64_t unit, WorkLoop& loop) = 0;
  // The group's leader: `unit` ended after `seconds`; `outcome` is nullptr when it failed.
  virtual void ended(std::uint64_t unit, const UnitOutcome* outcome, double seconds) = 0;
  // The group's leader: what it kept since its last segment goes into `segment`.
  virtual void save_kept(Segment& segment) = 0;
};

struct UnitPlan {
  const char* unit_name = "task";  // in messages: "task", "chunk"
  std::uint64_t unit_count = 0;    // of the whole run, every shard's
  // Units of earlier sessions (DriverContext::restore_done) and the work they did.
  std::vector<std::uint64_t> done;
  std::uint64_t work_done = 0;
  // Set: ranks run each unit in groups of `DRIVER.ranks_per_task` (0: as many groups as units
  // while ranks suffice), which report their steps and work as they go (step_done). Unset:
  // every rank runs units alone, each unit one step whose planned work it counts when it ends.
  std::optional<std::int64_t> ranks_per_unit;
};

class WorkLoop {
 public:
  // Collective over the context's communicator.
  WorkLoop(DriverContext& context, UnitWork& work, UnitPlan plan);
  WorkLoop(const WorkLoop&) = delete;
  WorkLoop& operator=(const WorkLoop&) = delete;
  WorkLoop(WorkLoop&&) = delete;
  WorkLoop& operator=(WorkLoop&&) = delete;
  ~WorkLoop() = default;

  // Collective: runs the units left. False when the run stops here for a checkpoint (a signal
  // with work left), its segments saved; true when the work is over.
  bool run();

  // The ranks that run the current unit together; only where the plan has groups.
  [[nodiscard]] const mpi::Comm& group() const { return *group_; }
  [[nodiscard]] bool leader() const { return leader_; }
  [[nodiscard]] IdleClock& idle() const { return context_.idle; }
  // The size of each group, in order, for the drivers that record them.
  [[nodiscard]] std::vector<std::int64_t> group_sizes() const;

  // A step (a generation) of the unit in progress ended, `work` of the whole group's in it.
  void step_done(std::uint64_t work);
  // Whether the checkpoint's pace asks for a segment now.
  [[nodiscard]] bool save_due() const;
  // Every member: the leader saves what it kept since its last segment with `in_progress`, the
  // state of the unit in progress (or nothing).
  void save(const Segment* in_progress);

 private:
  void poll_progress();

  DriverContext& context_;
  UnitWork& work_;
  UnitPlan plan_;
  std::vector<std::uint64_t> todo_;
  std::uint64_t work_total_ = 0;
  int groups_ = 1;
  std::optional<mpi::Comm> group_;
  bool leader_ = true;
  WorkQueue queue_;
  CheckpointPace pace_;
  std::uint64_t steps_unsaved_ = 0;
  std::uint64_t kept_unsaved_ = 0;
};

}  // namespace levelforge
