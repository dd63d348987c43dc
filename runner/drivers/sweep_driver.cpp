// The `sweep` driver: every rank pulls single tasks and runs the kernel once per task.
// A rank saves the tasks it finished every `checkpoint.every` tasks; a resumed run restores
// them and hands out only the rest.

#include <chrono>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/output/compound.hpp"

namespace levelforge {

namespace {
constexpr const char* records_key = "sweep.records";
}  // namespace

void run_sweep_driver(DriverContext& context) {
  const auto& experiment = context.experiment;
  const auto& sweep = *context.kernel.sweep;
  const auto task_count = experiment.task_count();

  const auto& models = context.models.sweep();

  const RecordLayout layout(sweep.record_fields);
  std::vector<std::uint64_t> tasks;
  std::vector<std::byte> rows;
  std::vector<std::int64_t> restored_ids;
  for (const auto& segment : context.restored) {
    const auto ids = segment.ints(segment_key::tasks);
    const auto records = segment.bytes(records_key);
    if (records.size() != ids.size() * layout.row_size()) {
      throw CheckpointError("saved sweep records do not match their task list");
    }
    tasks.insert(tasks.end(), ids.begin(), ids.end());
    rows.insert(rows.end(), records.begin(), records.end());
    restored_ids.insert(restored_ids.end(), ids.begin(), ids.end());
    context.tasks.add_packed(ids, segment.bytes(segment_key::task_rows));
  }
  const auto done = context.restore_done(restored_ids);
  context.restored.clear();
  const auto todo = context.remaining(task_count, done, "task");

  auto pace = context.checkpoint_pace();
  std::size_t saved = tasks.size();
  auto save_new_tasks = [&] {
    if (saved == tasks.size() && context.failures.unsaved() == 0) return;
    Segment segment;
    context.tasks.save_since(saved, segment);
    segment.append_bytes(records_key, std::span(rows).subspan(saved * layout.row_size()));
    context.save(std::move(segment));
    saved = tasks.size();
    pace.saved();
  };

  std::vector<std::byte> row(layout.row_size());
  WorkQueue queue(context.comm, todo.size(), context.idle, {done.size(), done.size()});
  for (auto position = queue.next(); position < queue.count(); position = queue.next()) {
    const auto task = todo[position];
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto started = std::chrono::steady_clock::now();
    Rng rng({experiment.seed, Stream::sweep_run, task, 0, 0});
    const auto failure = context.attempt(
        task, [&] { layout.pack(models[point]->run(rng), row, context.kernel.name); });
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
    if (failure) {
      context.failures.add(
          {task, task, -1, -1, context.comm.rank(), context.session, wall.count(), *failure});
    } else {
      tasks.push_back(task);
      rows.insert(rows.end(), row.begin(), row.end());
      context.tasks.add(experiment,
                        {task, wall.count(), context.comm.rank(), 1, 0, context.session});
    }
    ++context.work_units;
    queue.finished(1, 1);
    if (pace.due(tasks.size() - saved + context.failures.unsaved())) save_new_tasks();
    if (StopSignal::requested()) queue.stop();
    context.poll_progress(queue, done.size() + todo.size());
  }
  if (context.end_work(queue, queue.stopped())) {
    save_new_tasks();
    return;
  }
  if (context.file == nullptr) return;

  // A failed task's record is missing: -1, NaN, empty.
  for (const auto& failure : context.failures.local()) {
    tasks.push_back(failure.task);
    rows.resize(rows.size() + layout.row_size());
    layout.fill_missing(std::span(rows).last(layout.row_size()));
  }
  auto table = context.file->create_table("sweep/records", layout, {task_count});
  context.file->write(table, tasks, rows);
}

Segment sweep_shard_segment(const h5::File& file, const KernelEntry& kernel) {
  auto finished = read_finished_tasks(file);
  Segment segment;
  read_failures(file, segment, [](std::uint64_t task, std::int64_t /*begin*/) { return task; });
  segment.put_bytes(
      records_key,
      read_task_blocks(file, "sweep/records",
                       compound_type(RecordLayout(kernel.sweep->record_fields)), finished.ids));
  segment.put_bytes(segment_key::task_rows, std::move(finished.rows));
  segment.put_ints(segment_key::tasks, std::move(finished.ids));
  return segment;
}

}  // namespace levelforge
