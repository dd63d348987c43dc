#include "runner/drivers/driver_context.hpp"

#include "kernels/api/rng.hpp"

namespace levelforge {

RecordLayout TaskLog::layout() {
  return RecordLayout({int_field("task", "task id: point * replicates + replicate"),
                       int_field("point", "sweep point, a row of /points"),
                       int_field("replicate", "replicate of the point, from 0"),
                       int_field("seed", "the task's derived seed (63 bits)"),
                       int_field("status", "0 pending, 1 done"),
                       real_field("wall_time", "seconds the task took (timing column)"),
                       int_field("rank", "world rank that wrote the task (rank column)")});
}

void TaskLog::add(const config::Experiment& experiment, std::uint64_t task, double wall_seconds,
                  int rank) {
  const auto replicates = static_cast<std::uint64_t>(experiment.replicates);
  const auto task_layout = layout();
  tasks_.push_back(task);
  rows_.resize(rows_.size() + task_layout.row_size());
  task_layout.pack({static_cast<std::int64_t>(task), static_cast<std::int64_t>(task / replicates),
                    static_cast<std::int64_t>(task % replicates),
                    static_cast<std::int64_t>(derived_task_seed(experiment.seed, task) >> 1U),
                    std::int64_t{1}, wall_seconds, std::int64_t{rank}},
                   std::span(rows_).last(task_layout.row_size()), "task table");
}

void TaskLog::write(ResultFile& file, std::uint64_t task_count) const {
  auto table = file.create_table("tasks", layout(), {task_count});
  file.write(table, tasks_, rows_);
}

void DriverContext::poll_progress(WorkQueue& queue, std::uint64_t units_total) {
  if (comm.rank() != 0 || !progress.due()) return;
  progress.report({queue.items_done(), queue.total(), queue.units_done(), units_total});
}

void DriverContext::finish_progress(WorkQueue& queue) {
  if (comm.rank() != 0) return;
  // Early stops (ga.stop_fitness) leave planned units undone: at the end, done is all.
  const auto units = queue.units_done();
  progress.finish({queue.items_done(), queue.total(), units, units});
}

}  // namespace levelforge
