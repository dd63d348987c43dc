// `levelforge merge OUT SHARD...`: the shard files of one run (`run --shard I/N`) combined
// into the file the unsharded run would have written, through the same driver code that
// writes every result: the shards' work goes in as restored work, with nothing left to do.

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "runner/checkpoint/output_lock.hpp"
#include "runner/checkpoint/run_identity.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/output_place.hpp"
#include "runner/config/suggest.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/run.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge::cli {

namespace {

struct MergeArguments {
  std::string output;
  std::vector<std::string> shards;
  bool force = false;
  std::string command_line;
};

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

// What the shards agree on: the run's config text, and the builds that made them.
struct ShardSet {
  std::string config;
  std::vector<std::string> builds;
};

// Rank 0's checks of the shard set: one run of one build, every shard exactly once.
ShardSet check_shards(const std::vector<std::string>& paths) {
  std::vector<ResultHeader> headers;
  headers.reserve(paths.size());
  for (const auto& path : paths) headers.push_back(read_header(path));
  const auto& first = headers.front();
  std::string problems;
  std::string builds;
  for (std::size_t i = 1; i < headers.size(); ++i) {
    const auto lines =
        identity_differences(experiment_part(first.identity), experiment_part(headers[i].identity),
                             "in " + paths.front(), "in " + paths[i]);
    for (const auto& line : lines) problems += line + "\n";
    if (headers[i].shard->count != first.shard->count) {
      problems += fmt::format("  shard count: {} in {}, {} in {}\n", first.shard->count,
                              paths.front(), headers[i].shard->count, paths[i]);
    }
    for (const auto& line :
         identity_differences(build_part(first.identity), build_part(headers[i].identity),
                              "in " + paths.front(), "in " + paths[i]))
      builds += line + "\n";
  }
  if (!problems.empty()) {
    throw UsageError("the shards are not of one run:\n" + problems +
                     "merge the shards of one config and seed");
  }
  if (!builds.empty()) {
    throw UsageError("the shards were made by different builds:\n" + builds +
                     "their results are not one build's: run the shards of the other build again "
                     "with this one (`levelforge run CONFIG --shard I/N --force`), then merge");
  }
  // This build must also be the shards': the merged file is written, and recorded, here.
  auto here = run_identity(experiment_of(first.config, paths.front() + ": config"), ShardSpec{});
  here.erase("shard");
  for (const auto& line : identity_differences(first.identity, here, "in the shards", "here"))
    problems += line + "\n";
  if (!problems.empty()) {
    throw UsageError("the shards were made by another build:\n" + problems +
                     "merge them with the levelforge that ran them");
  }
  ShardSet set{first.config, {}};
  for (const auto& header : headers) {
    for (const auto& build : header.builds.distinct()) {
      if (std::find(set.builds.begin(), set.builds.end(), build) == set.builds.end())
        set.builds.push_back(build);
    }
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
  return set;
}

int merge_command(const MergeArguments& arguments, const mpi::Comm& comm) {
  // Before a shard is read: a directory is no place for the result, --force or not.
  check_output_place(arguments.output, "merge {} SHARD...", comm);
  for (const auto& shard : arguments.shards) {
    std::error_code ignored;
    if (shard == arguments.output || std::filesystem::equivalent(shard, arguments.output, ignored))
      throw UsageError("the merged file " + arguments.output + " would replace its shard " + shard);
  }
  // The merged file and every shard have one owner while the merge reads and writes them: a
  // shard's own job still running (or resuming) is refused here, and so is a second merge.
  std::vector<OutputLock> locks;
  const auto held = mpi::root_verdict(comm, [&] {
    locks.push_back(OutputLock::acquire(arguments.output, arguments.command_line));
    std::set<std::string> locked;
    for (const auto& shard : arguments.shards) {
      std::error_code ignored;
      const auto canonical = std::filesystem::weakly_canonical(shard, ignored).string();
      if (locked.insert(canonical.empty() ? shard : canonical).second)
        locks.push_back(OutputLock::acquire(shard, arguments.command_line));
    }
  });
  if (!held.empty()) throw UsageError(held);
  check_output_free(arguments.output, arguments.force, comm);
  ShardSet shards;
  const auto problem = mpi::root_verdict(comm, [&] { shards = check_shards(arguments.shards); });
  if (!problem.empty()) throw UsageError(problem);
  auto& config_text = shards.config;
  comm.broadcast(config_text, 0);
  auto experiment = experiment_of(config_text, "the shards' config");
  experiment.output = arguments.output;

  // Each rank reads its share of the shards; any failure is reported by all alike.
  RunOptions options;
  options.merged_from = arguments.shards;
  // An attribute every rank writes alike; rank 0 read them.
  std::string builds = config::join(shards.builds, "\n");
  comm.broadcast(builds, 0);
  options.merged_builds = config::split(builds, '\n');
  options.progress = ProgressStyle::none;
  const auto run = bind_run(experiment);
  const auto facts = check_runnable(run);
  std::string local_problem;
  for (auto i = static_cast<std::size_t>(comm.rank()); i < arguments.shards.size();
       i += static_cast<std::size_t>(comm.size())) {
    try {
      const auto file = open_result(arguments.shards[i]);
      const auto shard = read_result_header(file).shard.value_or(ShardSpec{});
      options.merged.push_back(shard_segment(file, run, facts, shard));
    } catch (const std::exception& error) {
      local_problem = arguments.shards[i] + ": " + error.what();
      break;
    }
  }
  if (const auto problems = mpi::all_problems(comm, local_problem); !problems.empty()) {
    throw UsageError("reading the shards: " + problems);
  }

  const auto summary = run_experiment(run, facts, std::move(options), comm);
  if (comm.rank() == 0) {
    fmt::print("levelforge: merged {} shard{} ({} tasks) into {}\n", arguments.shards.size(),
               arguments.shards.size() == 1 ? "" : "s", summary.tasks, arguments.output);
  }
  return exit_ok;
}

}  // namespace

void add_merge_command(CommandList& commands) {
  auto arguments = std::make_shared<MergeArguments>();
  auto* command = commands.app().add_subcommand(
      "merge", "combine the shard files of one run (run --shard I/N) into its result file");
  command->add_option("output", arguments->output, "the combined result file")
      ->required()
      ->check(non_empty_path());
  command->add_option("shards", arguments->shards, "every shard file of the run")
      ->required()
      ->check(non_empty_path());
  command->add_flag("--force", arguments->force, "replace an existing output file");
  commands.add(command, Ranks::every, [arguments](const Invocation& invocation) {
    arguments->command_line = invocation.command_line;
    return merge_command(*arguments, invocation.world());
  });
}

}  // namespace levelforge::cli
