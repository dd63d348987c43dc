// The `sweep` driver: every rank pulls single tasks and runs the kernel once per task.
// A rank saves the tasks it finished every `checkpoint.every` tasks; a resumed run restores
// them and hands out only the rest.

#include <algorithm>

#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/drivers/work_loop.hpp"

namespace levelforge {

namespace {

// The sweep driver's one per-task dataset: a record per task.
std::vector<TaskDataset> sweep_datasets(const SweepCapability& sweep) {
  return {task_table("sweep/records", RecordLayout(sweep.record_fields), {})};
}

// A unit is a task: one run of the kernel, its record kept.
class SweepWork final : public UnitWork {
 public:
  SweepWork(DriverContext& context, TaskBlocks& records)
      : context_(context),
        models_(context.experiment, context.kernel.sweep->make),
        layout_(context.kernel.sweep->record_fields),
        records_(records),
        row_(layout_.row_size()),
        saved_(records.size()) {}

  [[nodiscard]] std::uint64_t task_of(std::uint64_t unit) const override { return unit; }
  [[nodiscard]] std::uint64_t work_of(std::uint64_t /*unit*/) const override { return 1; }

  UnitOutcome run(std::uint64_t task, WorkLoop& /*loop*/) override {
    const auto point = task / static_cast<std::uint64_t>(context_.experiment.replicates);
    Rng rng({context_.experiment.seed, Stream::sweep_run, task, 0, 0});
    layout_.pack(models_.at(point).run(rng), row_, context_.kernel.name);
    return {false, 1, 0};
  }

  void ended(std::uint64_t task, const UnitOutcome* outcome, double seconds) override {
    if (outcome == nullptr) return;
    const auto block = records_.add(task).front();
    std::copy(row_.begin(), row_.end(), block.begin());
    context_.tasks.add(context_.experiment,
                       {task, seconds, context_.comm.rank(), 1, 0, context_.session});
  }

  void save_kept(Segment& segment) override {
    context_.tasks.save_since(saved_, segment);
    records_.save_since(saved_, segment);
    saved_ = records_.size();
  }

 private:
  DriverContext& context_;
  PointModelCache<SweepModel> models_;
  RecordLayout layout_;
  TaskBlocks& records_;
  std::vector<std::byte> row_;
  std::size_t saved_;
};

}  // namespace

void run_sweep_driver(DriverContext& context) {
  const auto& experiment = context.experiment;
  const auto task_count = experiment.task_count();
  TaskBlocks records(sweep_datasets(*context.kernel.sweep));
  const auto restored_ids = context.restore_tasks(records).first;
  auto done = context.restore_done(restored_ids);
  context.restored.clear();
  const auto work_done = done.size();
  SweepWork work(context, records);
  if (!WorkLoop(context, work, {"task", task_count, std::move(done), work_done, std::nullopt})
           .run())
    return;
  context.log_failed_tasks(1);
  if (context.file == nullptr) return;

  // A failed task's record is missing: -1, NaN, empty.
  for (const auto& failure : context.failures.local()) (void)records.add(failure.task);
  records.write(*context.file, task_count);
}

// A sweep keeps nothing of a point: its model is built to check its parameters.
PointFacts sweep_point_facts(const config::Experiment& experiment, const KernelEntry& kernel,
                             std::size_t point) {
  (void)kernel.sweep->make(experiment.points[point].params);
  return {};
}

std::vector<TaskDataset> sweep_task_datasets(const config::Experiment& /*experiment*/,
                                             const KernelEntry& kernel,
                                             const std::vector<PointFacts>& /*facts*/) {
  return sweep_datasets(*kernel.sweep);
}

Segment sweep_shard_segment(const ShardReading& shard) {
  return read_task_shard(
      shard, TaskBlocks(sweep_task_datasets(shard.experiment, shard.kernel, shard.facts)));
}

}  // namespace levelforge
