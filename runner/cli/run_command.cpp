// `levelforge run CONFIG`: an experiment run from its config, under mpirun -n N or alone.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/checkpoint/shard.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/experiment_input.hpp"
#include "runner/cli/launch.hpp"

namespace levelforge::cli {

namespace {

struct RunArguments {
  std::string config_path;
  std::string output;  // empty: the config's
  std::vector<std::string> overrides;
  std::string shard;  // "I/N"; empty: the whole run
  Launch launch;
};

// A YAML single-quoted scalar: any path reads back as itself.
std::string yaml_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

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

}  // namespace

void add_run_command(CommandList& commands) {
  auto arguments = std::make_shared<RunArguments>();
  auto* command =
      commands.app().add_subcommand("run", "run an experiment (under mpirun -n N, or alone)");
  command->add_option("config", arguments->config_path, "experiment config (YAML)")
      ->required()
      ->check(non_empty_path());
  command
      ->add_option("-o,--output", arguments->output,
                   "HDF5 result file (default: the config's output)")
      ->check(non_empty_path());
  command->add_option("--set", arguments->overrides, "override a config value: key.path=value")
      ->allow_extra_args(false);
  command->add_flag("--force", arguments->launch.force, "replace an existing result file");
  command->add_flag("--no-output", arguments->launch.no_output,
                    "run without writing a result file (benchmarks)");
  add_progress_options(*command, arguments->launch);
  command->add_flag("--resume", arguments->launch.resume,
                    "continue an interrupted run from its checkpoint (OUTPUT.checkpoint/); "
                    "starts from the beginning when there is none");
  command
      ->add_flag("--retry-failed", arguments->launch.retry_failed,
                 "with --resume: run the tasks and chunks recorded as failed again "
                 "(on_error: record), with this build even when another made the checkpoint "
                 "or result (both builds are recorded)")
      ->needs(command->get_option("--resume"));
  add_distribution_options(*command, arguments->launch);
  command->add_option("--shard", arguments->shard,
                      "run only shard I of N (0 <= I < N) into OUTPUT.shard-I-of-N.h5; "
                      "`levelforge merge` combines the shards");
  commands.add(command, Ranks::every, [arguments](const Invocation& invocation) {
    arguments->launch.command_line = invocation.command_line;
    return run_command(*arguments, invocation.world());
  });
}

}  // namespace levelforge::cli
