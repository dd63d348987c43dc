// The `sweep` driver: every rank pulls single tasks and runs the kernel once per task.
// A rank saves the tasks it finished every `checkpoint.every` tasks; a resumed run restores
// them and hands out only the rest.

#include <algorithm>
#include <chrono>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/task_datasets.hpp"

namespace levelforge {

namespace {

// The sweep driver's one per-task dataset: a record per task.
std::vector<TaskDataset> sweep_datasets(const SweepCapability& sweep) {
  return {task_table("sweep/records", RecordLayout(sweep.record_fields), {})};
}

}  // namespace

void run_sweep_driver(DriverContext& context) {
  const auto& experiment = context.experiment;
  const auto task_count = experiment.task_count();
  PointModelCache<SweepModel> models(experiment, context.kernel.sweep->make);

  const RecordLayout layout(context.kernel.sweep->record_fields);
  TaskBlocks records(sweep_datasets(*context.kernel.sweep));
  const auto restored_ids = context.restore_tasks(records).first;
  const auto done = context.restore_done(restored_ids);
  context.restored.clear();
  const auto todo = context.remaining(task_count, done, "task");

  auto pace = context.checkpoint_pace();
  std::size_t saved = records.size();
  auto save_new_tasks = [&] {
    if (saved == records.size() && context.failures.unsaved() == 0) return;
    Segment segment;
    context.tasks.save_since(saved, segment);
    records.save_since(saved, segment);
    context.save(std::move(segment));
    saved = records.size();
    pace.saved();
  };

  std::vector<std::byte> row(layout.row_size());
  WorkQueue queue(context.comm, todo.size(), context.idle, {done.size(), done.size()},
                  context.queue_options);
  for (auto position = queue.next(); position < queue.count(); position = queue.next()) {
    const auto task = todo[position];
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto started = std::chrono::steady_clock::now();
    Rng rng({experiment.seed, Stream::sweep_run, task, 0, 0});
    const auto failure = context.attempt(
        task, [&] { layout.pack(models.at(point).run(rng), row, context.kernel.name); });
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
    if (failure) {
      context.failures.add(
          {task, task, -1, -1, context.comm.rank(), context.session, wall.count(), *failure});
    } else {
      const auto block = records.add(task).front();
      std::copy(row.begin(), row.end(), block.begin());
      context.tasks.add(experiment,
                        {task, wall.count(), context.comm.rank(), 1, 0, context.session});
    }
    ++context.work_units;
    queue.finished(1, 1);
    if (pace.due(records.size() - saved + context.failures.unsaved())) save_new_tasks();
    if (StopSignal::requested()) queue.stop();
    context.poll_progress(queue, done.size() + todo.size());
  }
  if (context.end_work(queue, queue.stopped())) {
    save_new_tasks();
    return;
  }
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
