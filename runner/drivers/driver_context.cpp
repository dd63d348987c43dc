#include "runner/drivers/driver_context.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

#include "kernels/api/rng.hpp"
#include "runner/checkpoint/stop_signal.hpp"
#include "runner/output/compound.hpp"

namespace levelforge {

RecordLayout TaskLog::layout() {
  return RecordLayout({int_field("task", "task id: point * replicates + replicate"),
                       int_field("point", "sweep point, a row of /points"),
                       int_field("replicate", "replicate of the point, from 0"),
                       int_field("seed", "the task's derived seed (63 bits)"),
                       int_field("status", "0 pending, 1 done, 2 failed (see /failures)"),
                       int_field("units",
                                 "work units of the task: evaluations (ga), runs (sweep), indices "
                                 "(exhaustive)"),
                       real_field("wall_time", "seconds the task took (timing column)"),
                       int_field("rank", "world rank that wrote the task (rank column)"),
                       int_field("session",
                                 "run session that finished the task: 0 the first, n the n-th "
                                 "resume (provenance column)"),
                       int_field("units_before",
                                 "units restored from a checkpoint or shard rather than done "
                                 "in that session (provenance column)")});
}

void TaskLog::add(const config::Experiment& experiment, const TaskEntry& entry) {
  const auto replicates = static_cast<std::uint64_t>(experiment.replicates);
  const auto task_layout = layout();
  tasks_.push_back(entry.task);
  rows_.resize(rows_.size() + task_layout.row_size());
  task_layout.pack(
      {static_cast<std::int64_t>(entry.task), static_cast<std::int64_t>(entry.task / replicates),
       static_cast<std::int64_t>(entry.task % replicates),
       static_cast<std::int64_t>(derived_task_seed(experiment.seed, entry.task) >> 1U),
       entry.status, static_cast<std::int64_t>(entry.units), entry.wall_seconds,
       std::int64_t{entry.rank}, entry.session, static_cast<std::int64_t>(entry.units_before)},
      std::span(rows_).last(task_layout.row_size()), "task table");
}

void TaskLog::add_packed(std::span<const std::int64_t> tasks, std::span<const std::byte> rows) {
  if (rows.size() != tasks.size() * layout().row_size()) {
    throw CheckpointError(
        fmt::format("saved task rows: {} bytes for {} tasks", rows.size(), tasks.size()));
  }
  for (const auto task : tasks) tasks_.push_back(static_cast<std::uint64_t>(task));
  rows_.insert(rows_.end(), rows.begin(), rows.end());
}

std::uint64_t TaskLog::units_of(std::span<const std::byte> rows) {
  const auto task_layout = layout();
  const auto units_field = task_layout.index_of("units");
  std::uint64_t units = 0;
  for (std::size_t offset = 0; offset + task_layout.row_size() <= rows.size();
       offset += task_layout.row_size()) {
    units += static_cast<std::uint64_t>(
        task_layout.get_int(rows.subspan(offset, task_layout.row_size()), units_field));
  }
  return units;
}

void TaskLog::save_since(std::size_t from, Segment& segment) const {
  const auto size = layout().row_size();
  std::vector<std::int64_t> ids(tasks_.begin() + static_cast<std::ptrdiff_t>(from), tasks_.end());
  segment.append_ints(segment_key::tasks, ids);
  segment.append_bytes(segment_key::task_rows,
                       std::span(rows_).subspan(from * size, (tasks_.size() - from) * size));
}

void TaskLog::write(ResultFile& file, std::uint64_t task_count) const {
  // A task this file does not hold (another shard's) is pending: status 0, the rest missing.
  const auto task_layout = layout();
  std::vector<std::byte> pending(task_layout.row_size());
  task_layout.fill_missing(pending);
  task_layout.set_int(pending, task_layout.index_of("status"), 0);
  auto table = file.create_table("tasks", task_layout, {task_count}, std::move(pending));
  file.write(table, tasks_, rows_);
}

void DriverContext::poll_progress(WorkQueue& queue, std::uint64_t units_total) {
  if (comm.rank() != 0 || !progress.due()) return;
  progress.report(
      {queue.items_done(), queue.total(), queue.units_done(), units_total, queue.prior().units});
}

void DriverContext::save(Segment segment) {
  if (checkpoint == nullptr) return;
  failures.save_into(segment);
  if (!segment.empty()) checkpoint->save(std::move(segment));
}

std::pair<std::vector<std::int64_t>, std::uint64_t> DriverContext::restore_tasks(
    TaskBlocks& results) {
  std::vector<std::int64_t> ids;
  std::uint64_t units = 0;
  for (const auto& segment : restored) {
    results.absorb(segment);
    const auto segment_ids = segment.ints(segment_key::tasks);
    const auto rows = segment.bytes(segment_key::task_rows);
    ids.insert(ids.end(), segment_ids.begin(), segment_ids.end());
    tasks.add_packed(segment_ids, rows);
    units += TaskLog::units_of(rows);
  }
  return {std::move(ids), units};
}

std::string DriverContext::stop_on_kernel_error(const std::string& error) const {
  if (checkpoint == nullptr) return error;
  try {
    checkpoint->save_stop_error(error);
  } catch (const std::exception& unsaved) {
    return fmt::format(
        "{}\nthe checkpoint could not keep this error ({}); its finished work is "
        "kept in {}: {}",
        error, unsaved.what(), checkpoint->directory(),
        ways_on_after_kernel_error(experiment.output));
  }
  return fmt::format("{}\nthe finished work is kept in {}: {}", error, checkpoint->directory(),
                     ways_on_after_kernel_error(experiment.output));
}

void DriverContext::log_failed_tasks(std::uint64_t units) {
  for (const auto& failure : failures.local()) {
    tasks.add(experiment, {failure.task, failure.wall_seconds, static_cast<int>(failure.rank),
                           units, 0, failure.session, TaskEntry::task_failed});
  }
}

std::vector<std::uint64_t> DriverContext::restore_done(std::span<const std::int64_t> succeeded) {
  auto done = gather_ids(succeeded);
  const auto failed = failures.restore(restored, done, retry_before_session, comm);
  std::vector<std::uint64_t> all;
  all.reserve(done.size() + failed.size());
  std::merge(done.begin(), done.end(), failed.begin(), failed.end(), std::back_inserter(all));
  return all;
}

std::string describe_point(const config::Experiment& experiment, std::size_t point) {
  std::string text = "point " + std::to_string(point);
  for (std::size_t k = 0; k < experiment.swept_keys.size(); ++k) {
    text += (k == 0 ? " (" : ", ") + experiment.swept_keys[k] + "=" +
            format_value(experiment.points[point].swept_values[k]);
  }
  return experiment.swept_keys.empty() ? text : text + ")";
}

std::string describe_task(const config::Experiment& experiment, std::uint64_t task) {
  const auto replicates = static_cast<std::uint64_t>(experiment.replicates);
  return fmt::format("task {} ({}, replicate {})", task,
                     describe_point(experiment, static_cast<std::size_t>(task / replicates)),
                     task % replicates);
}

std::vector<std::uint64_t> DriverContext::gather_ids(std::span<const std::int64_t> local) const {
  const auto all = comm.all_gather_bytes(std::as_bytes(local));
  std::vector<std::uint64_t> ids(all.size() / sizeof(std::int64_t));
  if (!ids.empty()) std::memcpy(ids.data(), all.data(), ids.size() * sizeof(std::int64_t));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<std::uint64_t> DriverContext::remaining(std::uint64_t total,
                                                    const std::vector<std::uint64_t>& done,
                                                    const char* unit_name) {
  if (!done.empty() && done.back() >= total) {
    throw CheckpointError(fmt::format("the saved work names {} {}, but this run has only {}",
                                      unit_name, done.back(), total));
  }
  std::vector<std::uint64_t> left;
  for (std::uint64_t unit = 0; unit < total; ++unit) {
    if (shard.owns(unit) && !std::binary_search(done.begin(), done.end(), unit))
      left.push_back(unit);
  }
  if (restored_is_complete && !left.empty()) {
    const auto shown = static_cast<std::ptrdiff_t>(std::min<std::size_t>(left.size(), 8));
    throw CheckpointError(fmt::format(
        "the shards do not cover the run: {} {}s missing ({}{}); merge needs every shard",
        left.size(), unit_name, fmt::join(left.begin(), left.begin() + shown, ", "),
        std::ssize(left) > shown ? ", ..." : ""));
  }
  run_units = total;
  shard_units = done.size() + left.size();
  // Said here, where every driver learns what its checkpoint restored: of this shard's units.
  if (checkpoint != nullptr && session > 0 && comm.rank() == 0) {
    fmt::print(stderr, "levelforge: resumed: {} of {} {}{} restored\n", done.size(), shard_units,
               unit_name, shard_units == 1 ? "" : "s");
  }
  return left;
}

bool DriverContext::end_work(WorkQueue& queue, bool local_stop) {
  // The signal's number when this rank got one: a signal may reach a single rank only.
  std::int64_t local = local_stop ? 1 : 0;
  if (StopSignal::requested()) local = std::max<std::int64_t>(1, StopSignal::signal_number());
  std::int64_t any_stop = 0;
  {
    const auto timer = idle.measure();
    any_stop = comm.all_reduce_max_asleep(local);
  }
  stopped = any_stop != 0 && queue.items_done() < queue.total();
  stop_signal = static_cast<int>(any_stop);
  if (!stopped && comm.rank() == 0) {
    // Early stops (ga.stop_fitness) leave planned units undone: at the end, done is all.
    const auto units = queue.units_done();
    progress.finish({queue.items_done(), queue.total(), units, units, queue.prior().units});
  }
  work_queue = queue.description();
  queue.close();
  return stopped;
}

FinishedTasks read_finished_tasks(const h5::File& file) {
  const auto layout = TaskLog::layout();
  const auto dataset = file.root().open_dataset("tasks");
  std::vector<std::byte> all(static_cast<std::size_t>(dataset.element_count()) * layout.row_size());
  dataset.read_all(compound_type(layout), all.data());
  const auto status = layout.index_of("status");
  FinishedTasks finished;
  for (std::size_t offset = 0; offset < all.size(); offset += layout.row_size()) {
    const auto row = std::span(all).subspan(offset, layout.row_size());
    if (layout.get_int(row, status) != 1) continue;
    finished.ids.push_back(static_cast<std::int64_t>(offset / layout.row_size()));
    finished.rows.insert(finished.rows.end(), row.begin(), row.end());
  }
  return finished;
}

Segment read_task_shard(const ShardReading& shard, const TaskBlocks& results) {
  auto finished = read_finished_tasks(shard.file);
  Segment segment;
  read_failures(shard.file, segment,
                [](std::uint64_t task, std::int64_t /*begin*/) { return task; });
  results.read(shard.file, shard.experiment.task_count(), finished.ids, segment);
  segment.put_bytes(segment_key::task_rows, std::move(finished.rows));
  segment.put_ints(segment_key::tasks, std::move(finished.ids));
  return segment;
}

}  // namespace levelforge
