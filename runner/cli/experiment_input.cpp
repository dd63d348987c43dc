#include "runner/cli/experiment_input.hpp"

#include "runner/engine/kernel_registry.hpp"
#include "runner/files/input_file.hpp"

namespace levelforge::cli {

std::vector<PointFacts> check_experiment(const BoundRun& run, const std::string& source) {
  try {
    return check_runnable(run);
  } catch (const config::ConfigError& error) {
    throw config::ConfigError(source + ": " + error.what());
  }
}

std::vector<PointFacts> check_fits_and_runs(const BoundRun& run, const std::string& source,
                                            const mpi::Comm& comm) {
  check_memory(run, source, comm, nullptr);
  auto facts = check_experiment(run, source);
  check_memory(run, source, comm, &facts);
  return facts;
}

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

}  // namespace levelforge::cli
