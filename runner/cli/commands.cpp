#include "runner/cli/commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/output_lock.hpp"
#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/suggest.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/drivers/run.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/files/input_file.hpp"
#include "runner/files/shell_word.hpp"
#include "runner/mpi/counters.hpp"

namespace levelforge::cli {

namespace {

// The contradictions between keys (elitism >= population, a range outside the index space)
// have no single line to point at: the file is the place.
std::vector<PointFacts> check_experiment(const BoundRun& run, const std::string& source) {
  try {
    return check_runnable(run);
  } catch (const config::ConfigError& error) {
    throw config::ConfigError(source + ": " + error.what());
  }
}

// Collective: the memory check before any point's kernel is built, so that none is built
// that cannot fit; the points' check; and the memory check again with what it found (the QD
// archives, the exhaustive chunks). Returns what the check found, for the run.
std::vector<PointFacts> check_fits_and_runs(const BoundRun& run, const std::string& source,
                                            const mpi::Comm& comm) {
  check_memory(run, source, comm, nullptr);
  auto facts = check_experiment(run, source);
  check_memory(run, source, comm, &facts);
  return facts;
}

// Every rank parses the config text rank 0 read, so all parse the same bytes.
config::Experiment share_experiment(config::Experiment experiment, const std::string& source,
                                    const mpi::Comm& comm) {
  std::string text = experiment.config_text;
  comm.broadcast(text, 0);
  if (comm.rank() != 0) {
    experiment = config::parse_experiment(text, source, {}, config_schema());
    experiment.config_text = std::move(text);
  }
  return experiment;
}

// Rank 0 alone reads the config and the table files it names; its config_text holds all
// of it, and the other ranks parse that, so they need no file and cannot read another.
config::Experiment read_experiment(const std::string& path,
                                   const std::vector<std::string>& overrides) {
  if (const auto unreadable = input_file_problem(path, "config file", config_size_limit);
      !unreadable.empty()) {
    throw config::ConfigError(unreadable);
  }
  std::string content;
  if (!read_input_file(path, config_size_limit, content)) {
    throw config::ConfigError("cannot read config file '" + path + "'");
  }
  return config::parse_experiment(content, path, overrides, config_schema());
}

config::Experiment load_experiment(const std::string& path,
                                   const std::vector<std::string>& overrides,
                                   const mpi::Comm& comm) {
  config::Experiment experiment;
  const std::string problem =
      mpi::root_verdict(comm, [&] { experiment = read_experiment(path, overrides); });
  if (!problem.empty()) throw config::ConfigError(problem);
  return share_experiment(std::move(experiment), path, comm);
}

// A YAML single-quoted scalar: any path reads back as itself.
std::string yaml_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

std::string point_line(const config::Experiment& experiment, std::size_t point) {
  std::string line = fmt::format("  {:>4}:", point);
  for (std::size_t k = 0; k < experiment.swept_keys.size(); ++k) {
    line += fmt::format(" {}={}", experiment.swept_keys[k],
                        format_value(experiment.points[point].swept_values[k]));
  }
  return line;
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

// Open MPI's MPI-IO (ompio, 4.1 in Debian 12) copies the path it is given, with suffixes of
// its own, into fixed buffers, and names its shared-file-pointer files after the file: a
// result path of 237 bytes (its `.partial` 245) aborts the job at start-up and a file name of
// 233 fails in MPI_File_open, each after the checkpoint was made. The path counts as typed
// (a relative path is shorter), so the bounds leave room and the advice says so.
constexpr std::size_t longest_output_path = 230;
constexpr std::size_t longest_output_name = 200;

std::string output_length_problem(const std::string& output) {
  const auto name = std::filesystem::path(output).filename().string();
  if (name.size() > longest_output_name) {
    return fmt::format(
        "the result file's name '{}' is {} bytes long; levelforge takes names of at most {} "
        "(the MPI-IO library names files of its own after it, within the file system's 255): "
        "give a shorter name (-o, or the experiment's name for a shard)",
        name, name.size(), longest_output_name);
  }
  if (output.size() > longest_output_path) {
    return fmt::format(
        "the result path '{}' is {} bytes long; levelforge takes paths of at most {} as given "
        "(the MPI-IO library copies it into buffers of fixed size): run from a folder nearer the "
        "output and give it relative to there (-o results/x.h5), or shorten it",
        output, output.size(), longest_output_path);
  }
  return {};
}

// Rank 0's check that the result can be written where it goes: the folder exists or can
// be made, and a file can be created in it. Found before anything runs, so that a typo'd
// or read-only path is a usage error naming the folder, not an HDF5 error after the work.
// `file_argument` is how the command names its output, {} standing for the file.
std::string output_place_problem(const std::string& output, std::string_view file_argument) {
  namespace fs = std::filesystem;
  const auto naming = [&](const std::string& file) {
    return fmt::format(fmt::runtime(file_argument), file);
  };
  std::error_code error;
  if (output.empty()) {
    return "the output path is empty; give the result file's name (" + naming("FILE") + ")";
  }
  if (fs::is_directory(output, error)) {
    return "output '" + output + "' is a directory; give a file name (" + naming("FILE") + ")";
  }
  if (output.back() == '/') {
    return "output '" + output + "' ends in '/', so it names a folder; give a file name (" +
           naming(output + "NAME.h5") + ")";
  }
  if (const auto kind = special_file_kind(output); !kind.empty()) {
    return "output '" + output + "' is " + kind + "; give the path of a regular file";
  }
  if (const auto problem = output_length_problem(output); !problem.empty()) return problem;
  // The folder is made when the run starts, not here: a refused start writes nothing. Its
  // nearest existing ancestor must be a folder this process can write into.
  fs::path folder = fs::path(output).parent_path();
  if (folder.empty()) folder = ".";
  fs::path existing = folder;
  while (!fs::exists(existing, error) && existing.has_relative_path()) {
    existing = existing.parent_path().empty() ? fs::path(".") : existing.parent_path();
  }
  const bool missing = existing != folder;
  const auto refused =
      missing
          ? "cannot create the output folder '" + folder.string() + "' for '" + output + "': "
          : "cannot write into the output folder '" + folder.string() + "' for '" + output + "': ";
  if (!fs::is_directory(existing, error))
    return refused + "'" + existing.string() + "' is not a folder";
  // Permission bits do not tell (root, read-only mounts, /proc): try a file.
  const auto probe = existing / (".levelforge-write-test-" + std::to_string(::getpid()));
  std::ofstream out(probe);
  if (!out) {
    return refused + (missing ? "cannot write into '" + existing.string() + "': " : "") +
           std::strerror(errno);
  }
  out.close();
  fs::remove(probe, error);
  return {};
}

}  // namespace

void check_output_place(const std::string& output, std::string_view file_argument,
                        const mpi::Comm& comm) {
  const auto problem = mpi::root_verdict(comm, [&] {
    const auto found = output_place_problem(output, file_argument);
    if (!found.empty()) throw UsageError(found);
  });
  if (!problem.empty()) throw UsageError(problem);
}

void check_output_free(const std::string& output, bool force, const mpi::Comm& comm) {
  std::string problem;
  if (comm.rank() == 0 && !force && std::filesystem::exists(output)) {
    problem = "output file '" + output + "' already exists; pass --force to replace it";
  }
  comm.broadcast(problem, 0);
  if (!problem.empty()) throw UsageError(problem);
}

namespace {

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

// `run` and `resume` alike, once the experiment and its shard are known.
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

}  // namespace

int run_command(const RunArguments& arguments, const mpi::Comm& comm) {
  // -o is `--set output=...`, so the stored config text names the file it went to.
  auto overrides = arguments.overrides;
  if (!arguments.output.empty()) overrides.push_back("output=" + yaml_quoted(arguments.output));
  auto experiment = load_experiment(arguments.config_path, overrides, comm);
  ShardSpec shard;
  if (!arguments.shard.empty()) {
    try {
      shard = ShardSpec::parse(arguments.shard);
    } catch (const std::invalid_argument& error) {
      throw UsageError(error.what());
    }
    experiment.output = shard.output_for(experiment.output);
  }
  const auto run = bind_run(experiment);
  const auto facts = check_fits_and_runs(run, arguments.config_path, comm);
  return launch(run, facts, shard, arguments.launch, comm);
}

namespace {

// `resume --set`: the changes a session may make to a run, which alter no finished result
// (on_error, checkpoint.*; docs/checkpoint.md). Any other is another experiment.
config::Experiment with_session_changes(const config::Experiment& saved, const ShardSpec& shard,
                                        const std::vector<std::string>& overrides,
                                        const std::string& source) {
  for (const auto& override : overrides) {
    if (override.starts_with("output")) {
      throw UsageError("resume --set " + override +
                       ": a resume writes the output it names; the output cannot change");
    }
  }
  auto changed = config::parse_experiment(saved.config_text, source, overrides, config_schema());
  const auto lines = identity_differences(experiment_part(run_identity(saved, shard)),
                                          experiment_part(run_identity(changed, shard)),
                                          "in the checkpoint", "with --set");
  if (!lines.empty()) {
    throw UsageError(
        "resume --set may change only what no finished result depends on (on_error, "
        "checkpoint.every, checkpoint.seconds); these would make it another experiment:\n" +
        config::join(lines, "\n") +
        "\nrun that experiment into another output instead: `levelforge run CONFIG --set ... -o "
        "OTHER.h5`");
  }
  return changed;
}

}  // namespace

int resume_command(const ResumeArguments& arguments, const mpi::Comm& comm) {
  const auto& output = arguments.output;
  const auto directory = checkpoint_directory(output);
  auto source = directory + "/manifest.h5: config";
  config::Experiment experiment;
  SavedRun saved;
  std::int64_t complete = 0;
  const auto problem = mpi::root_verdict(comm, [&] {
    using Kind = CheckpointFound::Kind;
    const auto found = find_checkpoint(directory);
    if (found.kind == Kind::foreign || found.kind == Kind::unusable)
      throw UsageError(found.problem);
    if (found.kind == Kind::unstarted) {
      throw UsageError(directory +
                       " holds nothing saved: the run stopped before its first checkpoint. "
                       "Start it again with `levelforge run CONFIG -o " +
                       shell_word(output) + " --force`");
    }
    if (found.kind == Kind::absent) {
      std::error_code ignored;
      if (!std::filesystem::exists(output, ignored)) {
        throw UsageError("nothing to resume: neither " + output + " nor its checkpoint " +
                         directory + " exists");
      }
      const auto header = read_result_header(open_result(output));
      if (!header.complete) {
        throw UsageError(output + " did not complete (complete = 0) and has no checkpoint " +
                         directory + " to resume; run it again");
      }
      if (!arguments.launch.retry_failed) {
        complete = 1;
        return;
      }
      // The failures of a finished run run again: it is the file's run.
      source = output + ": config";
      saved.config = header.config;
      saved.shard = header.shard.value_or(ShardSpec{});
    } else {
      saved = read_saved_run(directory);
    }
    experiment = config::parse_experiment(saved.config, source, {}, config_schema());
    if (!arguments.overrides.empty())
      experiment = with_session_changes(experiment, saved.shard, arguments.overrides, source);
  });
  if (!problem.empty()) throw UsageError(problem);
  comm.broadcast_value(complete, 0);
  if (complete != 0) {
    if (comm.rank() == 0) fmt::print("levelforge: {} is complete; nothing to resume\n", output);
    return exit_ok;
  }
  comm.broadcast_value(saved.shard, 0);
  comm.broadcast(source, 0);
  experiment = share_experiment(std::move(experiment), source, comm);
  experiment.output = output;
  const auto run = bind_run(experiment);
  const auto facts = check_fits_and_runs(run, source, comm);
  Launch how = arguments.launch;
  how.resume = true;
  return launch(run, facts, saved.shard, how, comm);
}

namespace {

// `validate`: what a rank of `experiment` run alone on this host needs, refused as `run`
// refuses it (facts as check_memory's).
RunMemory check_memory_alone(const BoundRun& run, const std::string& source,
                             const std::vector<PointFacts>* facts) {
  auto needed = run_memory(run, 1, facts);
  if (const auto problem = host_memory_problem(needed, 1); !problem.empty())
    throw config::ConfigError(source + ": " + problem);
  return needed;
}

}  // namespace

int validate_command(const std::string& config_path, const std::vector<std::string>& overrides) {
  const auto experiment = read_experiment(config_path, overrides);
  // As `run`: no kernel is built that cannot fit, and the points' check counts too.
  const auto run = bind_run(experiment);
  (void)check_memory_alone(run, config_path, nullptr);
  const auto facts = check_experiment(run, config_path);
  const auto memory = check_memory_alone(run, config_path, &facts);
  fmt::print("{}: valid\n", config_path);
  fmt::print("experiment {}: kernel {}, driver {}, seed {}, output {}\n", experiment.name,
             experiment.kernel, experiment.driver, experiment.seed, experiment.output);
  fmt::print("sweep: {} point{} x {} replicate{} = {} task{}\n", experiment.points.size(),
             experiment.points.size() == 1 ? "" : "s", experiment.replicates,
             experiment.replicates == 1 ? "" : "s", experiment.task_count(),
             experiment.task_count() == 1 ? "" : "s");
  fmt::print("memory: about {} per rank on 1 rank; the largest part, {}: {}\n",
             format_bytes(memory.bytes), format_bytes(memory.parts.front().bytes),
             memory.parts.front().cause);
  if (!experiment.swept_keys.empty()) {
    fmt::print("points:\n");
    for (std::size_t p = 0; p < experiment.points.size(); ++p) {
      fmt::print("{}\n", point_line(experiment, p));
    }
  }
  fmt::print("effective config:\n{}\n", config::effective_yaml(experiment, config_schema()));
  return exit_ok;
}

}  // namespace levelforge::cli
