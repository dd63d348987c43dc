#include "runner/drivers/memory_estimate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "kernels/api/record_layout.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

namespace {

constexpr std::uint64_t saturated = std::numeric_limits<std::uint64_t>::max();

std::string count_of(std::uint64_t count, const std::string& thing) {
  return std::to_string(count) + " " + thing + (count == 1 ? "" : "s");
}

// The tasks one rank runs when the work spreads evenly (the drivers pull dynamically, so
// this is the typical share, not a bound).
std::uint64_t tasks_per_rank(const config::Experiment& experiment, int ranks) {
  const auto count = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(ranks));
  const auto tasks = experiment.task_count();
  return tasks / count + (tasks % count != 0 ? 1 : 0);
}

// The copies ResultFile::write_rows makes of a written part: the rows put in order by their
// writer and the buffers HDF5 compresses them in (H5Z_pipeline: as large as the rows, heaptrack
// of a 20,000-task sweep); on several ranks also the messages sent to the writer of the host
// and those it receives (exchange_rows). All are on average a copy per rank of the host.
std::uint64_t copies_to_write(int ranks) { return ranks > 1 ? 4 : 2; }

// What every rank keeps of each of the sweep's points from their check to the run's end.
MemoryPart points_kept(const config::Experiment& experiment, const Driver& driver,
                       const RunRows& rows) {
  const auto points = static_cast<std::uint64_t>(experiment.points.size());
  // Its facts, the driver's settings, and its /points row with the copy made to write it.
  const auto per_point =
      plus(sizeof(PointFacts), plus(driver.point_bytes(), times(2, rows.point_bytes)));
  return {"the sweep's " + count_of(points, "point") +
              " (their checked facts, settings and /points rows)",
          times(points, per_point)};
}

// "3 tasks per rank (3 points x 2 replicates = 6 tasks on 2 ranks)"
std::string tasks_of_a_rank(const config::Experiment& experiment, int ranks) {
  return count_of(tasks_per_rank(experiment, ranks), "task") + " per rank (" +
         count_of(experiment.points.size(), "point") + " x " +
         count_of(unsigned_of(experiment.replicates), "replicate") + " = " +
         count_of(experiment.task_count(), "task") + " on " +
         count_of(static_cast<std::uint64_t>(ranks), "rank") + ")";
}

MemoryEstimate kernel_memory(const KernelEntry& kernel, const ParamSet& params) {
  return kernel.memory_estimate ? kernel.memory_estimate(params) : MemoryEstimate{};
}

// Whether point `p` needs what the point before it needs: its memory depends on its kernel's
// estimate, its driver settings and what its check found, and a sweep mostly repeats them
// (1,000,000 points of one record size are estimated once).
bool needs_what_the_one_before_needs(const config::Experiment& experiment, std::size_t p,
                                     const MemoryEstimate& own, const MemoryEstimate& before,
                                     const std::vector<PointFacts>* facts) {
  return p > 0 && own == before &&
         experiment.points[p].driver.values() == experiment.points[p - 1].driver.values() &&
         (facts == nullptr || (*facts)[p] == (*facts)[p - 1]);
}

std::vector<MemoryPart> point_parts(const config::Experiment& experiment, std::size_t point,
                                    const KernelEntry& kernel, const Driver& driver,
                                    const MemoryEstimate& own, int ranks, const RunRows& rows,
                                    const std::string& per_rank,
                                    const std::vector<PointFacts>* facts) {
  std::vector<MemoryPart> parts;
  if (own.model_bytes > 0) {
    parts.push_back({(own.model_cause.empty() ? "the kernel's tables" : own.model_cause) +
                         " (the kernel of one point at a time)",
                     own.model_bytes});
  }
  if (own.working_bytes > 0) {
    parts.push_back({own.working_cause.empty() ? "the kernel's working memory" : own.working_cause,
                     own.working_bytes});
  }
  const auto results = driver.result_memory(
      {experiment, experiment.points[point], kernel, own, tasks_per_rank(experiment, ranks),
       per_rank, rows.task_bytes, facts != nullptr ? &(*facts)[point] : nullptr});
  parts.insert(parts.end(), results.begin(), results.end());
  return parts;
}

// The largest written part grows by the copies made to write it: the parts are written one at
// a time, each copy freed before the next part's are made.
void add_write_copies(std::vector<MemoryPart>& parts, int ranks) {
  MemoryPart* largest = nullptr;
  for (auto& part : parts) {
    if (part.written && (largest == nullptr || part.bytes > largest->bytes)) largest = &part;
  }
  if (largest == nullptr) return;
  const auto copies = copies_to_write(ranks);
  largest->cause += " and " + std::to_string(copies) + " copies made to write them";
  largest->bytes = times(plus(copies, 1), largest->bytes);
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

MemoryPart own_task_log(const ResultMemoryQuery& query) {
  return {"the task list of " + query.per_rank, times(query.own_tasks, query.task_row_bytes), true};
}

MemoryPart units_to_pull(std::uint64_t count, const std::string& unit) {
  return {"the list of the " + count_of(count, unit) + " to pull, on every rank",
          times(count, 2 * sizeof(std::uint64_t))};
}

std::vector<MemoryPart> task_list_parts(const ResultMemoryQuery& query) {
  return {own_task_log(query), units_to_pull(query.experiment.task_count(), "task")};
}

RunMemory estimate_run_memory(const config::Experiment& experiment, const KernelEntry& kernel,
                              const Driver& driver, int ranks, const RunRows& rows,
                              const std::vector<PointFacts>* facts) {
  const auto points = points_kept(experiment, driver, rows);
  const auto per_rank = tasks_of_a_rank(experiment, ranks);
  RunMemory largest;
  MemoryEstimate before;
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    auto own = kernel_memory(kernel, experiment.points[p].params);
    const bool repeated = needs_what_the_one_before_needs(experiment, p, own, before, facts);
    before = std::move(own);
    if (repeated) continue;
    std::vector<MemoryPart> parts;
    try {
      parts = point_parts(experiment, p, kernel, driver, before, ranks, rows, per_rank, facts);
    } catch (const KernelError&) {
      continue;  // settings that contradict each other: the points' check names them
    }
    add_write_copies(parts, ranks);
    parts.push_back(points);
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
