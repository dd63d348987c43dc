#pragma once
// One run of an experiment on all ranks of a communicator: create the result file,
// record provenance, run the driver, write the tables, and commit the file.

#include <cstdint>
#include <string>

#include "runner/checkpoint/segment.hpp"
#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/driver.hpp"
#include "runner/drivers/memory_estimate.hpp"
#include "runner/drivers/point_facts.hpp"
#include "runner/drivers/progress.hpp"
#include "runner/drivers/work_queue.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/output_writers.hpp"

namespace levelforge {

struct RunOptions {
  bool write_output = true;
  double progress_interval_seconds = 10;
  ProgressStyle progress = ProgressStyle::automatic;
  // Continue from the checkpoint beside the output (which exists); otherwise start one.
  bool resume = false;
  // With resume: the failures of earlier sessions (on_error: record) run again, and the
  // checkpoint may be of another build (a retry after a fix).
  bool retry_failed = false;
  // The output is this run's complete result: its work seeds a new checkpoint (and a new
  // session), and its failures run again (with retry_failed).
  bool from_output = false;
  ShardSpec shard;
  QueueOptions queue;
  OutputWriters writers;
  // `merge`: the shards' work, this rank's share; it must be the whole run, no checkpoint.
  std::vector<Segment> merged;
  std::vector<std::string> merged_from;    // the shard files, for provenance
  std::vector<std::string> merged_builds;  // the builds that made them, for provenance
};

struct RunSummary {
  std::uint64_t tasks = 0;
  // The driver's units (tasks or chunks) of the whole run, and those of this run's shard.
  std::uint64_t run_units = 0;
  std::uint64_t shard_units = 0;
  double wall_seconds = 0;
  double max_idle_fraction = 0;  // over ranks: time waiting for work or peers / wall time
  std::uint64_t work_units = 0;  // kernel calls over all ranks
  bool stopped = false;          // checkpointed on a signal with work left; no result file
  int stop_signal = 0;           // which signal, as any rank got it
  std::int64_t session = 0;
  std::uint64_t failures = 0;  // tasks and chunks recorded as failed (on_error: record)
};

// A run's kernel and driver, found by their names once, at its start.
struct BoundRun {
  const config::Experiment& experiment;
  const KernelEntry& kernel;
  const Driver& driver;
};

// Throws config::ConfigError for a kernel that is not registered or does not offer the driver.
[[nodiscard]] BoundRun bind_run(const config::Experiment& experiment);

// Builds every point's kernel, one at a time, and checks its driver settings, so that
// contradictions the schema cannot see (elitism >= population, a range outside the index
// space, a kernel refusing its parameters) are config errors before anything runs. Throws
// config::ConfigError. What it learned of each point is the run's: run_experiment takes it.
[[nodiscard]] std::vector<PointFacts> check_runnable(const BoundRun& run);

// What a rank of a run of `experiment` on `ranks` ranks needs (estimate_run_memory with the
// runner's rows); `facts` as there.
[[nodiscard]] RunMemory run_memory(const BoundRun& run, int ranks,
                                   const std::vector<PointFacts>* facts);

// Empty when `needed` fits into this host's available memory shared by `ranks_on_host`
// ranks (or that memory cannot be read); otherwise memory_problem's message.
[[nodiscard]] std::string host_memory_problem(const RunMemory& needed, int ranks_on_host);

// Collective: refuses (config::ConfigError, "SOURCE: " first) a run that needs more memory
// per rank than its host has for each of its ranks there, before anything large is
// allocated; the estimate is run_memory's, the lowest rank of each host reads that host's
// available memory. Called before the points are checked (`facts` nullptr), so that no
// kernel is built that cannot fit, and again with what their check found.
void check_memory(const BoundRun& run, const std::string& source, const mpi::Comm& comm,
                  const std::vector<PointFacts>* facts);

// Collective. Throws on failure; the caller aborts the job. `experiment.output` is the file
// written (a shard's own name already applied). Stops for a checkpoint when StopSignal has
// seen a signal (the caller installs it).
RunSummary run_experiment(const BoundRun& run, const std::vector<PointFacts>& facts,
                          RunOptions options, const mpi::Comm& comm);

// One process: a shard's result file as the segment a checkpoint of its work would be.
[[nodiscard]] Segment shard_segment(const h5::File& file, const BoundRun& run,
                                    const std::vector<PointFacts>& facts, const ShardSpec& shard);

}  // namespace levelforge
