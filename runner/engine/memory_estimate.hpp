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
#include "runner/engine/driver_specs.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

struct RunMemory {
  std::uint64_t bytes = 0;        // per rank, at the sweep point that needs the most
  std::vector<MemoryPart> parts;  // what adds up to `bytes`, the largest first
};

// What one rank holds while running `experiment` on `ranks` ranks: the kernel's working
// memory for one task (when it declares memory_estimate), the GA population of two
// generations with its evaluation rows, the result rows the rank keeps for the writer
// (ga history and best genomes, sweep records) and its share of the task list, with
// `task_row_bytes` per task. The largest point wins. Sizes saturate at UINT64_MAX.
RunMemory estimate_run_memory(const config::Experiment& experiment, const KernelEntry& kernel,
                              int ranks, std::uint64_t task_row_bytes);

// Each driver's DriverSpec::result_memory: the ga driver's population (two generations of
// genomes and evaluation rows), history and best genomes and the task log of the tasks a
// rank runs; the sweep driver's records and task log; the exhaustive driver's task log,
// which every rank keeps whole.
std::vector<MemoryPart> ga_result_memory(const ResultMemoryQuery& query);
std::vector<MemoryPart> qd_result_memory(const ResultMemoryQuery& query);
std::vector<MemoryPart> sweep_result_memory(const ResultMemoryQuery& query);
std::vector<MemoryPart> exhaustive_result_memory(const ResultMemoryQuery& query);

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
