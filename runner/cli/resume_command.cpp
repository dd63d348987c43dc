// `levelforge resume OUTPUT`: the run whose checkpoint is OUTPUT.checkpoint/, continued with the
// config text and shard its manifest holds; nothing to retype.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/experiment_input.hpp"
#include "runner/cli/launch.hpp"
#include "runner/config/suggest.hpp"
#include "runner/files/shell_word.hpp"

namespace levelforge::cli {

namespace {

struct ResumeArguments {
  std::string output;
  // --set of the keys a session may change (on_error, checkpoint.*); any other is refused.
  std::vector<std::string> overrides;
  Launch launch;  // force, no_output and resume are not options of `resume`
};

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

}  // namespace

void add_resume_command(CommandList& commands) {
  auto arguments = std::make_shared<ResumeArguments>();
  auto* command = commands.app().add_subcommand(
      "resume",
      "continue an interrupted run from its checkpoint: config, overrides and shard "
      "as the checkpoint holds them");
  command
      ->add_option("output", arguments->output,
                   "the run's result file (its checkpoint is "
                   "OUTPUT.checkpoint/)")
      ->required()
      ->check(non_empty_path());
  add_progress_options(*command, arguments->launch);
  command->add_flag("--retry-failed", arguments->launch.retry_failed,
                    "run the tasks and chunks recorded as failed again (on_error: record), "
                    "with this build even when it is not the one that made the checkpoint "
                    "or result (a retry after a fix; both builds are recorded)");
  command
      ->add_option("--set", arguments->overrides,
                   "change what no finished result depends on: on_error=record, "
                   "checkpoint.every=N, checkpoint.seconds=S")
      ->allow_extra_args(false);
  add_distribution_options(*command, arguments->launch);
  commands.add(command, Ranks::every, [arguments](const Invocation& invocation) {
    arguments->launch.command_line = invocation.command_line;
    return resume_command(*arguments, invocation.world());
  });
}

}  // namespace levelforge::cli
