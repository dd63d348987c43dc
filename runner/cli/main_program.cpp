// The levelforge command line: every subcommand, MPI started only where needed, and the
// errors turned into exit codes.
#include "runner/cli/main_program.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <list>
#include <optional>
#include <string_view>

#include "kernels/api/isa.hpp"
#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/stop_signal.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/suggest.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/files/shell_word.hpp"
#include "runner/output/output_writers.hpp"
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

// How the work is handed out and the output written: never part of the experiment (the
// results are the same either way), so options of the launch, recorded in the provenance.
void add_distribution_options(CLI::App& command, cli::Launch& launch) {
  command
      .add_option("--work-queue", launch.work_queue,
                  "auto (default: window when all ranks are on one node and its atomics "
                  "need no rank 0, else server), server (a thread on rank 0 answers claims, "
                  "on any transport) or window (one-sided atomics: fast where the transport "
                  "does them without rank 0)")
      ->check(CLI::IsMember({"auto", "server", "window"}));
  command
      .add_option("--claims", launch.claims,
                  "guided (batches shrinking as the queue empties; default) or single (one "
                  "item per request)")
      ->check(CLI::IsMember({"guided", "single"}));
  command
      .add_option("--ranks-per-writer", launch.ranks_per_writer,
                  "node (one rank per node opens the result file and the others send it their "
                  "rows; default) or N (one per N ranks of a node; 1: every rank writes)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            try {
              (void)parse_output_writers(text);
              return std::string();
            } catch (const std::invalid_argument& error) {
              return std::string(error.what());
            }
          },
          "node|N"));
}

// The kernels' SIMD paths are chosen at run time; which one runs depends on the CPU, so
// the version says what this machine would run.
std::string version_text() {
  std::string text = "levelforge " + std::string(build_version()) + " (" +
                     std::string(build_commit()) +
                     ")\nsimd: portable, avx2 and avx512 paths built; this CPU runs " +
                     std::string(isa_name(best_isa()));
  for (const auto& kernel : registered_kernels()) {
    if (!kernel.simd_paths.empty()) text += "\n  " + kernel.name + ": " + kernel.simd_paths;
  }
  return text;
}

// A puzzle given on the command line may begin with '-' ("-1+2=1": the kernel refuses it with
// its own message), which CLI11 reads as an unknown option unless a digit follows, and keeps
// among the extras of `command` (which allows them for this). The first extra that is no long
// option is the input when none was given; any other extra is refused as CLI11 refuses it.
void take_input_from_extras(const CLI::App& command, const CLI::Option& input_option,
                            std::string& input) {
  std::vector<std::string> extras = command.remaining();
  // CLI11 keeps a "--" that ends the options among them.
  std::erase(extras, "--");
  if (input_option.count() == 0) {
    const auto first = std::find_if(extras.begin(), extras.end(),
                                    [](const std::string& arg) { return !arg.starts_with("--"); });
    if (first == extras.end()) throw CLI::RequiredError(input_option.get_name());
    input = *first;
    extras.erase(first);
  }
  if (!extras.empty()) throw CLI::ExtrasError(command.get_name(), extras);
}

// An error of this rank alone: reported with the rank, and the job ended with `code`.
int end_job(const LazyMpi& mpi, const char* message, int code) {
  std::fprintf(stderr, "levelforge: rank %d: error: %s\n", mpi.rank(), message);
  std::fflush(stderr);
  if (!mpi.started()) return code;
  // Other ranks may be inside a collective waiting for this one: end them all. Alone too:
  // after a failed write HDF5 crashes in MPI_Finalize, closing what it could not flush.
  levelforge::mpi::Comm::world().abort(code);
}

