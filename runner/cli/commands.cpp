#include "runner/cli/commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/stop_signal.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/run.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge::cli {

namespace {

// Rank 0 reads the config and shares its text, so every rank parses the same bytes.
// Rank 0 alone reads the config and the table files it names; its config_text holds all
// of it, and the other ranks parse that, so they need no file and cannot read another.
config::Experiment load_experiment(const std::string& path,
                                   const std::vector<std::string>& overrides,
                                   const mpi::Comm& comm) {
  config::Experiment experiment;
  const std::string problem = mpi::root_verdict(comm, [&] {
    std::error_code ignored;
    // An ifstream opens a directory and reads nothing: it would pass as an empty config.
    if (std::filesystem::is_directory(path, ignored)) {
      throw config::ConfigError("config file '" + path + "' is a directory");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      throw config::ConfigError(std::filesystem::exists(path)
                                    ? "cannot read config file '" + path + "'"
                                    : "config file '" + path + "' does not exist");
    }
    std::ostringstream content;
    content << in.rdbuf();
    experiment = config::parse_experiment(content.str(), path, overrides, config_schema());
  });
  if (!problem.empty()) throw config::ConfigError(problem);
  std::string text = experiment.config_text;
  comm.broadcast(text, 0);
  if (comm.rank() != 0) {
    experiment = config::parse_experiment(text, path, {}, config_schema());
    experiment.config_text = std::move(text);
  }
  try {
    check_runnable(experiment);
  } catch (const config::ConfigError& error) {
    // Contradictions between keys (elitism >= population, a range outside the index
    // space) have no single line to point at: the file is the place.
    throw config::ConfigError(path + ": " + error.what());
  }
  return experiment;
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

// What is at the output path before a run: rank 0 looks, every rank learns.
struct OutputState {
  bool complete = false;    // the result file exists (files appear only when complete)
  bool checkpoint = false;  // an interrupted run's checkpoint is beside it
};

OutputState output_state(const std::string& output, const mpi::Comm& comm) {
  std::int64_t flags = 0;
  if (comm.rank() == 0) {
    std::error_code ignored;
    if (std::filesystem::exists(output, ignored)) flags |= 1;
    if (std::filesystem::exists(checkpoint_directory(output), ignored)) flags |= 2;
  }
  comm.broadcast_value(flags, 0);
  return {(flags & 1) != 0, (flags & 2) != 0};
}

// Rank 0's check that the result can be written where it goes: the folder exists or can
// be made, and a file can be created in it. Found before anything runs, so that a typo'd
// or read-only path is a usage error naming the folder, not an HDF5 error after the work.
std::string output_place_problem(const std::string& output) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_directory(output, error)) {
    return "output '" + output + "' is a directory; give a file name (-o FILE)";
  }
  fs::path folder = fs::path(output).parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::exists(folder, error)) {
    fs::create_directories(folder, error);
    if (error) {
      return "cannot create the output folder '" + folder.string() + "' for '" + output +
             "': " + error.message();
    }
  } else if (!fs::is_directory(folder, error)) {
    return "the output folder '" + folder.string() + "' of '" + output + "' is not a folder";
  }
  // Permission bits do not tell (root, read-only mounts, /proc): try a file.
  const auto probe = folder / (".levelforge-write-test-" + std::to_string(::getpid()));
  std::ofstream out(probe);
  if (!out) {
    return "cannot write into the output folder '" + folder.string() + "' for '" + output +
           "': " + std::strerror(errno);
  }
  out.close();
  fs::remove(probe, error);
  return {};
}

}  // namespace

void check_output_free(const std::string& output, bool force, const mpi::Comm& comm) {
  std::string problem;
  if (comm.rank() == 0 && !force && std::filesystem::exists(output)) {
    problem = "output file '" + output + "' already exists; pass --force to replace it";
  }
  comm.broadcast(problem, 0);
  if (!problem.empty()) throw UsageError(problem);
}

