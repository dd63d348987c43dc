#pragma once
// How much memory a run needs per rank, estimated from the config alone, and how much the
// machine has: `levelforge run` refuses a run that cannot fit (exit 2, the parameters at
// fault named) before it allocates anything large, instead of being ended by the kernel's
// OOM killer with a half-written result.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/drivers/driver.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

struct RunMemory {
  std::uint64_t bytes = 0;        // per rank, at the sweep point that needs the most
  std::vector<MemoryPart> parts;  // what adds up to `bytes`, the largest first
};

// The runner's own rows, whose layouts the MPI side declares.
struct RunRows {
  std::uint64_t task_bytes = 0;   // a task's row in the task log, and its id
  std::uint64_t point_bytes = 0;  // a point's row of /points
};

// What one rank holds while running `experiment` on `ranks` ranks: one point's kernel and
// its working memory for one task (when the kernel declares memory_estimate), the GA
// population of two generations with its evaluation rows, the result rows the rank keeps
// for the writer (ga history and best genomes, QD archives, sweep records, its share of the
// task log) and the copies made to write the largest of them, the list of the tasks (or
// chunks) to pull, and what it keeps of each point (PointFacts, settings, /points rows).
// `facts`: what checking each point's kernel found (check_points); nullptr before the
// check, when the QD archives and the exhaustive chunks, which depend on it, are left out.
// The config's points themselves are not counted: every rank holds them once it has parsed
// the config, before available_memory is read. The largest point wins; a point whose
// settings contradict each other (KernelError) is left to the points' check. Sizes saturate
// at UINT64_MAX.
RunMemory estimate_run_memory(const config::Experiment& experiment, const KernelEntry& kernel,
                              const Driver& driver, int ranks, const RunRows& rows,
                              const std::vector<PointFacts>* facts = nullptr);

// For the drivers' result_memory. Sizes come from parameters up to int64 max: they saturate,
// not wrap to something small that would let an absurd run through.
std::uint64_t times(std::uint64_t a, std::uint64_t b);
std::uint64_t plus(std::uint64_t a, std::uint64_t b);
std::uint64_t unsigned_of(std::int64_t value);
// The task log of the tasks one rank runs.
MemoryPart own_task_log(const ResultMemoryQuery& query);
// The ids of the run's tasks (or chunks) that are left to do, which every rank lists whole to
// pull them from the work queue (DriverContext::remaining): 8 bytes each, twice while the list
// grows.
MemoryPart units_to_pull(std::uint64_t count, const std::string& unit);
// A driver whose unit is the task: the task log of a rank's tasks and the list of the run's.
std::vector<MemoryPart> task_list_parts(const ResultMemoryQuery& query);

struct AvailableMemory {
  std::uint64_t bytes = 0;
  std::string source;  // "MemAvailable in /proc/meminfo", "the cgroup limit ..."
};

// The smaller of MemAvailable in `meminfo_path` and the room left under the cgroup v2 limit
// (`cgroup_max_path` minus `cgroup_current_path`, when the limit is not "max"); nullopt when
// neither can be read (then nothing is refused).
std::optional<AvailableMemory> available_memory(
    const std::string& meminfo_path = "/proc/meminfo",
    const std::string& cgroup_max_path = "/sys/fs/cgroup/memory.max",
    const std::string& cgroup_current_path = "/sys/fs/cgroup/memory.current");

// "512 bytes", "3.5 KiB", "37 GiB": whole units from 10 on, one decimal below.
std::string format_bytes(std::uint64_t bytes);

// Empty when `needed` fits into `available` shared by `ranks_on_host` ranks; otherwise the
// message, e.g. "ga.population = 10000000 x params.length = 1000000 bits: the run needs
// about 18 TiB per rank, 23 GiB are available (MemAvailable in /proc/meminfo, 11 GiB for
// each of the 2 ranks on this host)".
std::string memory_problem(const RunMemory& needed, const AvailableMemory& available,
                           int ranks_on_host);

}  // namespace levelforge
