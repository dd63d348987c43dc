// `levelforge inspect FILE`: provenance, sweep, tasks and datasets of a result file, or how
// much of an interrupted run its checkpoint holds.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/output_lock.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/config/suggest.hpp"
#include "runner/drivers/driver.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/drivers/summary_text.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/output/provenance.hpp"
#include "runner/output/result_file.hpp"
#include "runner/output/table_reader.hpp"

namespace levelforge::cli {

namespace {

// How much `inspect` prints: rows of the points, tasks and result tables (0: none, and no
// config text either).
struct InspectDetail {
  std::size_t rows = 20;
  bool config = true;
};

std::string type_text(const h5::Datatype& type) {
  switch (type.type_class()) {
    case h5::TypeClass::compound: return "table(" + config::join(type.member_names()) + ")";
    case h5::TypeClass::integer:
      return fmt::format("{}int{}", type.is_unsigned() ? "u" : "", 8 * type.size());
    case h5::TypeClass::floating: return fmt::format("float{}", 8 * type.size());
    case h5::TypeClass::string: return fmt::format("string[{}]", type.size());
    case h5::TypeClass::other: return "other";
  }
  return "other";
}

void list_datasets(const h5::Group& group, const std::string& prefix) {
  for (const auto& name : group.children()) {
    auto path = prefix;
    path.append("/").append(name);
    const auto kind = group.kind_of(name);
    if (kind == h5::ObjectKind::group) {
      list_datasets(group.open_group(name), path);
      continue;
    }
    if (kind != h5::ObjectKind::dataset) {
      fmt::print("  {:<36} (not a dataset or group)\n", path);
      continue;
    }
    const auto dataset = group.open_dataset(name);
    std::string shape;
    for (auto dim : dataset.dims()) shape += (shape.empty() ? "" : " x ") + std::to_string(dim);
    fmt::print("  {:<36} [{}] {}\n", path, shape, type_text(dataset.datatype()));
  }
}

void print_provenance(const h5::Group& root) {
  for (const auto* key :
       {"experiment", "kernel", "driver", "levelforge_version", "git_commit", "git_changes",
        "kernel_version", "kernel_commit", "kernel_sources", "start_time", "end_time"}) {
    // git_changes is empty for a build of a clean checkout.
    if (!root.has_attribute(key)) continue;
    const auto value = root.read_string_attribute(key);
    if (!value.empty()) fmt::print("{:<20} {}\n", key, value);
  }
  for (const auto* key : {"seed", "replicates", "ranks"}) {
    if (root.has_attribute(key)) fmt::print("{:<20} {}\n", key, root.read_int_attribute(key));
  }
  if (root.has_attribute("hosts")) {
    fmt::print("{:<20} {}\n", "hosts", config::join(root.read_strings_attribute("hosts")));
  }
  // Listed when sessions ran on different builds (a retry after a fix).
  if (root.has_attribute("builds")) {
    const auto builds = root.read_strings_attribute("builds");
    if (builds.size() > 1) {
      for (const auto& build : builds) fmt::print("{:<20} {}\n", "build", build);
    }
  }
}

// Who is writing `output` right now, as its lock says.
void print_lock_holder(const std::string& output) {
  if (const auto holder = lock_holder(output))
    fmt::print("{:<20} {}\n", "in use by", holder->describe());
}

void print_task_summary(const TableData& tasks, std::size_t rows) {
  const auto status = tasks.field("status");
  const auto wall = tasks.field("wall_time");
  std::size_t done = 0;
  std::size_t failed = 0;
  std::vector<double> times;
  for (std::size_t i = 0; i < tasks.row_count(); ++i) {
    const auto row = tasks.row(i);
    if (std::get<std::int64_t>(row[status]) == 1) {
      ++done;
      times.push_back(std::get<double>(row[wall]));
    }
    if (std::get<std::int64_t>(row[status]) == 2) ++failed;
  }
  const auto pending = tasks.row_count() - done - failed;
  if (failed == 0) {
    fmt::print("tasks: {} done, {} pending\n", done, pending);
  } else {
    fmt::print("tasks: {} done, {} failed (see failures below), {} pending\n", done, failed,
               pending);
  }
  const auto session = tasks.field("session");
  std::size_t resumed = 0;
  for (std::size_t i = 0; i < tasks.row_count(); ++i) {
    const auto row = tasks.row(i);
    if (std::get<std::int64_t>(row[status]) == 1 && std::get<std::int64_t>(row[session]) > 0)
      ++resumed;
  }
  if (resumed > 0) fmt::print("tasks finished after a resume: {}\n", resumed);
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    fmt::print("task wall time (s): min {:.4g}, median {:.4g}, max {:.4g}\n", times.front(),
               times[times.size() / 2], times.back());
  }
  print_table(tasks, rows);
}

// "params.width=8, ga.population=20" from the point's row of /points.
std::string point_values(const TableData& points, std::int64_t point) {
  std::string text;
  if (point < 0 || static_cast<std::size_t>(point) >= points.row_count()) return text;
  const auto row = points.row(static_cast<std::size_t>(point));
  for (std::size_t f = 1; f < row.size(); ++f) {
    const auto value = std::visit([](const auto& cell) { return fmt::format("{}", cell); }, row[f]);
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", points.layout.fields()[f].name, value);
  }
  return text;
}

// Failures by point, then by message: which corner of the grid failed, and why.
void print_failures(const h5::Group& root, std::size_t rows) {
  const auto failures = read_table(root.open_dataset("failures"));
  if (failures.row_count() == 0) return;
  const auto points = read_table(root.open_dataset("points"));
  const auto point = failures.field("point");
  const auto replicate = failures.field("replicate");
  const auto begin = failures.field("begin");
  const auto end = failures.field("end");
  const auto message = failures.field("message");
  std::map<std::int64_t, std::map<std::string, std::vector<std::string>>> by_point;
  for (std::size_t i = 0; i < failures.row_count(); ++i) {
    const auto row = failures.row(i);
    auto where = fmt::format("replicate {}", std::get<std::int64_t>(row[replicate]));
    if (std::get<std::int64_t>(row[begin]) >= 0) {
      where += fmt::format(" indices [{}, {})", std::get<std::int64_t>(row[begin]),
                           std::get<std::int64_t>(row[end]));
    }
    by_point[std::get<std::int64_t>(row[point])][std::get<std::string>(row[message])].push_back(
        where);
  }
  fmt::print("failures: {} at {} point{} (on_error: record; rows of /failures):\n",
             failures.row_count(), by_point.size(), by_point.size() == 1 ? "" : "s");
  std::size_t shown = 0;
  for (const auto& [id, messages] : by_point) {
    if (shown++ == rows) {
      fmt::print("  ... {} more points (--all lists every one)\n", by_point.size() - rows);
      break;
    }
    const auto values = point_values(points, id);
    fmt::print("  point {}{}:\n", id, values.empty() ? "" : " (" + values + ")");
    for (const auto& [text, places] : messages) {
      const auto listed = std::min<std::size_t>(places.size(), 4);
      fmt::print(
          "    {} x {}{}: {}\n", places.size(),
          fmt::join(places.begin(), places.begin() + static_cast<std::ptrdiff_t>(listed), ", "),
          places.size() > listed ? ", ..." : "", text);
    }
  }
}

// The run's driver; nullptr when this levelforge has none of its name.
const Driver* driver_of(const h5::Group& root) {
  return root.has_attribute("driver") ? find_driver(root.read_string_attribute("driver")) : nullptr;
}

// The run's tables as its kernel's summary reads them (kernels/api/results.hpp): a table whose
// rows are per task keeps those of the tasks that finished.
ResultTables result_tables(const h5::Group& root) {
  ResultTables results{root.has_attribute("driver") ? root.read_string_attribute("driver") : "",
                       {}};
  std::vector<bool> finished;
  if (root.has("tasks")) {
    const auto tasks = read_table(root.open_dataset("tasks"));
    const auto status = tasks.field("status");
    for (std::size_t i = 0; i < tasks.row_count(); ++i)
      finished.push_back(std::get<std::int64_t>(tasks.row(i)[status]) == 1);
  }
  const auto add = [&](const std::string& path) {
    if (!root.has(path)) return;
    const auto table = read_table(root.open_dataset(path));
    std::vector<std::string> columns;
    for (const auto& field : table.layout.fields()) columns.push_back(field.name);
    const bool per_task =
        !finished.empty() && !table.dims.empty() && table.dims.front() == finished.size();
    const std::size_t rows_per_task = per_task ? table.row_count() / finished.size() : 1;
    std::vector<Record> rows;
    for (std::size_t i = 0; i < table.row_count(); ++i)
      if (!per_task || finished[i / rows_per_task]) rows.push_back(table.row(i));
    results.tables.emplace(path, ResultTable(std::move(columns), std::move(rows)));
  };
  if (const auto* driver = driver_of(root)) {
    for (const auto& path : driver->summary_tables(root)) add(path);
  }
  return results;
}

// The kernel's own summary of the run, when it has one.
void print_kernel_summary(const h5::Group& root) {
  if (!root.has_attribute("kernel")) return;
  const auto name = root.read_string_attribute("kernel");
  const auto* kernel = find_kernel(name);
  if (kernel == nullptr || !kernel->summarize) return;
  fmt::print("{} summary:\n", name);
  try {
    for (const auto& line : kernel->summarize(result_tables(root))) fmt::print("  {}\n", line);
  } catch (const KernelError& error) {
    fmt::print("  (none: {})\n", error.what());
  }
}

// What a run's checkpoint says: how much of the run is done, and why it stopped when a
// kernel's error stopped it. `missing_output`: the result file it is beside, which does not
// exist yet.
void inspect_checkpoint(const std::string& directory, const std::string& missing_output = {}) {
  const auto summary = summarize_checkpoint(directory);
  const bool kernel_error = !summary.stop_errors.empty();
  if (!missing_output.empty()) {
    fmt::print("{} does not exist yet: its run was {}\n", missing_output,
               kernel_error ? "stopped by a kernel's error" : "interrupted");
  }
  fmt::print("{}: checkpoint of {}: experiment {}, {} driver{}\n", directory,
             kernel_error ? "a run stopped by a kernel's error" : "an interrupted run",
             summary.experiment, summary.driver,
             summary.shard == "none" ? "" : ", shard " + summary.shard);
  fmt::print("{:<20} {}\n", "sessions", summary.sessions);
  const auto percent = [](std::uint64_t done, std::uint64_t total) {
    return total == 0 ? 0.0 : 100.0 * static_cast<double>(done) / static_cast<double>(total);
  };
  if (summary.units_total == 0) {
    fmt::print("{:<20} no {} saved yet\n", "done", summary.unit);
  } else {
    fmt::print("{:<20} {} of {} {}s ({:.1f}%)\n", "done", summary.units_done, summary.units_total,
               summary.unit, percent(summary.units_done, summary.units_total));
  }
  if (summary.failed > 0) {
    fmt::print(
        "{:<20} {} of the done {} (on_error: record; `resume --retry-failed` runs "
        "them again)\n",
        "failed", summary.failed, summary.unit + "s");
  }
  if (summary.to_retry > 0) {
    fmt::print(
        "{:<20} {} {}s that failed before session {}, not yet run again (a retry of "
        "failures in progress)\n",
        "retrying", summary.to_retry, summary.unit, summary.retry_session);
  }
  for (const auto& [task, generations] : summary.in_progress)
    fmt::print("{:<20} task {} saved after {} generations\n", "in progress", task, generations);
  fmt::print("{:<20} {}\n", "segments", summary.segments);
  if (summary.unfinished_files > 0) {
    fmt::print("{:<20} {} (being written when the run stopped; discarded on resume)\n",
               "unfinished files", summary.unfinished_files);
  }
  auto output = directory;
  while (output.size() > 1 && output.ends_with('/')) output.pop_back();
  if (output.ends_with(".checkpoint"))
    output.resize(output.size() - std::string(".checkpoint").size());
  print_lock_holder(output);
  if (!kernel_error) {
    fmt::print("continue with `{}`\n", resume_command_text(output));
    return;
  }
  for (const auto& error : summary.stop_errors)
    fmt::print("{:<20} {} (on_error: abort, session {})\n", "stopped by", error,
               summary.sessions - 1);
  fmt::print("continue: {}\n", ways_on_after_kernel_error(output));
}

void inspect(const std::string& path, const InspectDetail& detail) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) return inspect_checkpoint(path);
  if (!std::filesystem::exists(path, ignored) &&
      std::filesystem::is_directory(checkpoint_directory(path), ignored)) {
    return inspect_checkpoint(checkpoint_directory(path), path);
  }
  auto file = [&] {
    try {
      return open_result(path);
    } catch (const VerifyError& error) {
      // A run that fails under MPI_Abort never flushes its `.partial` file: HDF5 then sees
      // no file at all, which would wrongly suggest it is of another program.
      if (!path.ends_with(".partial")) throw;
      throw UsageError(fmt::format(
          "{}: the unfinished result file of a run that failed or was stopped, and it cannot be "
          "read ({}); run the experiment again (with `levelforge resume` when the run's "
          "checkpoint is beside it)",
          path, error.what()));
    }
  }();
  const auto root = file.root();
  const auto format_version = root.read_int_attribute("format_version");
  fmt::print("{}: levelforge results, format version {}\n", path, format_version);
  if (root.read_int_attribute("complete") != 1) {
    fmt::print("WARNING: the run did not complete; its datasets may be partial\n");
  }
  print_provenance(root);
  print_lock_holder(path);
  if (root.has_attribute("sessions"))
    fmt::print("{:<20} {}\n", "sessions", root.read_int_attribute("sessions"));
  if (root.has_attribute("shard_count")) {
    fmt::print("{:<20} {}/{} (merge every shard with `levelforge merge`)\n", "shard",
               root.read_int_attribute("shard_index"), root.read_int_attribute("shard_count"));
  }
  if (root.has_attribute("merged_from")) {
    fmt::print("{:<20} {}\n", "merged from",
               config::join(root.read_strings_attribute("merged_from")));
  }
  if (detail.config && root.has_attribute("config")) {
    fmt::print("config:\n");
    const auto text = root.read_string_attribute("config");
    std::size_t begin = 0;
    for (auto end = text.find('\n'); begin < text.size(); end = text.find('\n', begin)) {
      if (end == std::string::npos) end = text.size();
      fmt::print("  | {}\n", text.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  if (root.has("points") && detail.rows > 0) {
    fmt::print("sweep points:\n");
    print_table(read_table(root.open_dataset("points")), detail.rows);
  }
  if (root.has("tasks")) print_task_summary(read_table(root.open_dataset("tasks")), detail.rows);
  if (root.has("failures")) print_failures(root, std::max<std::size_t>(detail.rows, 20));
  if (const auto* driver = driver_of(root)) driver->print_summary(root, detail.rows);
  print_kernel_summary(root);
  fmt::print("datasets:\n");
  list_datasets(root, "");
}

int inspect_command(const std::string& path, const InspectDetail& detail) {
  try {
    inspect(path, detail);
  } catch (const CheckpointError& error) {
    throw UsageError(error.what());
  } catch (const VerifyError& error) {
    throw UsageError(error.what());
  } catch (const h5::IoError& error) {
    // The file is the user's input: a bad one is a usage error, not a failed run.
    throw UsageError(error.what());
  }
  return exit_ok;
}

}  // namespace

void add_inspect_command(CommandList& commands) {
  struct InspectArguments {
    std::string path;
    bool all_rows = false;
    bool brief = false;
  };
  auto arguments = std::make_shared<InspectArguments>();
  auto* command = commands.app().add_subcommand("inspect", "summarize a result file");
  command->add_option("file", arguments->path, "HDF5 result file")
      ->required()
      ->check(non_empty_path());
  command->add_flag("--all", arguments->all_rows,
                    "list every point, task and record, not only the first 20");
  command->add_flag("--brief", arguments->brief,
                    "provenance, task counts and result summaries only");
  commands.add(command, Ranks::first, [arguments](const Invocation&) {
    InspectDetail detail;
    if (arguments->all_rows) detail.rows = SIZE_MAX;
    if (arguments->brief) detail = {0, false};
    return inspect_command(arguments->path, detail);
  });
}

}  // namespace levelforge::cli
