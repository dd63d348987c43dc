#include "runner/drivers/run.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>

#include "kernels/api/isa.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/drivers/memory_estimate.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/output/compound.hpp"
#include "runner/output/provenance.hpp"

namespace levelforge {

namespace {

// A swept value as a `points` cell: a bool as 0 or 1.
FieldValue point_column(const ParamValue& value) {
  struct Cell {
    FieldValue operator()(std::int64_t v) const { return v; }
    FieldValue operator()(double v) const { return v; }
    FieldValue operator()(bool v) const { return std::int64_t{v ? 1 : 0}; }
    FieldValue operator()(const std::string& v) const { return v; }
    FieldValue operator()(const ParamTable& /*unused*/) const {
      throw std::logic_error("a table parameter is never swept");
    }
  };
  return std::visit(Cell{}, value);
}

// The /points table: the swept values as columns named by key path.
RecordLayout points_layout(const config::Experiment& experiment) {
  std::vector<FieldSpec> fields{int_field("point", "point id")};
  const auto& first = experiment.points.front().swept_values;
  for (std::size_t k = 0; k < experiment.swept_keys.size(); ++k) {
    const auto& key = experiment.swept_keys[k];
    if (std::holds_alternative<double>(first[k])) {
      fields.push_back(real_field(key, "swept value"));
    } else if (std::holds_alternative<std::string>(first[k])) {
      std::size_t longest = 1;
      for (const auto& point : experiment.points) {
        longest = std::max(longest, std::get<std::string>(point.swept_values[k]).size());
      }
      fields.push_back(text_field(key, longest, "swept value"));
    } else {
      fields.push_back(int_field(key, "swept value (bool: 0 or 1)"));
    }
  }
  return RecordLayout(std::move(fields));
}

// One row per point, packed in points_layout.
std::vector<std::byte> point_rows(const config::Experiment& experiment) {
  const auto layout = points_layout(experiment);
  std::vector<std::byte> rows(experiment.points.size() * layout.row_size());
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    Record record{static_cast<std::int64_t>(p)};
    for (const auto& value : experiment.points[p].swept_values) {
      record.push_back(point_column(value));
    }
    layout.pack(record, std::span(rows).subspan(p * layout.row_size(), layout.row_size()),
                "points");
  }
  return rows;
}

void write_points(ResultFile& file, const config::Experiment& experiment, const mpi::Comm& comm) {
  const auto layout = points_layout(experiment);
  auto rows = point_rows(experiment);
  auto table = file.create_table("points", layout, {experiment.points.size()});
  // Every rank knows the points; rank 0 contributes them, the others take part.
  std::vector<std::uint64_t> point_rows;
  if (comm.rank() == 0) {
    point_rows.resize(experiment.points.size());
    std::iota(point_rows.begin(), point_rows.end(), std::uint64_t{0});
  } else {
    rows.clear();
  }
  file.write(table, point_rows, rows);
}

void write_provenance(ResultFile& file, const config::Experiment& experiment,
                      const KernelEntry& kernel, const mpi::Comm& comm,
                      const std::vector<std::string>& hosts, const std::string& start_time) {
  const auto attribute = [&file](const std::string& name, const auto& value) {
    file.write_attribute("", name, value);
  };
  attribute("levelforge_version", std::string(build_version()));
  attribute("git_commit", std::string(build_commit()));
  attribute("git_changes", std::string(build_changes()));
  const auto& code = kernel.code;
  attribute("kernel_version", code.version);
  attribute("kernel_commit", code.commit_text());
  attribute("kernel_sources", code.sources);
  attribute("config", experiment.config_text);
  attribute("effective_config", config::effective_yaml(experiment, config_schema()));
  attribute("experiment", experiment.name);
  attribute("kernel", experiment.kernel);
  attribute("driver", experiment.driver);
  attribute("seed", static_cast<std::int64_t>(experiment.seed));
  attribute("replicates", experiment.replicates);
  attribute("ranks", std::int64_t{comm.size()});
  attribute("hosts", hosts);
  attribute("start_time", start_time);
}

void write_shard_provenance(ResultFile& file, const RunOptions& options, std::int64_t session,
                            const std::vector<std::string>& builds) {
  file.write_attribute("", "sessions", session + 1);
  file.write_attribute("", "builds", builds);
  if (options.shard.sharded()) {
    file.write_attribute("", "shard_index", options.shard.index);
    file.write_attribute("", "shard_count", options.shard.count);
  }
  if (!options.merged_from.empty()) file.write_attribute("", "merged_from", options.merged_from);
}

// Per-rank timing: a row each, written by its own rank.
void write_rank_table(ResultFile& file, const mpi::Comm& comm, double wall, double idle,
                      std::uint64_t work_units) {
  constexpr std::size_t isa_text = 16;
  const RecordLayout layout(
      {int_field("rank", "world rank"), real_field("wall_time", "seconds in the driver"),
       real_field("idle_time", "seconds waiting for work or other ranks"),
       int_field("work_units", "kernel calls made by the rank"),
       text_field("simd_isa", isa_text, "the instruction set the rank's SIMD paths ran on")});
  std::vector<std::byte> row(layout.row_size());
  layout.pack({std::int64_t{comm.rank()}, wall, idle, static_cast<std::int64_t>(work_units),
               std::string(isa_name(best_isa()))},
              row, "ranks");
  const auto ranks = static_cast<hsize_t>(comm.size());
  auto table = file.create_table("ranks", layout, {ranks});
  const std::vector<std::uint64_t> own_row{static_cast<std::uint64_t>(comm.rank())};
  file.write(table, own_row, row);
}

// Distinct texts, sorted, joined by "; ".
std::string joined(const std::set<std::string>& texts) {
  std::string text;
  for (const auto& part : texts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

// The ranks' answers, each once, sorted and joined: the same on every rank, so that every
// writer writes the same attribute when a cluster's nodes differ.
std::string distinct_over_ranks(const mpi::Comm& comm, const std::string& local) {
  const auto answers = comm.all_gather_strings(local);
  return joined({answers.begin(), answers.end()});
}

// Which SIMD paths ran: the instruction set of each rank's CPU, and the kernel's path for
// each of the run's parameter sets (SimdKernel).
void write_simd_provenance(ResultFile& file, const config::Experiment& experiment,
                           const KernelEntry& kernel, const mpi::Comm& comm) {
  file.write_attribute("", "simd_isa",
                       distinct_over_ranks(comm, std::string(isa_name(best_isa()))));
  if (!kernel.simd_path) return;
  std::set<std::string> paths;
  for (const auto& point : experiment.points) paths.insert(kernel.simd_path(point.params));
  file.write_attribute("", "kernel_simd", distinct_over_ranks(comm, joined(paths)));
}

// What the checkpoint's manifest says of the segments: the layouts of the task rows, the
// failures and the driver's per-task blocks they pack, and the run's tables that the result
// file holds beside those (its points; per point, the genome length and the measure ranges),
// so that a run in progress is read without levelforge (docs/checkpoint.md).
SegmentDescription checkpoint_description(const BoundRun& run,
                                          const std::vector<PointFacts>& facts) {
  const auto& experiment = run.experiment;
  SegmentDescription description;
  auto& layouts = description.layouts;
  auto& tables = description.tables;
  layouts.push_back({segment_key::task_rows, compound_type(TaskLog::layout()), {}, "tasks", {}});
  layouts.push_back({segment_key::failures, compound_type(saved_failure_layout()), {}, {}, {}});
  for (const auto& dataset : run.driver.task_datasets(experiment, run.kernel, facts))
    layouts.push_back(dataset.packed_layout());
  tables.put_bytes("points", point_rows(experiment));
  layouts.push_back({"points", compound_type(points_layout(experiment)), {}, "points", {}});
  run.driver.describe_tables(experiment, facts, description);
  return description;
}

// A new checkpoint holding the work of the complete result at the output: its first
// segment, rank 0's restored work, is what the file holds, so that a retry of its failures
// interrupted in turn resumes from the checkpoint alone.
void seed_checkpoint_from_output(const BoundRun& run, const std::vector<PointFacts>& facts,
                                 const ShardSpec& shard, const mpi::Comm& comm,
                                 std::optional<CheckpointStore>& checkpoint) {
  const auto& experiment = run.experiment;
  std::int64_t sessions = 0;
  std::string builds;
  Segment work;
  const auto problem = mpi::root_verdict(comm, [&] {
    const auto file = open_result(experiment.output);
    const auto header = read_result_header(file);
    sessions = header.sessions;
    builds = header.builds.text();
    work = shard_segment(file, run, facts, shard);
  });
  if (!problem.empty()) throw CheckpointError("reading " + experiment.output + ": " + problem);
  comm.broadcast_value(sessions, 0);
  comm.broadcast(builds, 0);
  // The file's work as its last session's; the resume below is the next session, a retry.
  const auto description = checkpoint_description(run, facts);
  checkpoint.emplace(CheckpointStore::start(experiment, shard, comm, description, sessions - 1,
                                            SessionBuilds::from_text(builds)));
  if (comm.rank() == 0) checkpoint->save(work);
  comm.barrier();
  checkpoint.emplace(CheckpointStore::resume(experiment, shard, comm, description, true));
}

// " (the file system of results/ is full: 0 bytes free ...)" when little is left there.
// A merge keeps no checkpoint: it is run again as it was.
std::string full_disk_note(const std::string& output, bool merging) {
  auto folder = std::filesystem::path(output).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code error;
  const auto space = std::filesystem::space(folder, error);
  constexpr std::uintmax_t nearly_full = std::uintmax_t{1} << 20U;
  if (error || space.available >= nearly_full) return {};
  const auto next =
      merging ? std::string(
                    "the same `levelforge merge` again (the shards are "
                    "untouched; a merge keeps no checkpoint) writes it")
              : fmt::format("`{}` continues from the checkpoint", resume_command_text(output));
  return fmt::format(" (the file system of {} is full: {} bytes free; free space, then {})",
                     folder.string(), space.available, next);
}

ProgressReporter make_progress(const Driver& driver, const RunOptions& options,
                               const mpi::Comm& comm) {
  return {std::string(driver.unit()) + "s", std::string(driver.work_unit()),
          options.progress_interval_seconds,
          comm.rank() == 0 ? options.progress : ProgressStyle::none, stderr};
}

}  // namespace

BoundRun bind_run(const config::Experiment& experiment) {
  const auto* kernel = find_kernel(experiment.kernel);
  if (kernel == nullptr) {
    throw config::ConfigError("kernel '" + experiment.kernel + "' is not registered");
  }
  const auto* driver = find_driver(experiment.driver);
  if (driver == nullptr || !kernel->offers(experiment.driver)) {
    throw config::ConfigError("kernel '" + experiment.kernel + "' does not offer the driver '" +
                              experiment.driver + "'");
  }
  return {experiment, *kernel, *driver};
}

std::vector<PointFacts> check_runnable(const BoundRun& run) {
  const auto& experiment = run.experiment;
  std::vector<PointFacts> facts;
  facts.reserve(experiment.points.size());
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    try {
      facts.push_back(run.driver.point_facts(experiment, run.kernel, p));
    } catch (const KernelError& error) {
      throw config::ConfigError(describe_point(experiment, p) + ": " + error.what());
    }
  }
  return facts;
}

RunMemory run_memory(const BoundRun& run, int ranks, const std::vector<PointFacts>* facts) {
  const RunRows rows{TaskLog::layout().row_size() + sizeof(std::uint64_t),
                     points_layout(run.experiment).row_size()};
  return estimate_run_memory(run.experiment, run.kernel, run.driver, ranks, rows, facts);
}

Segment shard_segment(const h5::File& file, const BoundRun& run,
                      const std::vector<PointFacts>& facts, const ShardSpec& shard) {
  return run.driver.read_shard({file, run.experiment, run.kernel, facts, shard});
}

std::string host_memory_problem(const RunMemory& needed, int ranks_on_host) {
  const auto available = available_memory();
  return available ? memory_problem(needed, *available, ranks_on_host) : std::string();
}

void check_memory(const BoundRun& run, const std::string& source, const mpi::Comm& comm,
                  const std::vector<PointFacts>* facts) {
  const auto needed = run_memory(run, comm.size(), facts);
  // Ranks on one host share its memory; one of them reads it, so a host is reported once.
  const auto hosts = comm.all_gather_strings(mpi::processor_name());
  const auto& own_host = hosts[static_cast<std::size_t>(comm.rank())];
  const auto ranks_on_host = static_cast<int>(std::count(hosts.begin(), hosts.end(), own_host));
  const bool first_on_host =
      std::find(hosts.begin(), hosts.end(), own_host) - hosts.begin() == comm.rank();
  const auto local = first_on_host ? host_memory_problem(needed, ranks_on_host) : std::string();
  // Every rank learns every host's verdict, so all refuse together and none waits.
  const auto problems = mpi::all_problems(comm, local);
  if (!problems.empty()) throw config::ConfigError(source + ": " + problems);
}

namespace {

// run_experiment, with the result file where its error path can close it.
RunSummary run_into(const BoundRun& run, const std::vector<PointFacts>& facts, RunOptions options,
                    const mpi::Comm& comm, std::optional<ResultFile>& file) {
  const auto& experiment = run.experiment;
  const auto start_time = utc_now();
  const auto all_hosts = comm.all_gather_strings(mpi::processor_name());
  const std::set<std::string> distinct_hosts(all_hosts.begin(), all_hosts.end());
  const std::vector<std::string> hosts(distinct_hosts.begin(), distinct_hosts.end());
  const bool merging = !options.merged_from.empty();

  std::optional<CheckpointStore> checkpoint;
  RunSummary summary;
  if (options.write_output) {
    if (comm.rank() == 0) {
      const auto parent = std::filesystem::path(experiment.output).parent_path();
      std::error_code ignored;
      if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
    }
    comm.barrier();
    // Before the result file opens: a refused checkpoint then leaves no open parallel file.
    if (options.from_output) {
      seed_checkpoint_from_output(run, facts, options.shard, comm, checkpoint);
      summary.session = checkpoint->session();
    } else if (!merging) {
      const auto description = checkpoint_description(run, facts);
      checkpoint = options.resume
                       ? CheckpointStore::resume(experiment, options.shard, comm, description,
                                                 options.retry_failed)
                       : CheckpointStore::start(experiment, options.shard, comm, description);
      summary.session = checkpoint->session();
      // Said when it happens: a resume's start line is followed by what it restored.
      if (comm.rank() == 0) {
        for (const auto& note : checkpoint->notes()) fmt::print(stderr, "levelforge: {}\n", note);
      }
    }
    file.emplace(experiment.output, comm.dup(), all_hosts, options.writers);
    write_provenance(*file, experiment, run.kernel, comm, hosts, start_time);
    write_shard_provenance(*file, options, summary.session,
                           checkpoint ? checkpoint->builds().lines() : options.merged_builds);
    write_points(*file, experiment, comm);
  }

  auto progress = make_progress(run.driver, options, comm);
  TaskLog tasks;
  IdleClock idle;
  DriverContext context{experiment, run.kernel, facts, comm,         file ? &*file : nullptr,
                        progress,   tasks,      idle,  options.shard};
  context.queue_options = options.queue;
  context.checkpoint = checkpoint ? &*checkpoint : nullptr;
  context.restored = checkpoint ? checkpoint->take_restored() : std::move(options.merged);
  context.restored_is_complete = merging;
  context.session = summary.session;
  context.retry_before_session = checkpoint ? checkpoint->retry_before_session() : 0;
  const auto started = std::chrono::steady_clock::now();
  run.driver.run(context);
  {
    // A rank whose rows went to a writer leaves the driver while the writer still writes: its
    // wait for it is idle time too, and every rank's wall time then spans the same driver.
    // Asleep, so that where ranks share cores the writer has its core.
    const auto timer = idle.measure();
    (void)comm.all_reduce_max_asleep(0);
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;

  summary.tasks = experiment.task_count();
  summary.run_units = context.run_units;
  summary.shard_units = context.shard_units;
  summary.wall_seconds = comm.all_reduce_max(wall.count());
  summary.max_idle_fraction =
      comm.all_reduce_max(wall.count() > 0 ? idle.seconds() / wall.count() : 0.0);
  std::vector<std::int64_t> units{static_cast<std::int64_t>(context.work_units)};
  comm.all_reduce_sum(units);
  summary.work_units = static_cast<std::uint64_t>(units.front());
  summary.stopped = context.stopped;
  summary.stop_signal = context.stop_signal;
  if (context.stopped) {
    if (file) file->discard();
    return summary;
  }
  const auto failures = context.failures.gather(comm);
  summary.failures = failures.size();

  if (file) {
    tasks.write(*file, experiment.task_count());
    write_failures(*file, experiment, failures, comm);
    write_rank_table(*file, comm, wall.count(), idle.seconds(), context.work_units);
    file->write_attribute("", "end_time", utc_now());
    // Known once the driver ran: the queue reports how it was held.
    file->write_attribute("", "work_queue", context.work_queue);
    file->write_attribute("", "work_queue_claims",
                          std::string(claim_batches_name(options.queue.batches)));
    file->write_attribute("", "mpi_library", mpi::library_version());
    file->write_attribute("", "mpi_thread_level", mpi::thread_level());
    write_simd_provenance(*file, experiment, run.kernel, comm);
    file->write_attribute("", "ranks_per_writer", output_writers_name(options.writers));
    file->write_attribute("", "output_writers", static_cast<std::int64_t>(file->writers().size()));
    file->commit();
    if (checkpoint) checkpoint->remove();
  }
  return summary;
}

}  // namespace

RunSummary run_experiment(const BoundRun& run, const std::vector<PointFacts>& facts,
                          RunOptions options, const mpi::Comm& comm) {
  const auto& experiment = run.experiment;
  std::optional<ResultFile> file;
  const bool merging = !options.merged_from.empty();
  try {
    return run_into(run, facts, std::move(options), comm, file);
  } catch (const h5::IoError& error) {
    // HDF5 says only "file write failed"; a full disk is the usual reason, and says what to do.
    const auto note = full_disk_note(experiment.output, merging);
    if (file) file->remove_after_error();
    throw h5::IoError(error.what() + note);
  } catch (...) {
    if (file) file->remove_after_error();
    throw;
  }
}

}  // namespace levelforge
