#pragma once
// A driver: the search or enumeration that runs a kernel's units over the ranks. Each driver
// is one folder under runner/drivers/ holding a Driver (below) and a binding (the erased
// model of a kernel and the capability it needs, DRIVER_binding.hpp), named once in
// driver_list.hpp. A run finds its driver once, by name (bind_run), and calls it from there.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/memory.hpp"
#include "kernels/api/params.hpp"
#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/point_facts.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

struct DriverContext;
struct KernelEntry;

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

// A shard's result file and the run it belongs to, read back for `merge`.
struct ShardReading {
  const h5::File& file;
  const config::Experiment& experiment;
  const KernelEntry& kernel;
  const std::vector<PointFacts>& facts;
  const ShardSpec& shard;
};

class Driver {
 public:
  Driver() = default;
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;
  Driver(Driver&&) = delete;
  Driver& operator=(Driver&&) = delete;
  virtual ~Driver() = default;

  // `driver:` in a config.
  [[nodiscard]] virtual std::string_view name() const = 0;
  // What is scheduled, saved, sharded and failed: "task", "chunk".
  [[nodiscard]] virtual std::string_view unit() const = 0;
  // What progress counts: "evals", "runs", "indices".
  [[nodiscard]] virtual std::string_view work_unit() const = 0;

  // What a rank keeps for the writer (result rows, the task log) and, for a GA, the
  // population; the kernel's working memory is counted by the caller.
  [[nodiscard]] virtual std::vector<MemoryPart> result_memory(
      const ResultMemoryQuery& query) const = 0;
  // What a run keeps of every point beyond its PointFacts: the driver's settings of it and
  // the work units of one of its tasks.
  [[nodiscard]] virtual std::uint64_t point_bytes() const { return 0; }

  // Builds the model of `point`, checks what the schema cannot see in the point's settings
  // and returns what the run keeps of it. KernelError for parameters the kernel refuses and
  // contradicting settings, config::ConfigError for what concerns the whole run.
  [[nodiscard]] virtual PointFacts point_facts(const config::Experiment& experiment,
                                               const KernelEntry& kernel,
                                               std::size_t point) const = 0;
  // The per-task datasets whose blocks its segments save (none for a driver whose segments
  // save reductions of chunks), for the checkpoint's manifest.
  [[nodiscard]] virtual std::vector<TaskDataset> task_datasets(
      const config::Experiment& /*experiment*/, const KernelEntry& /*kernel*/,
      const std::vector<PointFacts>& /*facts*/) const {
    return {};
  }
  // The tables of its own the result file holds beside the per-task ones (per point: genome
  // lengths, measure ranges), into the checkpoint's manifest, so that a run in progress is read
  // without levelforge.
  virtual void describe_tables(const config::Experiment& /*experiment*/,
                               const std::vector<PointFacts>& /*facts*/,
                               SegmentDescription& /*description*/) const {}

  // Collective: the driver's work and its datasets in the result file.
  virtual void run(DriverContext& context) const = 0;
  // One process: the shard's result file as the segment a checkpoint of its work would be.
  [[nodiscard]] virtual Segment read_shard(const ShardReading& shard) const = 0;

  // `levelforge kernels NAME`: what a kernel that offers the driver records in its results.
  virtual void print_records(const KernelEntry& kernel) const = 0;
  // `inspect`: what the run's results say, from its result file's root, with up to `rows` rows
  // of long tables.
  virtual void print_summary(const h5::Group& root, std::size_t rows) const = 0;
  // The tables a kernel's own summary reads (kernels/api/results.hpp), as paths in the file.
  [[nodiscard]] virtual std::vector<std::string> summary_tables(const h5::Group& root) const = 0;
};

// A driver's names, from its spec (driver_list.hpp).
template <class Spec>
class DriverOf : public Driver {
 public:
  [[nodiscard]] std::string_view name() const final { return Spec::name; }
  [[nodiscard]] std::string_view unit() const final { return Spec::unit; }
  [[nodiscard]] std::string_view work_unit() const final { return Spec::work_unit; }
};

}  // namespace levelforge
