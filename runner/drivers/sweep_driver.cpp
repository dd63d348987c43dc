// The `sweep` driver: every rank pulls single tasks and runs the kernel once per task.

#include <chrono>

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

void run_sweep_driver(DriverContext& context) {
  const auto& experiment = context.experiment;
  const auto& sweep = *context.kernel.sweep;
  const auto task_count = experiment.task_count();

  std::vector<std::unique_ptr<SweepModel>> models;
  for (const auto& point : experiment.points) models.push_back(sweep.make(point.params));

  const RecordLayout layout(sweep.record_fields);
  std::vector<std::uint64_t> tasks;
  std::vector<std::byte> rows;
  WorkQueue queue(context.comm, task_count, context.idle);
  for (auto task = queue.next(); task < task_count; task = queue.next()) {
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto started = std::chrono::steady_clock::now();
    Rng rng({experiment.seed, Stream::sweep_run, task, 0, 0});
    const auto record = models[point]->run(rng);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
    tasks.push_back(task);
    rows.resize(rows.size() + layout.row_size());
    layout.pack(record, std::span(rows).last(layout.row_size()), context.kernel.name);
    context.tasks.add(experiment, task, wall.count(), context.comm.rank());
    ++context.work_units;
    queue.finished(1, 1);
    context.poll_progress(queue, task_count);
  }
  {
    const auto timer = context.idle.measure();
    context.comm.barrier();
  }
  context.finish_progress(queue);
  if (context.file == nullptr) return;

  auto table = context.file->create_table("sweep/records", layout, {task_count});
  context.file->write(table, tasks, rows);
}

}  // namespace levelforge
