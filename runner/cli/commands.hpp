#pragma once
// The `levelforge` subcommands. Each returns the process exit code or throws: a runner error
// (runner/errors.hpp) raised alike on every rank (usage, config) is reported by rank 0 and
// its code returned; anything else aborts the job.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/puzzle.hpp"
#include "runner/cli/puzzle_options.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/errors.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge::cli {

// Exit codes (runner/errors.hpp), documented in docs/cli.md.
using levelforge::exit_checkpointed;
using levelforge::exit_failure;
using levelforge::exit_ok;
using levelforge::exit_task_failures;
using levelforge::exit_usage;

// A command refused before doing anything: an existing output, an unknown kernel, an
// input file that is not a levelforge result. Raised alike on every rank: reported by rank 0,
// exit_usage.
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

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

struct RunArguments {
  std::string config_path;
  std::string output;  // empty: the config's
  std::vector<std::string> overrides;
  std::string shard;  // "I/N"; empty: the whole run
  Launch launch;
};

// Before anything runs, rank 0 verifies what is at the output path (verified_result.hpp,
// find_checkpoint) and refuses (UsageError) a start that would replace, skip or delete
// something that is not this run's: docs/checkpoint.md's table of states.
int run_command(const RunArguments& arguments, const mpi::Comm& comm);

// `resume OUTPUT`: the run whose checkpoint is OUTPUT.checkpoint/, continued with the config
// text and shard its manifest holds; nothing to retype.
struct ResumeArguments {
  std::string output;
  // --set of the keys a session may change (on_error, checkpoint.*); any other is refused.
  std::vector<std::string> overrides;
  Launch launch;  // force, no_output and resume are not options of `resume`
};

int resume_command(const ResumeArguments& arguments, const mpi::Comm& comm);

// Collective, for `run` and `merge`: refuses (UsageError) an output that cannot be a result
// file (a directory, a path ending in '/', a device) or cannot be written (a folder that
// cannot be made or written into); rank 0 looks for all. `file_argument` is how the command
// names its output in the message's hint, {} standing for the file: "-o {}".
void check_output_place(const std::string& output, std::string_view file_argument,
                        const mpi::Comm& comm);
// Collective, for `run` and `merge`: refuses (UsageError) to replace an existing result
// unless forced; rank 0 looks for all.
void check_output_free(const std::string& output, bool force, const mpi::Comm& comm);
// `merge OUT SHARD...`: the shards of one run combined into the file the unsharded run writes.
struct MergeArguments {
  std::string output;
  std::vector<std::string> shards;
  bool force = false;
  std::string command_line;
};

int merge_command(const MergeArguments& arguments, const mpi::Comm& comm);

// The commands below need no MPI: they run in one process (rank 0 of a launched job).
int validate_command(const std::string& config_path, const std::vector<std::string>& overrides);
int kernels_command(const std::string& name);
// How much `inspect` prints: rows of the points, tasks and result tables (0: none, and no
// config text either).
struct InspectDetail {
  std::size_t rows = 20;
  bool config = true;
};

int inspect_command(const std::string& path, const InspectDetail& detail);

// `solve KERNEL INPUT`: one puzzle of a kernel that claims the puzzle capability, read,
// solved, checked and reported on rank 0.
struct SolveArguments {
  std::string kernel;
  std::string input;  // a file ('-': stdin) or the puzzle's text, as the kernel's PuzzleInfo says
  std::vector<OptionSetting> options;
  bool json = false;
};

int solve_command(const SolveArguments& arguments);

// `kernel`'s report on the puzzle in `text`: a PuzzleInputError becomes a UsageError, a failed
// check of the solvers an internal error naming `source` and the options.
Report solve_puzzle(const KernelEntry& kernel, std::string_view text, const std::string& source,
                    const ParamSet& options);
// The report as printed: its text, or its JSON object on one line.
std::string render_report(const Report& report, bool json);

// `show KERNEL FILE DATASET`: the puzzle in text field `field` (empty: the kernel's
// stored_field) of row `row` (counted over all the table's elements, row-major) drawn on rank
// 0, and reported as by `solve` with `solve`. A kernel's PuzzleInfo::show_command names the
// same command for that kernel.
struct ShowArguments {
  std::string kernel;
  std::string file;
  std::string dataset;
  std::size_t row = 0;
  std::string field;
  bool solve = false;
  std::vector<OptionSetting> options;
};

int show_command(ShowArguments arguments);

}  // namespace levelforge::cli
