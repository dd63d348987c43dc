// `levelforge inspect FILE`: provenance, sweep, tasks and datasets of a result file.

#include <algorithm>

#include <fmt/format.h>

#include "runner/cli/commands.hpp"
#include "runner/config/suggest.hpp"
#include "runner/output/result_file.hpp"
#include "runner/output/table_reader.hpp"

namespace levelforge::cli {

namespace {

constexpr std::size_t tasks_shown = 20;

std::string cell(const FieldValue& value) {
  struct Formatter {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return fmt::format("{:.6g}", v); }
    std::string operator()(const std::string& v) const { return v; }
  };
  return std::visit(Formatter{}, value);
}

void print_table(const TableData& table, std::size_t limit) {
  std::string header;
  for (const auto& field : table.layout.fields()) header += fmt::format(" {:>14}", field.name);
  fmt::print("  {}\n", header);
  for (std::size_t i = 0; i < std::min(limit, table.row_count()); ++i) {
    std::string line;
    for (const auto& value : table.row(i)) line += fmt::format(" {:>14}", cell(value));
    fmt::print("  {}\n", line);
  }
  if (table.row_count() > limit) fmt::print("  ... {} more rows\n", table.row_count() - limit);
}

std::string type_text(const h5::Datatype& type) {
  switch (type.type_class()) {
    case H5T_COMPOUND: return "table(" + config::join(type.member_names()) + ")";
    case H5T_INTEGER: return fmt::format("int{}", 8 * type.size());
    case H5T_FLOAT: return fmt::format("float{}", 8 * type.size());
    case H5T_STRING: return fmt::format("string[{}]", type.size());
    default: return "other";
  }
}

void list_datasets(const h5::Group& group, const std::string& prefix) {
  for (const auto& name : group.children()) {
    const auto path = prefix + "/" + name;
    // A link that opens as a group is listed recursively, anything else as a dataset.
    try {
      list_datasets(group.open_group(name), path);
      continue;
    } catch (const h5::IoError&) {
    }
    const auto dataset = group.open_dataset(name);
    std::string shape;
    for (auto dim : dataset.dims()) shape += (shape.empty() ? "" : " x ") + std::to_string(dim);
    fmt::print("  {:<36} [{}] {}\n", path, shape, type_text(dataset.datatype()));
  }
}

void print_provenance(const h5::Group& root) {
  for (const auto* key : {"experiment", "kernel", "driver", "levelforge_version", "git_commit",
                          "start_time", "end_time"}) {
    if (root.has_attribute(key)) fmt::print("{:<20} {}\n", key, root.read_string_attribute(key));
  }
  for (const auto* key : {"seed", "replicates", "ranks"}) {
    if (root.has_attribute(key)) fmt::print("{:<20} {}\n", key, root.read_int_attribute(key));
  }
  if (root.has_attribute("hosts")) {
    fmt::print("{:<20} {}\n", "hosts", config::join(root.read_strings_attribute("hosts")));
  }
}

void print_task_summary(const TableData& tasks, bool all_tasks) {
  const auto status = tasks.field("status");
  const auto wall = tasks.field("wall_time");
  std::size_t done = 0;
  std::vector<double> times;
  for (std::size_t i = 0; i < tasks.row_count(); ++i) {
    const auto row = tasks.row(i);
    if (std::get<std::int64_t>(row[status]) == 1) {
      ++done;
      times.push_back(std::get<double>(row[wall]));
    }
  }
  fmt::print("tasks: {} done, {} pending\n", done, tasks.row_count() - done);
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    fmt::print("task wall time (s): min {:.4g}, median {:.4g}, max {:.4g}\n", times.front(),
               times[times.size() / 2], times.back());
  }
  print_table(tasks, all_tasks ? tasks.row_count() : tasks_shown);
}

}  // namespace

int inspect_command(const std::string& path, bool all_tasks, const mpi::Comm& comm) {
  if (comm.rank() != 0) return exit_ok;
  auto file = h5::File::open_serial(path, h5::Access::read_only);
  const auto root = file.root();
  if (!root.has_attribute("format") || root.read_string_attribute("format") != result_format) {
    throw h5::IoError(path + " is an HDF5 file but not a levelforge result (no format attribute '" +
                      std::string(result_format) + "')");
  }
  fmt::print("{}: levelforge results, format version {}\n", path, root.read_int_attribute("format_version"));
  if (root.read_int_attribute("complete") != 1) {
    fmt::print("WARNING: the run did not complete; its datasets may be partial\n");
  }
  print_provenance(root);
  if (root.has_attribute("config")) {
    fmt::print("config:\n");
    const auto text = root.read_string_attribute("config");
    std::size_t begin = 0;
    for (auto end = text.find('\n'); begin < text.size(); end = text.find('\n', begin)) {
      if (end == std::string::npos) end = text.size();
      fmt::print("  | {}\n", text.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  if (root.has("points")) {
    fmt::print("sweep points:\n");
    print_table(read_table(root.open_dataset("points")), all_tasks ? SIZE_MAX : tasks_shown);
  }
  if (root.has("tasks")) print_task_summary(read_table(root.open_dataset("tasks")), all_tasks);
  fmt::print("datasets:\n");
  list_datasets(root, "");
  return exit_ok;
}

}  // namespace levelforge::cli
