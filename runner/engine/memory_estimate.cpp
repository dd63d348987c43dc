#include "runner/engine/memory_estimate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "kernels/api/record_layout.hpp"
#include "runner/engine/ga_engine.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/qd_engine.hpp"

namespace levelforge {

namespace {

constexpr std::uint64_t saturated = std::numeric_limits<std::uint64_t>::max();

// Sizes come from parameters up to int64 max: they must saturate, not wrap to something
// small that would let an absurd run through.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > saturated / a) return saturated;
  return a * b;
}

std::uint64_t plus(std::uint64_t a, std::uint64_t b) {
  return b > saturated - a ? saturated : a + b;
}

std::uint64_t unsigned_of(std::int64_t value) {
  return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

// The tasks one rank runs when the work spreads evenly (the drivers pull dynamically, so
// this is the typical share, not a bound).
std::uint64_t tasks_per_rank(const config::Experiment& experiment, int ranks) {
  const auto count = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(ranks));
  const auto tasks = experiment.task_count();
  return tasks / count + (tasks % count != 0 ? 1 : 0);
}

// The task log of the tasks one rank runs.
MemoryPart own_task_log(const ResultMemoryQuery& query) {
  return {"the task list of " + query.per_rank, times(query.own_tasks, query.task_row_bytes)};
}

std::vector<MemoryPart> point_parts(const config::Experiment& experiment,
                                    const config::Point& point, const KernelEntry& kernel,
                                    int ranks, std::uint64_t task_row_bytes) {
  const MemoryEstimate own =
      kernel.memory_estimate ? kernel.memory_estimate(point.params) : MemoryEstimate{};
  const auto own_tasks = tasks_per_rank(experiment, ranks);
  std::string per_rank = std::to_string(own_tasks) + " task" + (own_tasks == 1 ? "" : "s") +
                         " per rank (" + std::to_string(experiment.task_count()) + " tasks on " +
                         std::to_string(ranks) + " rank" + (ranks == 1 ? "" : "s") + ")";
  std::vector<MemoryPart> parts;
  if (own.working_bytes > 0) {
    parts.push_back({own.working_cause.empty() ? "the kernel's working memory" : own.working_cause,
                     own.working_bytes});
  }
  const auto results = driver_spec(experiment.driver)
                           .result_memory({experiment, point, kernel, own, own_tasks,
                                           std::move(per_rank), task_row_bytes});
  parts.insert(parts.end(), results.begin(), results.end());
  return parts;
}

std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text)) return std::nullopt;
  try {
    std::size_t used = 0;
    const auto value = std::stoull(text, &used);
    if (used != text.size()) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;  // "max" or garbage: no limit known
  }
}

}  // namespace

std::vector<MemoryPart> ga_result_memory(const ResultMemoryQuery& query) {
  std::vector<MemoryPart> parts;
  const auto& ga = query.kernel.ga;
  if (ga) {
    const auto& driver = query.point.driver;
    const auto& own = query.kernel_memory;
    const auto population = unsigned_of(driver.integer("population"));
    const auto generations = unsigned_of(driver.integer("generations"));
    const auto keep_best = unsigned_of(driver.integer("keep_best"));
    const std::string population_key = "ga.population = " + std::to_string(population);
    // Two generations of genomes live at once while the next one is bred.
    parts.push_back(
        {population_key + (own.genome_cause.empty() ? " genomes" : " x " + own.genome_cause),
         times(times(2, population), own.genome_bytes)});
    // Evaluation rows of both generations and a fitness per individual.
    const auto evaluation_row = ga_evaluation_layout(ga->evaluation_fields).row_size();
    parts.push_back({population_key + " evaluation rows",
                     times(population, plus(times(2, evaluation_row), sizeof(double)))});
    // Every task's history (a row per generation) and best genomes wait for the writer.
    const auto history_row = ga_history_layout(ga->evaluation_fields).row_size();
    const auto best_row = plus(ga_best_layout(ga->evaluation_fields).row_size(), own.genome_bytes);
    parts.push_back({"ga.generations = " + std::to_string(generations) +
                         " history rows and ga.keep_best = " + std::to_string(keep_best) +
                         " genomes for " + query.per_rank,
                     times(query.own_tasks,
                           plus(times(generations, history_row), times(keep_best, best_row)))});
    const auto settings = GaSettings::from(driver);
    if (settings.islands > 1) {
      const auto islands = unsigned_of(settings.islands);
      const auto island_rows =
          plus(times(generations, ga_island_history_layout().row_size()),
               plus(ga_island_best_layout(ga->evaluation_fields).row_size(), own.genome_bytes));
      const auto migrations = times(settings.migration_events(), ga_migration_layout().row_size());
      parts.push_back({"ga.islands = " + std::to_string(islands) + " histories and " +
                           std::to_string(settings.migration_events()) +
                           " migration rows (ga.migration) for " + query.per_rank,
                       times(query.own_tasks, plus(times(islands, island_rows), migrations))});
    }
  }
  parts.push_back(own_task_log(query));
  return parts;
}

