// What `levelforge kernels` and `inspect` say of the `qd` driver: the records of a kernel that
// offers it, and a run's results.

#include "runner/drivers/qd/qd_driver.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "runner/drivers/summary_text.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

namespace {

// Per point, the final archive of its replicates: coverage (median, min, max), the medians of
// the QD score and of the best fitness, and the mean iterations run.
void print_archive_per_point(const h5::Group& root) {
  const auto history = read_table(root.open_dataset("qd/history"));
  const auto tasks = read_table(root.open_dataset("tasks"));
  const std::size_t steps = history.dims.at(1);
  struct PointSummary {
    std::vector<double> coverage, score, best, iterations;
  };
  std::map<std::int64_t, PointSummary> points;
  for (std::size_t task = 0; task < tasks.row_count(); ++task) {
    const auto task_row = tasks.row(task);
    if (std::get<std::int64_t>(task_row[tasks.field("status")]) != 1) continue;
    const auto last = last_step(history, task, history.field("iteration"));
    const auto row = history.row(task * steps + last);
    auto& summary = points[std::get<std::int64_t>(task_row[tasks.field("point")])];
    summary.coverage.push_back(std::get<double>(row[history.field("coverage")]));
    summary.score.push_back(std::get<double>(row[history.field("qd_score")]));
    summary.best.push_back(std::get<double>(row[history.field("best")]));
    summary.iterations.push_back(static_cast<double>(last));
  }
  fmt::print("final archive per point (over replicates):\n");
  fmt::print("  {:>6} {:>10} {:>10} {:>10} {:>12} {:>12} {:>10}\n", "point", "coverage", "min",
             "max", "qd_score", "best", "iterations");
  for (const auto& [key, summary] : points) {
    const auto [low, high] = std::minmax_element(summary.coverage.begin(), summary.coverage.end());
    fmt::print("  {:>6} {:>10.6g} {:>10.6g} {:>10.6g} {:>12.6g} {:>12.6g} {:>10.1f}\n", key,
               median(summary.coverage), *low, *high, median(summary.score), median(summary.best),
               mean(summary.iterations));
  }
}

}  // namespace

void QdDriver::print_records(const KernelEntry& kernel) const {
  // Ranges may depend on the parameters: these are the defaults'.
  fmt::print("  qd: measures (qd/archive measure_NAME; ranges at the default parameters)\n");
  try {
    const auto model = kernel.binding<QdSpec>()->make(ParamSet::defaults(kernel.params));
    for (const auto& measure : model->measures()) {
      fmt::print("    {:<20} [{:g}, {:g}]  {}\n", measure.name, measure.low, measure.high,
                 measure.doc);
    }
  } catch (const KernelError& error) {
    fmt::print("    (the kernel needs parameters to name them: {})\n", error.what());
  }
}

void QdDriver::print_summary(const h5::Group& root, std::size_t rows) const {
  (void)rows;
  if (root.has("qd/history") && root.has("tasks")) print_archive_per_point(root);
}

std::vector<std::string> QdDriver::summary_tables(const h5::Group& root) const {
  (void)root;
  return {};
}

}  // namespace levelforge