int run_command(const RunArguments& arguments, const mpi::Comm& comm) {
  // -o is `--set output=...`, so the stored config text names the file it went to.
  auto overrides = arguments.overrides;
  if (!arguments.output.empty()) overrides.push_back("output=" + yaml_quoted(arguments.output));
  auto experiment = load_experiment(arguments.config_path, overrides, comm);
  RunOptions options;
  if (!arguments.shard.empty()) {
    try {
      options.shard = ShardSpec::parse(arguments.shard);
    } catch (const std::invalid_argument& error) {
      throw UsageError(error.what());
    }
    experiment.output = options.shard.output_for(experiment.output);
  }
  check_memory(experiment, arguments.config_path, comm);
  const bool quiet_rank = comm.rank() != 0 || arguments.quiet;
  if (!arguments.no_output) {
    const auto place_problem = mpi::root_verdict(comm, [&] {
      const auto problem = output_place_problem(experiment.output);
      if (!problem.empty()) throw UsageError(problem);
    });
    if (!place_problem.empty()) throw UsageError(place_problem);
    const auto state = output_state(experiment.output, comm);
    const auto checkpoint = checkpoint_directory(experiment.output);
    if (arguments.resume && state.complete) {
      if (comm.rank() == 0) {
        std::error_code ignored;
        std::filesystem::remove_all(checkpoint, ignored);
        fmt::print("levelforge: {} is complete; nothing to resume\n", experiment.output);
      }
      return exit_ok;
    }
    if (!arguments.resume && state.checkpoint && !arguments.force) {
      throw UsageError(checkpoint +
                       " holds the checkpoint of an interrupted run; pass --resume "
                       "to continue it, or --force to start over (the checkpoint is deleted)");
    }
    if (!arguments.resume) check_output_free(experiment.output, arguments.force, comm);
    options.resume = arguments.resume && state.checkpoint;
    if (arguments.resume && !state.checkpoint && !quiet_rank) {
      fmt::print(stderr, "levelforge: no checkpoint at {}: starting from the beginning\n",
                 checkpoint);
    }
  }
  if (!quiet_rank) {
    fmt::print(stderr, "levelforge: {} ({} kernel, {} driver): {} tasks on {} rank{}{}\n",
               experiment.name, experiment.kernel, experiment.driver, experiment.task_count(),
               comm.size(), comm.size() == 1 ? "" : "s",
               options.shard.sharded() ? ", shard " + options.shard.text() : "");
  }
  options.write_output = !arguments.no_output;
  options.progress_interval_seconds = arguments.progress_interval;
  options.show_progress = !arguments.quiet;
  const auto summary = run_experiment(experiment, options, comm);
  if (comm.rank() != 0) return summary.stopped ? exit_checkpointed : exit_ok;
  for (const auto& note : summary.notes) fmt::print(stderr, "levelforge: {}\n", note);
  if (summary.stopped) {
    fmt::print(stderr,
               "levelforge: stopped by signal {}: checkpoint saved in {} (`levelforge inspect` "
               "shows how much is done); continue with `levelforge run {} --resume` and the "
               "same options\n",
               StopSignal::signal_number(), checkpoint_directory(experiment.output),
               arguments.config_path);
    return exit_checkpointed;
  }
  fmt::print("levelforge: {} task{}, {} kernel calls in {:.3f} s on {} rank{} (max idle {:.1f}%)\n",
             summary.tasks, summary.tasks == 1 ? "" : "s", summary.work_units, summary.wall_seconds,
             comm.size(), comm.size() == 1 ? "" : "s", 100 * summary.max_idle_fraction);
  if (options.write_output) fmt::print("levelforge: results: {}\n", experiment.output);
  return exit_ok;
}

int validate_command(const std::string& config_path, const std::vector<std::string>& overrides,
                     const mpi::Comm& comm) {
  const auto experiment = load_experiment(config_path, overrides, comm);
  if (comm.rank() != 0) return exit_ok;
  fmt::print("{}: valid\n", config_path);
  fmt::print("experiment {}: kernel {}, driver {}, seed {}, output {}\n", experiment.name,
             experiment.kernel, experiment.driver, experiment.seed, experiment.output);
  fmt::print("sweep: {} point{} x {} replicate{} = {} task{}\n", experiment.points.size(),
             experiment.points.size() == 1 ? "" : "s", experiment.replicates,
             experiment.replicates == 1 ? "" : "s", experiment.task_count(),
             experiment.task_count() == 1 ? "" : "s");
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