std::vector<MemoryPart> qd_result_memory(const ResultMemoryQuery& query) {
  std::vector<MemoryPart> parts;
  if (const auto& qd = query.kernel.qd) {
    const auto settings = QdSettings::from(query.point.driver);
    // The measures (and so the cells) come from the kernel built for the point.
    const auto axes = measure_axes(settings, qd->make(query.point.params)->measures());
    const auto cells = cell_count(axes);
    const auto& own = query.kernel_memory;
    const auto archive_row = qd_archive_layout(qd->evaluation_fields, axes).row_size();
    const std::string cells_key = std::to_string(cells) + " archive cells (qd.bins)";
    // The archive of the task in progress: a genome and an evaluation row per cell.
    parts.push_back({cells_key + " of the task in progress",
                     times(cells, plus(own.genome_bytes, archive_row))});
    const auto history_row = qd_history_layout().row_size();
    parts.push_back(
        {cells_key + " and qd.iterations = " + std::to_string(settings.iterations) +
             " history rows for " + query.per_rank,
         times(query.own_tasks, plus(times(cells, plus(archive_row, own.genome_bytes)),
                                     times(unsigned_of(settings.iterations + 1), history_row)))});
  }
  parts.push_back(own_task_log(query));
  return parts;
}

std::vector<MemoryPart> sweep_result_memory(const ResultMemoryQuery& query) {
  std::vector<MemoryPart> parts;
  if (const auto& sweep = query.kernel.sweep) {
    const auto record_row = RecordLayout(sweep->record_fields).row_size();
    parts.push_back({"the records of " + query.per_rank, times(query.own_tasks, record_row)});
  }
  parts.push_back(own_task_log(query));
  return parts;
}

std::vector<MemoryPart> exhaustive_result_memory(const ResultMemoryQuery& query) {
  const auto tasks = query.experiment.task_count();
  return {
      {"the task list of " + std::to_string(tasks) + " tasks", times(tasks, query.task_row_bytes)}};
}

RunMemory estimate_run_memory(const config::Experiment& experiment, const KernelEntry& kernel,
                              int ranks, std::uint64_t task_row_bytes) {
  RunMemory largest;
  for (const auto& point : experiment.points) {
    auto parts = point_parts(experiment, point, kernel, ranks, task_row_bytes);
    std::uint64_t total = 0;
    for (const auto& part : parts) total = plus(total, part.bytes);
    if (total < largest.bytes && !largest.parts.empty()) continue;
    std::stable_sort(parts.begin(), parts.end(),
                     [](const MemoryPart& a, const MemoryPart& b) { return a.bytes > b.bytes; });
    largest = {total, std::move(parts)};
  }
  return largest;
}

std::optional<AvailableMemory> available_memory(const std::string& meminfo_path,
                                                const std::string& cgroup_max_path,
                                                const std::string& cgroup_current_path) {
  std::optional<AvailableMemory> available;
  std::ifstream meminfo(meminfo_path);
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") {
      available = AvailableMemory{times(kib, 1024), "MemAvailable in " + meminfo_path};
      break;
    }
  }
  if (const auto limit = read_number(cgroup_max_path)) {
    const auto used = read_number(cgroup_current_path).value_or(0);
    const auto left = *limit > used ? *limit - used : 0;
    if (!available || left < available->bytes) {
      available = AvailableMemory{
          left, "the cgroup limit " + cgroup_max_path + " less " + cgroup_current_path};
    }
  }
  return available;
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  static constexpr std::array<const char*, 6> units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  auto value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), value >= 10 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text.data();
}

std::string memory_problem(const RunMemory& needed, const AvailableMemory& available,
                           int ranks_on_host) {
  const auto sharing = static_cast<std::uint64_t>(std::max(1, ranks_on_host));
  const auto per_rank = available.bytes / sharing;
  if (needed.bytes <= per_rank) return {};
  std::string message = needed.parts.empty() ? "the run" : needed.parts.front().cause;
  message += ": the run needs about " + format_bytes(needed.bytes) + " per rank";
  // The share of the largest part, unless it is nearly all of it anyway.
  if (needed.parts.size() > 1 && needed.parts.front().bytes < needed.bytes / 10 * 9) {
    message += " (" + format_bytes(needed.parts.front().bytes) + " of it for this)";
  }
  message += ", " + format_bytes(available.bytes) + " are available (" + available.source;
  if (sharing > 1) {
    message += ", " + format_bytes(per_rank) + " for each of the " + std::to_string(sharing) +
               " ranks on this host";
  }
  return message + ")";
}

}  // namespace levelforge
