// `levelforge validate CONFIG`: a config checked as `run` checks it, and its expanded sweep
// printed; in one process, without MPI.

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "runner/cli/commands.hpp"
#include "runner/cli/experiment_input.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/memory_estimate.hpp"
#include "runner/drivers/run.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge::cli {

namespace {

struct ValidateArguments {
  std::string config_path;
  std::vector<std::string> overrides;
};

std::string point_line(const config::Experiment& experiment, std::size_t point) {
  std::string line = fmt::format("  {:>4}:", point);
  for (std::size_t k = 0; k < experiment.swept_keys.size(); ++k) {
    line += fmt::format(" {}={}", experiment.swept_keys[k],
                        format_value(experiment.points[point].swept_values[k]));
  }
  return line;
}

// `validate`: what a rank of `experiment` run alone on this host needs, refused as `run`
// refuses it (facts as check_memory's).
RunMemory check_memory_alone(const BoundRun& run, const std::string& source,
                             const std::vector<PointFacts>* facts) {
  auto needed = run_memory(run, 1, facts);
  if (const auto problem = host_memory_problem(needed, 1); !problem.empty())
    throw config::ConfigError(source + ": " + problem);
  return needed;
}

int validate_command(const ValidateArguments& arguments) {
  const auto& config_path = arguments.config_path;
  const auto experiment = read_experiment(config_path, arguments.overrides);
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

}  // namespace

void add_validate_command(CommandList& commands) {
  auto arguments = std::make_shared<ValidateArguments>();
  auto* command =
      commands.app().add_subcommand("validate", "check a config and print the expanded sweep");
  command->add_option("config", arguments->config_path, "experiment config (YAML)")->required();
  command->add_option("--set", arguments->overrides, "override a config value: key.path=value")
      ->allow_extra_args(false);
  commands.add(command, Ranks::first,
               [arguments](const Invocation&) { return validate_command(*arguments); });
}

}  // namespace levelforge::cli
