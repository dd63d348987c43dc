#pragma once
// What `run` and `resume` share: the options of the launch, declared once, and the launch
// itself, once the experiment and its shard are known.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "runner/checkpoint/shard.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/run.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge::cli {

// How `run` and `resume` start: the options that change what is written, not the results.
struct Launch {
  bool force = false;
  bool no_output = false;
  double progress_interval = 10;
  std::string progress = "auto";  // --progress: auto, bar, lines, none
  bool quiet = false;             // -q: --progress none, and no summary lines
  bool resume = false;
  bool retry_failed = false;              // with resume: run the recorded failures again
  std::string work_queue = "auto";        // --work-queue: auto, server or window (mpi/counters.hpp)
  std::string claims = "guided";          // --claims: guided or single (drivers/work_queue.hpp)
  std::string ranks_per_writer = "node";  // --ranks-per-writer (output/output_writers.hpp)
  std::string command_line;               // as typed, shell-quoted: the output lock names it
};

// The options of `run` and `resume` alike. How progress is reported: --progress-interval,
// --progress, -q.
void add_progress_options(CLI::App& command, Launch& launch);
// How the work is handed out and the output written: never part of the experiment (the
// results are the same either way), so options of the launch, recorded in the provenance:
// --work-queue, --claims, --ranks-per-writer.
void add_distribution_options(CLI::App& command, Launch& launch);

// Collective: runs the experiment of `run` (checked: `facts` are check_fits_and_runs') as
// `how` says.
// Before anything runs, rank 0 verifies what is at the output path (verified_result.hpp,
// find_checkpoint) and refuses (UsageError) a start that would replace, skip or delete
// something that is not this run's: docs/checkpoint.md's table of states. Returns the exit
// code.
int launch(const BoundRun& run, const std::vector<PointFacts>& facts, const ShardSpec& shard,
           const Launch& how, const mpi::Comm& comm);

}  // namespace levelforge::cli
