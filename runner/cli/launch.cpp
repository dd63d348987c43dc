#include "runner/cli/launch.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/output_lock.hpp"
#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/output_place.hpp"
#include "runner/files/shell_word.hpp"
#include "runner/mpi/counters.hpp"
#include "runner/output/output_writers.hpp"

namespace levelforge::cli {

namespace {

// CLI11's PositiveNumber names its bound as a 300-digit number; this says what is wanted.
// The bounds keep the interval within the clock's nanoseconds and above its resolution.
CLI::Validator positive_seconds() {
  return {
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
      "SECONDS"};
}

// What a run does with what it finds at its output path.
// retry_output: the output is this run's complete result and its failures run again.
enum class Start : std::int64_t { fresh, resume, nothing_to_do, retry_output };

// Rows of the /failures table of a verified result file.
std::uint64_t recorded_failures(const std::string& path) {
  const auto root = open_result(path).root();
  return root.has("failures") ? root.open_dataset("failures").element_count() : 0;
}

// " (it holds 12 of 40 tasks done in 2 sessions)", or nothing when it cannot be read.
std::string checkpoint_contents(const std::string& directory) {
  try {
    return " (it holds " + describe_progress(summarize_checkpoint(directory)) + ")";
  } catch (const CheckpointError&) {
    return {};
  }
}

// Rank 0: what the run does, decided from the output and checkpoint found, each verified
// before anything is skipped, replaced or deleted. Throws UsageError for a refused start,
// which has then changed nothing. `notes` are for the user.
Start plan_start(const config::Experiment& experiment, const ShardSpec& shard, const Launch& how,
                 std::vector<std::string>& notes) {
  const bool resume = how.resume;
  const bool force = how.force;
  namespace fs = std::filesystem;
  using Kind = CheckpointFound::Kind;
  const auto& output = experiment.output;
  const auto directory = checkpoint_directory(output);
  const auto checkpoint = find_checkpoint(directory);
  if (checkpoint.kind == Kind::foreign) throw UsageError(checkpoint.problem);
  std::error_code ignored;
  const bool output_exists = fs::exists(fs::symlink_status(output, ignored));
  const auto identity = run_identity(experiment, shard);
  std::string what_output_is;
  const auto match =
      output_exists ? match_result(output, identity, what_output_is) : ResultMatch::other;

  if (!resume) {
    if ((checkpoint.kind == Kind::levelforge || checkpoint.kind == Kind::unusable) && !force) {
      throw UsageError(directory + " holds the checkpoint of an interrupted run" +
                       checkpoint_contents(directory) +
                       "; pass --resume to continue it, or --force to start over (the "
                       "checkpoint is deleted)");
    }
    if (output_exists && !force) {
      throw UsageError("output file '" + output + "' already exists (" +
                       (match == ResultMatch::this_run
                            ? std::string("the complete result of this run")
                            : what_output_is) +
                       "); pass --force to replace it");
    }
    return Start::fresh;
  }
  if (match != ResultMatch::other) {
    // The experiment had finished. A checkpoint beside it is a kill between the result's
    // rename and the checkpoint's removal, or a retry of its failures that was stopped.
    std::optional<SavedRun> saved;
    if (checkpoint.kind == Kind::levelforge) saved = read_saved_run(directory);
    const bool of_this_experiment =
        saved && experiment_part(saved->identity) == experiment_part(identity);
    if (how.retry_failed) {
      if (of_this_experiment) return Start::resume;
      if (checkpoint.kind == Kind::levelforge || checkpoint.kind == Kind::unusable) {
        throw UsageError("cannot retry the failures of " + output + ": the checkpoint " +
                         directory + " beside it is not this run's" +
                         checkpoint_contents(directory) + "; move it away and retry");
      }
      const auto failures = recorded_failures(output);
      if (failures > 0) {
        notes.push_back(fmt::format("{} is complete with {} failure{}: running {} again{}", output,
                                    failures, failures == 1 ? "" : "s",
                                    failures == 1 ? "it" : "them",
                                    match == ResultMatch::this_experiment
                                        ? " with this build (it was made by another; the result "
                                          "records both)"
                                        : ""));
        return Start::retry_output;
      }
      notes.push_back(output + " holds no failures to retry");
      return Start::nothing_to_do;
    }
    if (of_this_experiment && saved->retry_session >= 0) {
      notes.push_back("continuing the retry of " + output + "'s failures that was stopped");
      return Start::resume;
    }
    if (checkpoint.kind == Kind::unstarted || (of_this_experiment && saved->identity == identity)) {
      remove_checkpoint(directory);
    } else if (checkpoint.kind != Kind::absent) {
      notes.push_back(
          "the checkpoint " + directory + " beside it is not this run's and is kept: " +
          (checkpoint.problem.empty()
               ? "inspect it with `" + shell_command({"levelforge", "inspect", directory}) + "`"
               : checkpoint.problem));
    }
    if (match == ResultMatch::this_experiment) notes.push_back(what_output_is);
    return Start::nothing_to_do;
  }
  if (output_exists && !force) {
    std::string kept = checkpoint.kind == Kind::absent || checkpoint.kind == Kind::unstarted
                           ? "there is no checkpoint beside it to resume"
                           : "the checkpoint beside it, " + directory +
                                 checkpoint_contents(directory) + ", is kept";
    throw UsageError("cannot resume into " + output + ": " + what_output_is + "\n" + kept +
                     "; nothing was changed. Move " + output +
                     " away and resume again, or pass --force to replace it with this run's "
                     "result");
  }
  switch (checkpoint.kind) {
    case Kind::levelforge: return Start::resume;
    case Kind::unusable: throw UsageError(checkpoint.problem);
    case Kind::unstarted:
      notes.push_back(directory +
                      " holds nothing saved (the run stopped before its first checkpoint): "
                      "starting from the beginning");
      return Start::fresh;
    default:
      notes.push_back("no checkpoint at " + directory + ": starting from the beginning");
      return Start::fresh;
  }
}

// Collective: a work queue asked for by name can be made here, found before the checkpoint
// is: a window needs an MPI one-sided component, which a job's MCA settings may exclude.
void check_work_queue(const std::string& name, const mpi::Comm& comm) {
  const auto host = mpi::parse_counter_host(name);
  if (host != mpi::CounterHost::window) return;
  std::string problem;
  try {
    mpi::make_counters(comm, 1, host)->free();
  } catch (const mpi::MpiError& error) {
    problem = error.what();
  }
  if (auto problems = mpi::all_problems(comm, problem); !problems.empty()) {
    problems.resize(std::min(problems.size(), problems.find('\n')));  // each rank says the same
    throw UsageError("--work-queue window: this MPI cannot make the one-sided window (" + problems +
                     "); use --work-queue server, or auto, which chooses");
  }
}

}  // namespace

void add_progress_options(CLI::App& command, Launch& launch) {
  command
      .add_option("--progress-interval", launch.progress_interval,
                  "seconds between progress lines when stderr is not a terminal")
      ->check(positive_seconds());
  command
      .add_option("--progress", launch.progress,
                  "auto (a bar on a terminal, else lines), bar, lines or none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}));
  command.add_flag("-q,--quiet", launch.quiet, "no progress reports");
}

void add_distribution_options(CLI::App& command, Launch& launch) {
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

int launch(const BoundRun& run, const std::vector<PointFacts>& facts, const ShardSpec& shard,
           const Launch& how, const mpi::Comm& comm) {
  const auto& experiment = run.experiment;
  if (how.resume && how.no_output) {
    throw UsageError(
        "--resume continues the checkpoint beside the output, and --no-output writes none: "
        "drop one of them");
  }
  const bool quiet_rank = comm.rank() != 0 || how.quiet;
  std::optional<OutputLock> lock;
  RunOptions options;
  options.shard = shard;
  if (!how.no_output) {
    check_output_place(experiment.output, "-o {}", comm);
    check_work_queue(how.work_queue, comm);
    // Held from before the first look at the output to after the last write, by rank 0.
    const auto held = mpi::root_verdict(
        comm, [&] { lock.emplace(OutputLock::acquire(experiment.output, how.command_line)); });
    if (!held.empty()) throw UsageError(held);
    std::int64_t start = 0;
    std::vector<std::string> notes;
    const auto refused = mpi::root_verdict(comm, [&] {
      start = static_cast<std::int64_t>(plan_start(experiment, shard, how, notes));
    });
    if (!refused.empty()) throw UsageError(refused);
    comm.broadcast_value(start, 0);
    if (comm.rank() == 0) {
      for (const auto& note : notes) fmt::print(stderr, "levelforge: {}\n", note);
    }
    if (static_cast<Start>(start) == Start::nothing_to_do) {
      if (comm.rank() == 0) {
        fmt::print("levelforge: {} is complete; nothing to resume\n", experiment.output);
      }
      return exit_ok;
    }
    options.resume = static_cast<Start>(start) == Start::resume;
    options.from_output = static_cast<Start>(start) == Start::retry_output;
  }
  if (!quiet_rank) {
    fmt::print(stderr, "levelforge: {} ({} kernel, {} driver): {} tasks on {} rank{}{}\n",
               experiment.name, experiment.kernel, experiment.driver, experiment.task_count(),
               comm.size(), comm.size() == 1 ? "" : "s",
               shard.sharded() ? ", shard " + shard.text() : "");
  }
  options.retry_failed = how.retry_failed;
  options.queue = {mpi::parse_counter_host(how.work_queue),
                   how.claims == claim_batches_name(ClaimBatches::single) ? ClaimBatches::single
                                                                          : ClaimBatches::guided};
  options.writers = parse_output_writers(how.ranks_per_writer);
  options.write_output = !how.no_output;
  options.progress_interval_seconds = how.progress_interval;
  options.progress = how.quiet ? ProgressStyle::none : parse_progress_style(how.progress);
  const auto summary = run_experiment(run, facts, options, comm);
  if (comm.rank() != 0) {
    if (summary.stopped) return exit_checkpointed;
    return summary.failures > 0 ? exit_task_failures : exit_ok;
  }
  if (summary.stopped) {
    fmt::print(stderr,
               "levelforge: stopped by signal {}: checkpoint saved in {}; continue with "
               "`{}` (under mpirun or srun, on any number of ranks); "
               "`{}` shows how much is done\n",
               summary.stop_signal, checkpoint_directory(experiment.output),
               resume_command_text(experiment.output),
               shell_command({"levelforge", "inspect", experiment.output}));
    return exit_checkpointed;
  }
  const auto unit = run.driver.unit();
  // A shard does its share of the driver's units: of the chunks for exhaustive, which splits
  // each task.
  const auto work = shard.sharded()
                        ? fmt::format("shard {}: {} of {} {}s", shard.text(), summary.shard_units,
                                      summary.run_units, unit)
                        : fmt::format("{} task{}", summary.tasks, summary.tasks == 1 ? "" : "s");
  fmt::print("levelforge: {}, {} kernel calls in {:.4f} s on {} rank{} (max idle {:.1f}%)\n", work,
             summary.work_units, summary.wall_seconds, comm.size(), comm.size() == 1 ? "" : "s",
             100 * summary.max_idle_fraction);
  if (options.write_output) fmt::print("levelforge: results: {}\n", experiment.output);
  if (summary.failures > 0) {
    fmt::print(stderr,
               "levelforge: {} {}{} failed (on_error: record); their results are missing. "
               "The failures are in /failures{}\n",
               summary.failures, unit, summary.failures == 1 ? "" : "s",
               options.write_output
                   ? fmt::format("; `{}` lists them by point",
                                 shell_command({"levelforge", "inspect", experiment.output}))
                   : std::string());
    return exit_task_failures;
  }
  return exit_ok;
}

}  // namespace levelforge::cli
