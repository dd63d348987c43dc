#pragma once
// What the MPI-free side of the runner knows of each driver: its name in configs, the unit of
// work it schedules, checkpoints, shards and fails, the settings of its config section, which
// kernels offer it, and what its results cost a rank in memory. Each driver is declared once,
// in driver_specs.cpp; runner/drivers/driver_table.hpp adds how it runs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/memory.hpp"
#include "kernels/api/params.hpp"
#include "runner/config/experiment.hpp"

namespace levelforge {

struct KernelEntry;
struct PointFacts;

// One contribution to a rank's memory: what it is for, named by the config keys that make
// it large, and its size.
struct MemoryPart {
  std::string cause;
  std::uint64_t bytes = 0;
  // Result rows kept until the run's end and written then, when copies of them are made
  // (estimate_run_memory counts those of the largest such part).
  bool written = false;
};

// What a driver's result memory depends on, for one sweep point.
struct ResultMemoryQuery {
  const config::Experiment& experiment;
  const config::Point& point;
  const KernelEntry& kernel;
  const MemoryEstimate& kernel_memory;  // the kernel's own (memory_estimate), or zero
  std::uint64_t own_tasks;              // tasks one rank runs when the work spreads evenly
  // "3 tasks per rank (3 points x 2 replicates = 6 tasks on 2 ranks)"
  const std::string& per_rank;
  std::uint64_t task_row_bytes;  // a task's row in the task log and its id
  // What checking the point's kernel found (QD axes, an index space); nullptr before the
  // check, when what depends on it is left out.
  const PointFacts* facts;
};

struct DriverSpec {
  std::string_view name;       // `driver:` in a config
  std::string_view unit;       // what is scheduled, saved, sharded and failed: "task", "chunk"
  std::string_view work_unit;  // what progress counts: "evals", "runs", "indices"
  std::vector<ParamSpec> (*settings)();  // its config section
  bool (*offered_by)(const KernelEntry& kernel);
  // What a rank keeps for the writer (result rows, the task log) and, for a GA, the
  // population; the kernel's working memory is counted by the caller.
  std::vector<MemoryPart> (*result_memory)(const ResultMemoryQuery& query);
  // What a run keeps of every point beyond its PointFacts: the driver's settings of it and
  // the work units of one of its tasks.
  std::uint64_t point_bytes;
};

extern const DriverSpec ga_driver_spec;
extern const DriverSpec qd_driver_spec;
extern const DriverSpec sweep_driver_spec;
extern const DriverSpec exhaustive_driver_spec;

// Every driver, in the order `levelforge kernels` lists them.
std::span<const DriverSpec* const> driver_specs();
// nullptr when no driver has that name.
const DriverSpec* find_driver_spec(std::string_view name);
// The driver of a parsed experiment, which the schema has checked; throws std::logic_error
// for a name no driver has.
const DriverSpec& driver_spec(std::string_view name);

std::vector<ParamSpec> ga_settings();
std::vector<ParamSpec> qd_settings();
std::vector<ParamSpec> exhaustive_settings();

struct IndexRange {
  std::uint64_t begin;
  std::uint64_t end;
};

// The indices an exhaustive point visits: its `begin`/`end` settings within the kernel's
// index space. Throws KernelError when they do not fit.
IndexRange exhaustive_range(const ParamSet& settings, std::uint64_t index_count);

}  // namespace levelforge
