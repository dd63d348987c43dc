#include "runner/checkpoint/checkpoint_store.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "runner/engine/kernel_registry.hpp"
#include "runner/output/provenance.hpp"

namespace levelforge {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view manifest_name = "manifest.h5";
constexpr std::int64_t checkpoint_format_version = 1;

// Keys of the effective config that may change between sessions of one run.
bool identity_key(const std::string& key) {
  return key != "output" && !key.starts_with("output.") && !key.starts_with("checkpoint.");
}

// One line per value. A list of maps or lists (a table's rows) is keyed by index, so that a
// difference names the row and field that changed: params.species[1].motives.fear. Values are
// written as YAML, so a text with a line break still takes one line.
void flatten(const YAML::Node& node, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const auto key = entry.first.Scalar();
      flatten(entry.second, prefix.empty() ? key : fmt::format("{}.{}", prefix, key), out);
    }
    return;
  }
  const auto holds_structure = [](const YAML::Node& list) {
    return std::any_of(list.begin(), list.end(), [](const YAML::Node& element) {
      return element.IsMap() || element.IsSequence();
    });
  };
  if (node.IsSequence() && holds_structure(node)) {
    std::size_t index = 0;
    for (const auto& element : node) flatten(element, fmt::format("{}[{}]", prefix, index++), out);
    return;
  }
  YAML::Emitter flow;
  flow << YAML::Flow << node;
  out[prefix] = flow.c_str();
}

std::map<std::string, std::string> identity_of(const config::Experiment& experiment,
                                               const ShardSpec& shard) {
  auto identity = run_identity(experiment);
  identity["shard"] = shard.sharded() ? shard.text() : "none";
  return identity;
}

std::vector<std::byte> to_bytes(const std::string& text) {
  const auto* first = reinterpret_cast<const std::byte*>(text.data());
  return {first, first + text.size()};
}

std::string to_text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// "key\nvalue\n" pairs: values are YAML scalars or flow sequences, one line each.
std::string encode_identity(const std::map<std::string, std::string>& identity) {
  std::string text;
  for (const auto& [key, value] : identity) text += fmt::format("{}\n{}\n", key, value);
  return text;
}

std::map<std::string, std::string> decode_identity(const std::string& text) {
  std::map<std::string, std::string> identity;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const auto key_end = text.find('\n', begin);
    const auto value_end = key_end == std::string::npos ? key_end : text.find('\n', key_end + 1);
    if (value_end == std::string::npos) break;
    identity[text.substr(begin, key_end - begin)] =
        text.substr(key_end + 1, value_end - key_end - 1);
    begin = value_end + 1;
  }
  return identity;
}

std::vector<std::string> differences(const std::map<std::string, std::string>& saved,
                                     const std::map<std::string, std::string>& now) {
  return identity_differences(saved, now, "in the checkpoint", "now");
}

}  // namespace

std::map<std::string, std::string> run_identity(const config::Experiment& experiment) {
  std::map<std::string, std::string> config;
  flatten(YAML::Load(config::effective_yaml(experiment, config_schema())), "", config);
  std::map<std::string, std::string> identity;
  for (auto& [key, value] : config) {
    if (identity_key(key)) identity.emplace(key, std::move(value));
  }
  identity["levelforge version"] = std::string(build_version());
  identity["git commit"] = std::string(build_commit());
  return identity;
}

std::vector<std::string> identity_differences(const std::map<std::string, std::string>& first,
                                              const std::map<std::string, std::string>& second,
                                              const std::string& first_label,
                                              const std::string& second_label) {
  const auto& saved = first;
  const auto& now = second;
  std::set<std::string> keys;
  for (const auto& [key, value] : saved) keys.insert(key);
  for (const auto& [key, value] : now) keys.insert(key);
  std::vector<std::string> lines;
  for (const auto& key : keys) {
    const auto old_value = saved.find(key);
    const auto new_value = now.find(key);
    const auto show = [](const auto& found, const auto& map) {
      return found == map.end() ? std::string("(absent)") : found->second;
    };
    if (old_value != saved.end() && new_value != now.end() &&
        old_value->second == new_value->second)
      continue;
    lines.push_back(fmt::format("  {}: {} {}, {} {}", key, show(old_value, saved), first_label,
                                show(new_value, now), second_label));
  }
  return lines;
}

