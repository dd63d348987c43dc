#pragma once
// What every driver gets: the experiment, the kernel, the communicator, the result file
// (absent when output is disabled), and the bookkeeping shared by all drivers.

#include <cstdint>
#include <memory>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/drivers/idle_clock.hpp"
#include "runner/drivers/progress.hpp"
#include "runner/drivers/work_queue.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge {

// The rows of /tasks this rank is responsible for.
class TaskLog {
 public:
  static RecordLayout layout();
  void add(const config::Experiment& experiment, std::uint64_t task, double wall_seconds, int rank);
  // Collective.
  void write(ResultFile& file, std::uint64_t task_count) const;

 private:
  std::vector<std::uint64_t> tasks_;
  std::vector<std::byte> rows_;
};

struct DriverContext {
  const config::Experiment& experiment;
  const KernelEntry& kernel;
  const mpi::Comm& comm;
  ResultFile* file;  // nullptr: output disabled
  ProgressReporter& progress;
  TaskLog& tasks;
  IdleClock& idle;
  std::uint64_t work_units = 0;  // kernel calls made by this rank, for the timing table

  // Rank 0 reports when due; every rank may call it.
  void poll_progress(WorkQueue& queue, std::uint64_t units_total);
  void finish_progress(WorkQueue& queue);
};

void run_ga_driver(DriverContext& context);
void run_sweep_driver(DriverContext& context);
void run_exhaustive_driver(DriverContext& context);

}  // namespace levelforge
