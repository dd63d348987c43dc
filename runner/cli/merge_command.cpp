// `levelforge merge OUT SHARD...`: the shard files of one run (`run --shard I/N`) combined
// into the file the unsharded run would have written, through the same driver code that
// writes every result: the shards' work goes in as restored work, with nothing left to do.

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/run.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge::cli {

namespace {

config::Experiment experiment_of(const std::string& config_text, const std::string& source) {
  return config::parse_experiment(config_text, source, {}, config_schema());
}

// A shard's header with the identity all shards of its run share: its own shard left out.
ResultHeader read_header(const std::string& path) {
  auto header = read_result_header(open_result(path));
  if (!header.complete) throw UsageError(path + ": the shard did not finish (complete = 0)");
  if (!header.shard) {
    throw UsageError(path + ": not a shard (no shard_count attribute): it holds a whole run");
  }
  header.identity.erase("shard");
  return header;
}

// Rank 0's checks of the shard set: one run, every shard exactly once. Returns the run's
// config text.
std::string check_shards(const std::vector<std::string>& paths) {
  std::vector<ResultHeader> headers;
  headers.reserve(paths.size());
  for (const auto& path : paths) headers.push_back(read_header(path));
  const auto& first = headers.front();
  std::string problems;
  for (std::size_t i = 1; i < headers.size(); ++i) {
    const auto lines = identity_differences(first.identity, headers[i].identity,
                                            "in " + paths.front(), "in " + paths[i]);
    for (const auto& line : lines) problems += line + "\n";
    if (headers[i].shard->count != first.shard->count) {
      problems += fmt::format("  shard count: {} in {}, {} in {}\n", first.shard->count,
                              paths.front(), headers[i].shard->count, paths[i]);
    }
  }
  if (!problems.empty()) {
    throw UsageError("the shards are not of one run:\n" + problems +
                     "merge the shards of one config, seed and levelforge version");
  }
  // The library's own version must also be the shards': the merged file is written here.
  auto here = run_identity(experiment_of(first.config, paths.front() + ": config"), ShardSpec{});
  here.erase("shard");
  for (const auto& line : identity_differences(first.identity, here, "in the shards", "here"))
    problems += line + "\n";
  if (!problems.empty()) {
    throw UsageError("the shards were made by another levelforge:\n" + problems +
                     "merge them with the levelforge that ran them");
  }
  std::map<std::uint64_t, std::string> seen;
  for (std::size_t i = 0; i < headers.size(); ++i) {
    const auto [where, fresh] = seen.emplace(headers[i].shard->index, paths[i]);
    if (!fresh) {
      throw UsageError(fmt::format("shard {}/{} given twice: {} and {}", headers[i].shard->index,
                                   first.shard->count, where->second, paths[i]));
    }
  }
  std::vector<std::string> missing;
  for (std::uint64_t index = 0; index < first.shard->count; ++index)
    if (!seen.contains(index)) missing.push_back(fmt::format("{}/{}", index, first.shard->count));
  if (!missing.empty()) {
    throw UsageError(fmt::format("missing shard{} {} of the run", missing.size() == 1 ? "" : "s",
                                 fmt::join(missing, ", ")));
  }
  return first.config;
}

}  // namespace

int merge_command(const MergeArguments& arguments, const mpi::Comm& comm) {
  check_output_free(arguments.output, arguments.force, comm);
  for (const auto& shard : arguments.shards) {
    std::error_code ignored;
    if (shard == arguments.output || std::filesystem::equivalent(shard, arguments.output, ignored))
      throw UsageError("the merged file " + arguments.output + " would replace its shard " + shard);
  }
  std::string config_text;
  const auto problem =
      mpi::root_verdict(comm, [&] { config_text = check_shards(arguments.shards); });
  if (!problem.empty()) throw UsageError(problem);
  comm.broadcast(config_text, 0);
  auto experiment = experiment_of(config_text, "the shards' config");
  experiment.output = arguments.output;

  // Each rank reads its share of the shards; any failure is reported by all alike.
  RunOptions options;
  options.merged_from = arguments.shards;
  options.progress = ProgressStyle::none;
  const auto* kernel = find_kernel(experiment.kernel);
  const auto facts = check_runnable(experiment);
  std::string local_problem;
  for (auto i = static_cast<std::size_t>(comm.rank()); i < arguments.shards.size();
       i += static_cast<std::size_t>(comm.size())) {
    try {
      const auto file = open_result(arguments.shards[i]);
      const auto shard = read_result_header(file).shard.value_or(ShardSpec{});
      options.merged.push_back(shard_segment(file, experiment, *kernel, facts, shard));
    } catch (const std::exception& error) {
      local_problem = arguments.shards[i] + ": " + error.what();
      break;
    }
  }
  if (const auto problems = mpi::all_problems(comm, local_problem); !problems.empty()) {
    throw UsageError("reading the shards: " + problems);
  }

  const auto summary = run_experiment(experiment, facts, std::move(options), comm);
  if (comm.rank() == 0) {
    fmt::print("levelforge: merged {} shard{} ({} tasks) into {}\n", arguments.shards.size(),
               arguments.shards.size() == 1 ? "" : "s", summary.tasks, arguments.output);
  }
  return exit_ok;
}

}  // namespace levelforge::cli
