#pragma once
// How each driver runs: the MPI side of the drivers declared in runner/engine/driver_specs.hpp,
// one entry each. A run, its checks, its point models and `merge` find their driver here.

#include <cstddef>

#include "runner/checkpoint/segment.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/engine/driver_specs.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

struct DriverContext;
struct KernelEntry;
class PointModels;

// A shard's result file and the run it belongs to, read back for `merge`.
struct ShardReading {
  const h5::File& file;
  const config::Experiment& experiment;
  const KernelEntry& kernel;
  const PointModels& models;
  const ShardSpec& shard;
};

struct Driver {
  const DriverSpec& spec;
  // Builds the model of one sweep point; KernelError for parameters the kernel refuses.
  void (*add_model)(PointModels& models, const KernelEntry& kernel, const ParamSet& params);
  // What the schema cannot see in the settings of `point`: KernelError, or config::ConfigError
  // for what concerns the whole run.
  void (*check_point)(const config::Experiment& experiment, const PointModels& models,
                      std::size_t point);
  // Collective: the driver's work and its datasets in the result file.
  void (*run)(DriverContext& context);
  // One process: the shard's result file as the segment a checkpoint of its work would be.
  Segment (*read_shard)(const ShardReading& shard);
};

// The driver of a parsed experiment (whose schema knows its name).
const Driver& driver_for(const config::Experiment& experiment);

}  // namespace levelforge