int dispatch(int argc, char** argv, LazyMpi& mpi) {
  CLI::App app{"levelforge: distributed batch experiments for procedural level generation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());

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
  run_app
      ->add_option("--progress", run.launch.progress,
                   "auto (a bar on a terminal, else lines), bar, lines or none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}));
  run_app->add_flag("-q,--quiet", run.launch.quiet, "no progress reports");
  run_app->add_flag("--resume", run.launch.resume,
                    "continue an interrupted run from its checkpoint (OUTPUT.checkpoint/); "
                    "starts from the beginning when there is none");
  run_app
      ->add_flag("--retry-failed", run.launch.retry_failed,
                 "with --resume: run the tasks and chunks recorded as failed again "
                 "(on_error: record), with this build even when another made the checkpoint "
                 "or result (both builds are recorded)")
      ->needs(run_app->get_option("--resume"));
  add_distribution_options(*run_app, run.launch);
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
  resume_app
      ->add_option("--progress", resume.launch.progress,
                   "auto (a bar on a terminal, else lines), bar, lines or none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}));
  resume_app->add_flag("-q,--quiet", resume.launch.quiet, "no progress reports");
  resume_app->add_flag("--retry-failed", resume.launch.retry_failed,
                       "run the tasks and chunks recorded as failed again (on_error: record), "
                       "with this build even when it is not the one that made the checkpoint "
                       "or result (a retry after a fix; both builds are recorded)");
  resume_app
      ->add_option("--set", resume.overrides,
                   "change what no finished result depends on: on_error=record, "
                   "checkpoint.every=N, checkpoint.seconds=S")
      ->allow_extra_args(false);
  add_distribution_options(*resume_app, resume.launch);

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
  std::vector<std::string> puzzle_kernels;
  std::vector<std::string> inputs;
  for (const auto& entry : registered_kernels()) {
    if (!entry.puzzle) continue;
    puzzle_kernels.push_back(entry.name);
    inputs.push_back(entry.name + ": " + entry.puzzle->info.input);
  }
  solve_app
      ->add_option("kernel", solve.kernel,
                   "the puzzle's kernel: " + config::join(puzzle_kernels, " or "))
      ->required();
  // Not required() for CLI11: take_input_from_extras requires it, where it may also begin
  // with '-'.
  auto* solve_input = solve_app->add_option("file", solve.input, config::join(inputs, "; "));
  solve_app->allow_extras();
  const cli::PuzzleOptions solve_options(*solve_app);
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
  // `show`, and each kernel's own name for it (PuzzleInfo::show_command) with the kernel fixed.
  struct ShowCommand {
    CLI::App* app = nullptr;
    cli::ShowArguments arguments;
    std::optional<cli::PuzzleOptions> options;
  };
  std::list<ShowCommand> show_commands;
  const auto add_show = [&](const std::string& name, const std::string& description,
                            const KernelEntry* kernel) {
    auto& show = show_commands.emplace_back();
    show.app = app.add_subcommand(name, description);
    if (kernel == nullptr) {
      show.app->add_option("kernel", show.arguments.kernel, "the puzzle's kernel")->required();
    } else {
      show.arguments.kernel = kernel->name;
    }
    show.app->add_option("file", show.arguments.file, "HDF5 result file")->required();
    show.app->add_option("dataset", show.arguments.dataset, "a table, e.g. /sweep/records")
        ->required();
    show.app
        ->add_option("--row", show.arguments.row,
                     "the row, counted from 0 over all the table's elements (default 0)")
        ->check(row_number);
    show.app->add_option("--field", show.arguments.field,
                         kernel == nullptr
                             ? "the text field holding the puzzle (default: the kernel's)"
                             : "the text field holding the " + kernel->puzzle->info.noun +
                                   " (default " + kernel->puzzle->info.stored_field + ")");
    show.app->add_flag("--solve", show.arguments.solve, "also print the solve report");
    show.options.emplace(*show.app, kernel);
  };
  add_show("show", "draw a puzzle stored in a result table, optionally solve it", nullptr);
  for (const auto& entry : registered_kernels()) {
    if (!entry.puzzle || entry.puzzle->info.show_command.empty()) continue;
    add_show(entry.puzzle->info.show_command,
             "draw a " + entry.puzzle->info.noun + " stored in a result table (`show " +
                 entry.name + "`), optionally solve it",
             &entry);
  }

  try {
    app.parse(argc, argv);
    if (solve_app->parsed()) take_input_from_extras(*solve_app, *solve_input, solve.input);
  } catch (const CLI::ParseError& error) {
    if (mpi.rank() != 0) return error.get_exit_code() == 0 ? cli::exit_ok : cli::exit_usage;
    const int code = app.exit(error);
    return code == 0 ? cli::exit_ok : cli::exit_usage;
  }

  const auto command_line = shell_command({argv, argv + argc});
  run.launch.command_line = resume.launch.command_line = merge.command_line = command_line;
  if (run_app->parsed()) return cli::run_command(run, mpi.world());
  if (resume_app->parsed()) return cli::resume_command(resume, mpi.world());
  if (merge_app->parsed()) return cli::merge_command(merge, mpi.world());
  // The rest is one process's work; the other ranks of a launched job have nothing to do.
  if (mpi.rank() != 0) return cli::exit_ok;
  if (validate_app->parsed()) return cli::validate_command(validate_path, validate_overrides);
  if (kernels_app->parsed()) return cli::kernels_command(kernel_name);
  if (solve_app->parsed()) {
    solve.options = solve_options.given_options();
    return cli::solve_command(solve);
  }
  for (auto& show : show_commands) {
    if (!show.app->parsed()) continue;
    show.arguments.options = show.options->given_options();
    return cli::show_command(show.arguments);
  }
  cli::InspectDetail detail;
  if (all_rows) detail.rows = SIZE_MAX;
  if (brief) detail = {0, false};
  return cli::inspect_command(inspect_path, detail);
}

}  // namespace

int levelforge::cli::main_program(int argc, char** argv) {
  // `run` and `resume` turn SIGTERM and SIGUSR1 into a checkpoint from the first moment, MPI
  // start-up included (a warning may come at any time); other commands keep the default: they end.
  std::optional<levelforge::StopSignal> stop_signal;
  if (argc > 1 && (std::string_view(argv[1]) == "run" || std::string_view(argv[1]) == "resume"))
    stop_signal.emplace();
  LazyMpi mpi(argc, argv);
  try {
    return dispatch(argc, argv, mpi);
  } catch (const levelforge::Error& error) {
    // Raised alike on every rank (usage, config, a file or checkpoint refused): one report,
    // a clean exit.
    if (error.alike_on_every_rank()) {
      if (mpi.rank() == 0) std::fprintf(stderr, "levelforge: error: %s\n", error.what());
      return error.exit_code();
    }
    return end_job(mpi, error.what(), error.exit_code());
  } catch (const std::exception& error) {
    // Not the runner's (a kernel's, the standard library's): this rank's alone.
    return end_job(mpi, error.what(), levelforge::exit_failure);
  }
}
