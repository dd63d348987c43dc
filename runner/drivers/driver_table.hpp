#pragma once
// How each driver runs: the MPI side of the drivers declared in runner/engine/driver_specs.hpp,
// one entry each. A run, its checks, its point models and `merge` find their driver here.

#include <cstddef>

#include "runner/checkpoint/segment.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/task_datasets.hpp"
#include "runner/engine/driver_specs.hpp"
#include "runner/engine/models.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

struct DriverContext;
struct KernelEntry;

// A shard's result file and the run it belongs to, read back for `merge`.
struct ShardReading {
  const h5::File& file;
  const config::Experiment& experiment;
  const KernelEntry& kernel;
  const std::vector<PointFacts>& facts;
  const ShardSpec& shard;
};

struct Driver {
  const DriverSpec& spec;
  // Builds the model of `point`, checks what the schema cannot see in the point's settings
  // and returns what the run keeps of it. KernelError for parameters the kernel refuses and
  // contradicting settings, config::ConfigError for what concerns the whole run.
  PointFacts (*point_facts)(const config::Experiment& experiment, const KernelEntry& kernel,
                            std::size_t point);
  // The per-task datasets whose blocks its segments save (none for exhaustive, whose
  // segments save reductions of chunks), for the checkpoint's manifest.
  std::vector<TaskDataset> (*task_datasets)(const config::Experiment& experiment,
                                            const KernelEntry& kernel,
                                            const std::vector<PointFacts>& facts);
  // Collective: the driver's work and its datasets in the result file.
  void (*run)(DriverContext& context);
  // One process: the shard's result file as the segment a checkpoint of its work would be.
  Segment (*read_shard)(const ShardReading& shard);
};

// The driver of a parsed experiment (whose schema knows its name).
const Driver& driver_for(const config::Experiment& experiment);

}  // namespace levelforge