namespace {

Segment manifest_for(const config::Experiment& experiment, const ShardSpec& shard,
                     std::int64_t session) {
  Segment manifest;
  manifest.put_bytes("format", to_bytes("levelforge-checkpoint"));
  manifest.put_ints("format_version", {checkpoint_format_version});
  manifest.put_ints("session", {session});
  manifest.put_ints("tasks", {static_cast<std::int64_t>(experiment.task_count())});
  manifest.put_bytes("experiment", to_bytes(experiment.name));
  manifest.put_bytes("driver", to_bytes(experiment.driver));
  manifest.put_bytes("config", to_bytes(experiment.config_text));
  manifest.put_bytes("identity", to_bytes(encode_identity(identity_of(experiment, shard))));
  return manifest;
}

Segment read_manifest(const std::string& directory) {
  const auto path = (fs::path(directory) / manifest_name).string();
  Segment manifest;
  try {
    manifest = Segment::read(path);
  } catch (const std::exception& error) {
    throw CheckpointError(path + ": the checkpoint's manifest cannot be read (" + error.what() +
                          "); the checkpoint is unusable: delete " + directory +
                          " and run again without --resume");
  }
  const auto version = manifest.ints("format_version");
  const auto session = manifest.ints("session");
  const auto tasks = manifest.ints("tasks");
  // Every reader takes front() of these and adds 1 to the session: a manifest that is no
  // levelforge's (or is damaged) must stop here, not read past a missing value or overflow.
  if (to_text(manifest.bytes("format")) != "levelforge-checkpoint" || version.size() != 1 ||
      session.size() != 1 || session.front() < 0 ||
      session.front() == std::numeric_limits<std::int64_t>::max() || tasks.size() != 1 ||
      tasks.front() < 0) {
    throw CheckpointError(path + ": not a levelforge checkpoint manifest");
  }
  if (version.front() != checkpoint_format_version) {
    throw CheckpointError(path + ": checkpoint format version " + std::to_string(version.front()) +
                          ", this levelforge reads version " +
                          std::to_string(checkpoint_format_version));
  }
  return manifest;
}

struct DirectoryListing {
  std::vector<std::string> segments;  // file names, sorted
  std::vector<std::string> unfinished;
};

DirectoryListing list_directory(const std::string& directory) {
  DirectoryListing listing;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const auto name = entry.path().filename().string();
    if (name == manifest_name) continue;
    if (name.ends_with(".tmp")) {
      listing.unfinished.push_back(name);
    } else if (name.ends_with(".h5")) {
      listing.segments.push_back(name);
    }
  }
  std::sort(listing.segments.begin(), listing.segments.end());
  std::sort(listing.unfinished.begin(), listing.unfinished.end());
  return listing;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', begin)) {
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

}  // namespace

std::string checkpoint_directory(const std::string& output) { return output + ".checkpoint"; }

CheckpointStore::CheckpointStore(std::string directory, mpi::Comm comm, std::int64_t session)
    : directory_(std::move(directory)), comm_(std::move(comm)), session_(session) {}

CheckpointStore CheckpointStore::start(const config::Experiment& experiment, const ShardSpec& shard,
                                       const mpi::Comm& comm) {
  const auto directory = checkpoint_directory(experiment.output);
  const auto problem = mpi::root_verdict(comm, [&] {
    fs::remove_all(directory);
    fs::create_directories(directory);
    manifest_for(experiment, shard, 0).write((fs::path(directory) / manifest_name).string());
  });
  if (!problem.empty()) {
    throw CheckpointError("creating the checkpoint " + directory + ": " + problem);
  }
  return {directory, comm, 0};
}

