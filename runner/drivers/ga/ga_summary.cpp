// What `levelforge kernels` and `inspect` say of the `ga` driver: the records of a kernel that
// offers it, and a run's results.

#include "runner/drivers/ga/ga_driver.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "runner/drivers/summary_text.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

namespace {

// Per point: the final best fitness of its replicates (median, min, max), their mean
// generations, and the median of each validation field of the best.
void print_best_per_point(const h5::Group& root) {
  const auto history = read_table(root.open_dataset("ga/history"));
  const auto tasks = read_table(root.open_dataset("tasks"));
  const auto best = read_table(root.open_dataset("ga/best"));
  std::optional<TableData> validation;
  if (root.has("ga/validation")) validation = read_table(root.open_dataset("ga/validation"));
  const auto generation = history.field("generation");
  const auto point = tasks.field("point");
  const auto status = tasks.field("status");
  const std::size_t kept = best.dims.at(1);
  struct PointSummary {
    std::vector<double> finals;
    std::vector<double> lengths;
    std::vector<std::vector<double>> validated;
  };
  std::map<std::int64_t, PointSummary> points;
  for (std::size_t task = 0; task < tasks.row_count(); ++task) {
    const auto task_row = tasks.row(task);
    if (std::get<std::int64_t>(task_row[status]) != 1) continue;
    const auto last = last_step(history, task, generation);
    auto& summary = points[std::get<std::int64_t>(task_row[point])];
    summary.finals.push_back(std::get<double>(best.row(task * kept)[best.field("fitness")]));
    summary.lengths.push_back(static_cast<double>(last + 1));
    if (validation) {
      const auto row = validation->row(task * kept);
      summary.validated.resize(row.size());
      for (std::size_t f = 0; f < row.size(); ++f) {
        if (const auto* value = std::get_if<double>(&row[f]))
          summary.validated[f].push_back(*value);
      }
    }
  }
  fmt::print("final best per point (over replicates):\n");
  std::string header = fmt::format("  {:>6} {:>10} {:>10} {:>10} {:>12}", "point", "median", "min",
                                   "max", "generations");
  if (validation) {
    for (const auto& field : validation->layout.fields())
      header += fmt::format(" {:>22}", field.name);
  }
  fmt::print("{}\n", header);
  for (auto& [key, summary] : points) {
    const auto [low, high] = std::minmax_element(summary.finals.begin(), summary.finals.end());
    std::string line = fmt::format("  {:>6} {:>10.6g} {:>10.6g} {:>10.6g} {:>12.1f}", key,
                                   median(summary.finals), *low, *high, mean(summary.lengths));
    for (const auto& values : summary.validated) {
      line +=
          values.empty() ? fmt::format(" {:>22}", "") : fmt::format(" {:>22.6g}", median(values));
    }
    fmt::print("{}\n", line);
  }
}

}  // namespace

void GaDriver::print_records(const KernelEntry& kernel) const {
  print_fields("ga: evaluation fields (in ga/history and ga/best)",
               kernel.binding<GaSpec>()->evaluation_fields);
}

void GaDriver::print_summary(const h5::Group& root, std::size_t rows) const {
  (void)rows;
  if (root.has("ga/history") && root.has("tasks")) print_best_per_point(root);
}

std::vector<std::string> GaDriver::summary_tables(const h5::Group& root) const {
  (void)root;
  return {"ga/best", "ga/validation"};
}

}  // namespace levelforge
