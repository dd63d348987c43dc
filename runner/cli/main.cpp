// levelforge: run procedural-level experiments over MPI into one HDF5 file.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string_view>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/stop_signal.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/config/experiment.hpp"
#include "runner/output/provenance.hpp"

namespace {

using namespace levelforge;

// MPI starts where a launcher started this process (so that only rank 0 prints) or for the
// commands that use it: a singleton MPI_Init costs a third of a second, which `inspect`,
// `solve` and the others need not pay.
class LazyMpi {
 public:
  LazyMpi(int& argc, char**& argv) : argc_(argc), argv_(argv) {
    if (mpi::started_by_launcher()) environment_.emplace(argc_, argv_);
  }

  [[nodiscard]] mpi::Comm world() {
    if (!environment_) environment_.emplace(argc_, argv_);
    return mpi::Comm::world();
  }
  [[nodiscard]] int rank() const { return environment_ ? mpi::Comm::world().rank() : 0; }
  [[nodiscard]] bool started() const { return environment_.has_value(); }

 private:
  int& argc_;
  char**& argv_;
  std::optional<mpi::Environment> environment_;
};

int dispatch(int argc, char** argv, LazyMpi& mpi) {
  CLI::App app{"levelforge: distributed batch experiments for procedural level generation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "levelforge " + std::string(build_version()) + " (" +
                                        std::string(build_commit()) + ")");

  // CLI11's PositiveNumber names its bound as a 300-digit number; this says what is wanted.
  // The bounds keep the interval within the clock's nanoseconds and above its resolution.
  const CLI::Validator positive_seconds(
      [](const std::string& text) {
        constexpr double shortest = 0.001;
        constexpr double longest = 1e9;
        std::string problem;
        try {
          std::size_t used = 0;
          const double seconds = std::stod(text, &used);
          if (used == text.size() && seconds >= shortest && seconds <= longest) return problem;
        } catch (const std::exception&) {
        }
        problem.append("expected a number of seconds from 0.001 to 1e9, found '").append(text) +=
            '\'';
        return problem;
      },
      "SECONDS");
  // An empty path would be a file named nothing: say so before anything looks for it.
  const CLI::Validator non_empty_path(
      [](const std::string& text) {
        return text.empty() ? std::string("an empty path; give a file's name") : std::string();
      },
      "PATH");

  cli::RunArguments run;
  auto* run_app = app.add_subcommand("run", "run an experiment (under mpirun -n N, or alone)");
  run_app->add_option("config", run.config_path, "experiment config (YAML)")
      ->required()
      ->check(non_empty_path);
  run_app->add_option("-o,--output", run.output, "HDF5 result file (default: the config's output)")
      ->check(non_empty_path);
  run_app->add_option("--set", run.overrides, "override a config value: key.path=value")
      ->allow_extra_args(false);
  run_app->add_flag("--force", run.launch.force, "replace an existing result file");
  run_app->add_flag("--no-output", run.launch.no_output,
                    "run without writing a result file (benchmarks)");
  run_app
      ->add_option("--progress-interval", run.launch.progress_interval,
                   "seconds between progress lines when stderr is not a terminal")
      ->check(positive_seconds);
  run_app->add_flag("-q,--quiet", run.launch.quiet, "no progress reports");
  run_app->add_flag("--resume", run.launch.resume,
                    "continue an interrupted run from its checkpoint (OUTPUT.checkpoint/); "
                    "starts from the beginning when there is none");
  run_app
      ->add_flag("--retry-failed", run.launch.retry_failed,
                 "with --resume: run the tasks and chunks recorded as failed again "
                 "(on_error: record)")
      ->needs(run_app->get_option("--resume"));
  run_app->add_option("--shard", run.shard,
                      "run only shard I of N (0 <= I < N) into OUTPUT.shard-I-of-N.h5; "
                      "`levelforge merge` combines the shards");

  cli::ResumeArguments resume;
  auto* resume_app = app.add_subcommand(
      "resume",
      "continue an interrupted run from its checkpoint: config, overrides and shard "
      "as the checkpoint holds them");
  resume_app
      ->add_option("output", resume.output,
                   "the run's result file (its checkpoint is "
                   "OUTPUT.checkpoint/)")
      ->required()
      ->check(non_empty_path);
  resume_app
      ->add_option("--progress-interval", resume.launch.progress_interval,
                   "seconds between progress lines when stderr is not a terminal")
      ->check(positive_seconds);
  resume_app->add_flag("-q,--quiet", resume.launch.quiet, "no progress reports");
  resume_app->add_flag("--retry-failed", resume.launch.retry_failed,
                       "run the tasks and chunks recorded as failed again (on_error: record)");

  cli::MergeArguments merge;
  auto* merge_app = app.add_subcommand(
      "merge", "combine the shard files of one run (run --shard I/N) into its result file");
  merge_app->add_option("output", merge.output, "the combined result file")
      ->required()
      ->check(non_empty_path);
  merge_app->add_option("shards", merge.shards, "every shard file of the run")
      ->required()
      ->check(non_empty_path);
  merge_app->add_flag("--force", merge.force, "replace an existing output file");

  std::string validate_path;
  std::vector<std::string> validate_overrides;
  auto* validate_app =
      app.add_subcommand("validate", "check a config and print the expanded sweep");
  validate_app->add_option("config", validate_path, "experiment config (YAML)")->required();
  validate_app->add_option("--set", validate_overrides, "override a config value: key.path=value")
      ->allow_extra_args(false);

  std::string kernel_name;
  auto* kernels_app = app.add_subcommand("kernels", "list the kernels, or describe one");
  kernels_app->add_option("name", kernel_name, "a kernel's name");

  std::string inspect_path;
  bool all_rows = false;
  bool brief = false;
  auto* inspect_app = app.add_subcommand("inspect", "summarize a result file");
  inspect_app->add_option("file", inspect_path, "HDF5 result file")
      ->required()
      ->check(non_empty_path);
  inspect_app->add_flag("--all", all_rows,
                        "list every point, task and record, not only the first 20");
  inspect_app->add_flag("--brief", brief, "provenance, task counts and result summaries only");

  cli::SolveArguments solve;
  auto* solve_app =
      app.add_subcommand("solve", "decide and solve one puzzle: is it solvable, and how");
  solve_app->add_option("kernel", solve.kernel, "the puzzle's kernel: tiltmaze or matchstick")
      ->required();
  solve_app
      ->add_option("file", solve.file,
                   "tiltmaze: the maze file, '-' for stdin; matchstick: the equation itself, "
                   "e.g. 6+4=4")
      ->required();
  // The kernels' own options; solve_command refuses those of another kernel.
  const std::vector<CLI::Option*> kernel_options = {
      solve_app
          ->add_option("--collect", solve.collect,
                       "tiltmaze: a target counts when the ball stops on it (stop, the default) "
                       "or rolls over it (pass)")
          ->check(CLI::IsMember({"stop", "pass"})),
      solve_app
          ->add_option("--moves", solve.moves, "matchstick: sticks to move, 1 to 3 (default 1)")
          ->check(CLI::Range(1, 3)),
      solve_app
          ->add_option("--count", solve.count,
                       "matchstick: solutions moving 1 to K sticks (up_to, the default) or "
                       "exactly K (exact)")
          ->check(CLI::IsMember({"up_to", "exact"})),
      solve_app
          ->add_option("--leading-zeros", solve.leading_zeros,
                       "matchstick: whether a number of 2+ digits in a solution may start with 0 "
                       "(allow, the default, or forbid)")
          ->check(CLI::IsMember({"allow", "forbid"})),
  };
  solve_app->add_flag("--json", solve.json, "one JSON object on stdout instead of the report");

  // CLI11 reads "-1" into a size_t as a huge number, and its range check prints 1.8e308.
  const CLI::Validator row_number(
      [](const std::string& text) {
        const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
          return std::isdigit(static_cast<unsigned char>(ch)) != 0;
        });
        std::size_t row = 0;
        const auto* end = text.data() + text.size();
        std::string problem;
        if (!digits) {
          problem.append("expected a row number (0, 1, 2, ...), found '").append(text) += '\'';
        } else if (std::from_chars(text.data(), end, row).ec != std::errc{}) {
          problem.append("row ").append(text).append(" is past the end of any table");
        }
        return problem;
      },
      "ROW");
  cli::MazeArguments maze;
  auto* maze_app =
      app.add_subcommand("maze", "draw a tilt maze stored in a result table, optionally solve it");
  maze_app->add_option("file", maze.file, "HDF5 result file")->required();
  maze_app->add_option("dataset", maze.dataset, "a table, e.g. /sweep/records")->required();
  maze_app
      ->add_option("--row", maze.row,
                   "the row, counted from 0 over all the table's elements (default 0)")
      ->check(row_number);
  maze_app->add_option("--field", maze.field, "the text field holding the compact maze")
      ->capture_default_str();
  maze_app->add_flag("--solve", maze.solve, "also print the solve report");
  maze_app
      ->add_option("--collect", maze.collect,
                   "with --solve: stop (the default) or pass, as for `solve`")
      ->check(CLI::IsMember({"stop", "pass"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (mpi.rank() != 0) return error.get_exit_code() == 0 ? cli::exit_ok : cli::exit_usage;
    const int code = app.exit(error);
    return code == 0 ? cli::exit_ok : cli::exit_usage;
  }

  if (run_app->parsed()) return cli::run_command(run, mpi.world());
  if (resume_app->parsed()) return cli::resume_command(resume, mpi.world());
  if (merge_app->parsed()) return cli::merge_command(merge, mpi.world());
  // The rest is one process's work; the other ranks of a launched job have nothing to do.
  if (mpi.rank() != 0) return cli::exit_ok;
  if (validate_app->parsed()) return cli::validate_command(validate_path, validate_overrides);
  if (kernels_app->parsed()) return cli::kernels_command(kernel_name);
  if (solve_app->parsed()) {
    for (const auto* option : kernel_options)
      if (option->count() > 0) solve.kernel_options.push_back(option->get_name());
    return cli::solve_command(solve);
  }
  if (maze_app->parsed()) return cli::maze_command(maze);
  cli::InspectDetail detail;
  if (all_rows) detail.rows = SIZE_MAX;
  if (brief) detail = {0, false};
  return cli::inspect_command(inspect_path, detail);
}

}  // namespace

int main(int argc, char** argv) {
  // `run` and `resume` turn SIGTERM and SIGUSR1 into a checkpoint from the first moment, MPI
  // start-up included (a warning may come at any time); other commands keep the default: they end.
  std::optional<levelforge::StopSignal> stop_signal;
  if (argc > 1 && (std::string_view(argv[1]) == "run" || std::string_view(argv[1]) == "resume"))
    stop_signal.emplace();
  LazyMpi mpi(argc, argv);
  try {
    return dispatch(argc, argv, mpi);
  } catch (const levelforge::cli::UsageError& error) {
    if (mpi.rank() == 0) std::fprintf(stderr, "levelforge: error: %s\n", error.what());
    return levelforge::cli::exit_usage;
  } catch (const levelforge::CheckpointError& error) {
    // Raised alike on every rank, like config errors.
    if (mpi.rank() == 0) std::fprintf(stderr, "levelforge: error: %s\n", error.what());
    return levelforge::cli::exit_usage;
  } catch (const levelforge::VerifyError& error) {
    // A file given or found that is not what the command needs: refused alike on every rank.
    if (mpi.rank() == 0) std::fprintf(stderr, "levelforge: error: %s\n", error.what());
    return levelforge::cli::exit_usage;
  } catch (const levelforge::config::ConfigError& error) {
    // Config errors are found identically on every rank: one report, a clean exit.
    if (mpi.rank() == 0) std::fprintf(stderr, "levelforge: error: %s\n", error.what());
    return levelforge::cli::exit_usage;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "levelforge: rank %d: error: %s\n", mpi.rank(), error.what());
    std::fflush(stderr);
    if (!mpi.started()) return levelforge::cli::exit_failure;
    // Other ranks may be inside a collective waiting for this one: end them all. Alone too:
    // after a failed write HDF5 crashes in MPI_Finalize, closing what it could not flush.
    levelforge::mpi::Comm::world().abort(levelforge::cli::exit_failure);
  }
}