CheckpointStore CheckpointStore::resume(const config::Experiment& experiment,
                                        const ShardSpec& shard, const mpi::Comm& comm) {
  const auto directory = checkpoint_directory(experiment.output);
  std::string files;
  std::string notes;
  std::int64_t session = 0;
  const auto problem = mpi::root_verdict(comm, [&] {
    const auto manifest = read_manifest(directory);
    const auto lines = differences(decode_identity(to_text(manifest.bytes("identity"))),
                                   identity_of(experiment, shard));
    if (!lines.empty()) {
      throw CheckpointError("cannot resume " + experiment.output +
                            ": its checkpoint was made by a different run:\n" + join_lines(lines) +
                            "run with the checkpoint's settings, or without --resume and with "
                            "--force to start over");
    }
    const auto listing = list_directory(directory);
    for (const auto& name : listing.unfinished) fs::remove(fs::path(directory) / name);
    if (!listing.unfinished.empty()) {
      notes = fmt::format(
          "discarded {} checkpoint file{} being written when the run stopped ({}); the work "
          "they held is done again",
          listing.unfinished.size(), listing.unfinished.size() == 1 ? "" : "s",
          fmt::join(listing.unfinished, ", "));
    }
    session = manifest.ints("session").front() + 1;
    manifest_for(experiment, shard, session).write((fs::path(directory) / manifest_name).string());
    files = join_lines(listing.segments);
  });
  if (!problem.empty()) throw CheckpointError(problem);
  comm.broadcast(files, 0);
  comm.broadcast(notes, 0);
  comm.broadcast_value(session, 0);

  CheckpointStore store(directory, comm, session);
  if (!notes.empty()) store.notes_.push_back(notes);
  const auto names = split_lines(files);
  std::string local_problem;
  for (auto i = static_cast<std::size_t>(comm.rank()); i < names.size();
       i += static_cast<std::size_t>(comm.size())) {
    const auto path = (fs::path(directory) / names[i]).string();
    try {
      store.restored_.push_back(Segment::read(path));
    } catch (const std::exception& error) {
      local_problem = fmt::format(
          "{}: a checkpoint segment cannot be read ({}); the work it saved is lost. Delete the "
          "file to redo that work with --resume, or delete {} to start over",
          path, error.what(), directory);
      break;
    }
  }
  if (const auto problems = mpi::all_problems(comm, local_problem); !problems.empty()) {
    throw CheckpointError(problems);
  }
  return store;
}

void CheckpointStore::save(const Segment& segment) {
  const auto name = fmt::format("s{:04}-r{:06}-{:06}.h5", session_, comm_.rank(), next_sequence_++);
  segment.write((fs::path(directory_) / name).string());
}

void CheckpointStore::remove() {
  comm_.barrier();
  if (comm_.rank() == 0) {
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
  }
}

CheckpointSummary summarize_checkpoint(const std::string& directory) {
  const auto manifest = read_manifest(directory);
  CheckpointSummary summary;
  summary.directory = directory;
  summary.experiment = to_text(manifest.bytes("experiment"));
  summary.driver = to_text(manifest.bytes("driver"));
  summary.shard = decode_identity(to_text(manifest.bytes("identity")))["shard"];
  summary.sessions = manifest.ints("session").front() + 1;
  summary.tasks_total = static_cast<std::uint64_t>(manifest.ints("tasks").front());
  const auto listing = list_directory(directory);
  summary.segments = listing.segments.size();
  summary.unfinished_files = listing.unfinished.size();
  std::set<std::int64_t> tasks;
  std::set<std::int64_t> chunks;
  std::map<std::int64_t, std::int64_t> snapshots;
  for (const auto& name : listing.segments) {
    const auto path = (fs::path(directory) / name).string();
    Segment segment;
    try {
      segment = Segment::read(path);
    } catch (const std::exception& error) {
      throw CheckpointError(path + ": a checkpoint segment cannot be read (" + error.what() + ")");
    }
    for (auto task : segment.ints(segment_key::tasks)) tasks.insert(task);
    for (auto chunk : segment.ints(segment_key::chunks)) chunks.insert(chunk);
    if (const auto total = segment.ints(segment_key::chunk_total); !total.empty())
      summary.chunks_total = static_cast<std::uint64_t>(total.front());
    const auto snapshot_tasks = segment.ints(segment_key::snapshot_tasks);
    const auto generations = segment.ints(segment_key::snapshot_generations);
    for (std::size_t i = 0; i < snapshot_tasks.size() && i < generations.size(); ++i) {
      auto& newest = snapshots[snapshot_tasks[i]];
      newest = std::max(newest, generations[i]);
    }
  }
  summary.tasks_done = tasks.size();
  summary.chunks_done = chunks.size();
  for (const auto& [task, generations] : snapshots) {
    if (!tasks.contains(task))
      summary.in_progress.emplace_back(static_cast<std::uint64_t>(task), generations);
  }
  return summary;
}

}  // namespace levelforge
