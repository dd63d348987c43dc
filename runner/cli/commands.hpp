#pragma once
// The `levelforge` subcommands. Each command file registers its own: a function that adds its
// CLI11 subcommand, with its options, and what runs it once parsed; main_program.cpp lists
// the registrations. A command returns the process exit code or throws: a runner error
// (runner/errors.hpp) raised alike on every rank (usage, config) is reported by rank 0 and
// its code returned; anything else aborts the job.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "kernels/api/puzzle.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/errors.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge::cli {

// A command refused before doing anything: an existing output, an unknown kernel, an
// input file that is not a levelforge result. Raised alike on every rank: reported by rank 0,
// exit_usage.
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

// What a parsed command runs with.
struct Invocation {
  // The communicator of the job: MPI is started on the first call where no launcher started
  // it (a singleton job).
  std::function<mpi::Comm()> world;
  std::string command_line;  // as typed, shell-quoted: an output lock names it
};

// Which ranks of a launched job run a command.
enum class Ranks {
  every,  // collective: every rank runs it over MPI (run, resume, merge)
  first,  // one process's work: rank 0 runs it and the others return exit_ok
};

// One subcommand, as registered.
struct Command {
  CLI::App* app = nullptr;  // the subcommand, parsed() when it is the one given
  Ranks ranks = Ranks::first;
  // Runs the parsed command and returns the exit code.
  std::function<int(const Invocation&)> run;
  // Called after parsing, before anything runs: throws a CLI::ParseError for what CLI11
  // cannot check itself, reported as CLI11 reports its own. Empty: nothing to check.
  std::function<void()> check;
};

// The subcommands of `app`, in the order they were added (which `levelforge --help` shows).
class CommandList {
 public:
  explicit CommandList(CLI::App& app) : app_(app) {}

  [[nodiscard]] CLI::App& app() const { return app_; }
  // `app`, a subcommand of app(), run by `ranks` with `run` (and `check`: Command's).
  void add(CLI::App* app, Ranks ranks, std::function<int(const Invocation&)> run,
           std::function<void()> check = {}) {
    commands_.push_back({app, ranks, std::move(run), std::move(check)});
  }
  // The command given on the command line, once parsed; nullptr before.
  [[nodiscard]] const Command* parsed() const;

 private:
  CLI::App& app_;
  std::vector<Command> commands_;
};

// The registrations, one in each command's file; main_program.cpp calls them in the order the
// help lists the commands.
void add_run_command(CommandList& commands);       // run_command.cpp
void add_resume_command(CommandList& commands);    // resume_command.cpp
void add_merge_command(CommandList& commands);     // merge_command.cpp
void add_validate_command(CommandList& commands);  // validate_command.cpp
void add_kernels_command(CommandList& commands);   // kernels_command.cpp
void add_inspect_command(CommandList& commands);   // inspect_command.cpp
void add_solve_command(CommandList& commands);     // solve_command.cpp
// `show`, and each kernel's own name for it (PuzzleInfo::show_command).
void add_show_commands(CommandList& commands);  // show_command.cpp

// An empty path would be a file named nothing: says so before anything looks for it.
CLI::Validator non_empty_path();

// Shared by `solve` and `show` (solve_command.cpp):
// `kernel`'s report on the puzzle in `text`: a PuzzleInputError becomes a UsageError, a failed
// check of the solvers an internal error naming `source` and the options.
Report solve_puzzle(const KernelEntry& kernel, std::string_view text, const std::string& source,
                    const ParamSet& options);
// The report as printed: its text, or its JSON object on one line.
std::string render_report(const Report& report, bool json);

}  // namespace levelforge::cli
