// The `sweep` driver: every rank pulls single tasks and runs the kernel once per task.
// A rank saves the tasks it finished every `checkpoint.every` tasks; a resumed run restores
// them and hands out only the rest.

#include "runner/drivers/sweep/sweep_driver.hpp"

#include <algorithm>

#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/drivers/work_loop.hpp"

namespace levelforge {

namespace {

// The sweep driver's one per-task dataset: a record per task.
std::vector<TaskDataset> sweep_datasets(const SweepSpec::Binding& sweep) {
  return {task_table("sweep/records", RecordLayout(sweep.record_fields), {})};
}

const SweepSpec::Binding& sweep_of(const KernelEntry& kernel) {
  return *kernel.binding<SweepSpec>();
}

// A unit is a task: one run of the kernel, its record kept.
class SweepWork final : public UnitWork {
 public:
  SweepWork(DriverContext& context, TaskBlocks& records)
      : context_(context),
        models_(context.experiment, sweep_of(context.kernel).make),
        layout_(sweep_of(context.kernel).record_fields),
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

const Driver& SweepSpec::driver() {
  static const SweepDriver driver;
  return driver;
}

void SweepDriver::run(DriverContext& context) const {
  const auto& experiment = context.experiment;
  const auto task_count = experiment.task_count();
  TaskBlocks records(sweep_datasets(sweep_of(context.kernel)));
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
PointFacts SweepDriver::point_facts(const config::Experiment& experiment, const KernelEntry& kernel,
                                    std::size_t point) const {
  (void)sweep_of(kernel).make(experiment.points[point].params);
  return {};
}

std::vector<TaskDataset> SweepDriver::task_datasets(
    const config::Experiment& /*experiment*/, const KernelEntry& kernel,
    const std::vector<PointFacts>& /*facts*/) const {
  return sweep_datasets(sweep_of(kernel));
}

Segment SweepDriver::read_shard(const ShardReading& shard) const {
  return read_task_shard(shard, TaskBlocks(sweep_datasets(sweep_of(shard.kernel))));
}

}  // namespace levelforge
