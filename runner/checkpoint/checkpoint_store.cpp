#include "runner/checkpoint/checkpoint_store.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "runner/drivers/driver_list.hpp"
#include "runner/files/shell_word.hpp"
#include "runner/h5/seal.hpp"

namespace levelforge {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view manifest_name = "manifest.h5";
// What Segment::write leaves of a manifest it was writing when the process died.
constexpr std::string_view unfinished_manifest_name = "manifest.h5.tmp";
// 2: every segment carries the run's identity. 3: the manifest holds each session's build
// and the first session of a retry in progress. 4: the manifest describes the segments
// (SegmentDescription), and a rank stopped by a kernel's error leaves it in a stop file.
constexpr std::int64_t checkpoint_format_version = 4;
constexpr std::string_view identity_key = "identity";
// "sSSSS-rRRRRRR-stop.h5": a rank's stop error in session SSSS.
constexpr std::string_view stop_suffix = "-stop.h5";

std::vector<std::byte> to_bytes(const std::string& text) {
  const auto* first = reinterpret_cast<const std::byte*>(text.data());
  return {first, first + text.size()};
}

std::string to_text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
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

// Written with its description's layouts (Segment::write).
Segment manifest_for(const config::Experiment& experiment, const SegmentDescription& description,
                     const std::string& identity, std::int64_t session, const SessionBuilds& builds,
                     std::int64_t retry_session) {
  auto manifest = description.tables;
  manifest.put_bytes("format", to_bytes("levelforge-checkpoint"));
  manifest.put_ints("format_version", {checkpoint_format_version});
  manifest.put_ints("session", {session});
  manifest.put_ints("tasks", {static_cast<std::int64_t>(experiment.task_count())});
  manifest.put_bytes("experiment", to_bytes(experiment.name));
  manifest.put_bytes("driver", to_bytes(experiment.driver));
  manifest.put_bytes("config", to_bytes(experiment.config_text));
  manifest.put_bytes(std::string(identity_key), to_bytes(identity));
  manifest.put_bytes("builds", to_bytes(builds.text()));
  manifest.put_ints("retry_session", {retry_session});
  return manifest;
}

std::string manifest_path(const std::string& directory) {
  return (fs::path(directory) / manifest_name).string();
}

std::string not_a_checkpoint(const std::string& directory, const std::string& what) {
  return fmt::format(
      "{} is not a levelforge checkpoint ({}); levelforge does not touch it: move it away, or "
      "write the output elsewhere (-o)",
      directory, what);
}

Segment read_manifest(const std::string& directory) {
  const auto path = manifest_path(directory);
  std::error_code ignored;
  if (!fs::exists(path, ignored)) {
    throw CheckpointError(not_a_checkpoint(directory, "it holds no manifest.h5"));
  }
  if (!h5::has_seal(path)) {
    throw CheckpointError(
        not_a_checkpoint(directory, "its manifest.h5 was not written by levelforge"));
  }
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
                          std::to_string(checkpoint_format_version) +
                          "; resume it with the levelforge that made it");
  }
  return manifest;
}

struct DirectoryListing {
  std::vector<std::string> segments;    // file names, sorted
  std::vector<std::string> unfinished;  // segments being written when the run stopped
};

DirectoryListing list_directory(const std::string& directory) {
  DirectoryListing listing;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const auto name = entry.path().filename().string();
    // A manifest being written holds no work: the resume writes the manifest anew.
    if (name == manifest_name || name == unfinished_manifest_name) continue;
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

}  // namespace

std::string checkpoint_directory(const std::string& output) { return output + ".checkpoint"; }

std::string resume_command_text(const std::string& output, const std::string& extra) {
  return shell_command({"levelforge", "resume", output}) + extra;
}

std::string ways_on_after_kernel_error(const std::string& output) {
  return fmt::format(
      "`{}` records this failure and goes on; once the kernel is fixed and rebuilt, `{}` runs "
      "the rest with the new build",
      resume_command_text(output, " --set on_error=record"),
      resume_command_text(output, " --retry-failed"));
}

namespace {

std::int64_t retry_session_of(const Segment& manifest) {
  const auto saved = manifest.ints("retry_session");
  return saved.size() == 1 ? saved.front() : -1;
}

SessionBuilds builds_of(const Segment& manifest) {
  return SessionBuilds::from_text(to_text(manifest.bytes("builds")));
}

// Why a checkpoint made by another build is not resumed as it is, and the ways on.
std::string other_build(const std::string& output, const RunIdentity& saved, const RunIdentity& now,
                        const std::vector<std::string>& lines) {
  const auto differs = [&](const char* key) {
    return !saved.contains(key) || !now.contains(key) || saved.at(key) != now.at(key);
  };
  std::vector<std::string> changed;
  if (differs(kernel_code_key)) {
    const auto kernel = now.find("kernel");
    changed.push_back(fmt::format("the code of kernel {} changed",
                                  kernel == now.end() ? std::string("?") : kernel->second));
  }
  if (differs(commit_key) || differs(version_key)) changed.emplace_back("levelforge changed");
  const auto what = fmt::format("{}", fmt::join(changed, ", and "));
  return fmt::format(
      "cannot resume {}: its checkpoint was made by another build ({}):\n{}"
      "its finished work is that build's. Resume it with the build that made it; or keep that "
      "work and run the rest with this build, both builds recorded in the result: `{}` (which "
      "also runs its recorded failures again); or start over with this build: `levelforge run "
      "CONFIG -o {} --force`",
      output, what, join_lines(lines), resume_command_text(output, " --retry-failed"),
      shell_word(output));
}

// The segment at `path`, for a summary: one that cannot be read is a CheckpointError.
Segment read_segment(const std::string& path) {
  try {
    return Segment::read(path);
  } catch (const std::exception& error) {
    throw CheckpointError(path + ": a checkpoint segment cannot be read (" + error.what() + ")");
  }
}

// The distinct stop errors that the ranks saved in `session`, among the `segments` (file
// names) of `directory`.
std::vector<std::string> stop_errors_of(const std::string& directory,
                                        const std::vector<std::string>& segments,
                                        std::int64_t session) {
  const auto prefix = fmt::format("s{:04}-", session);
  std::vector<std::string> errors;
  for (const auto& name : segments) {
    if (!name.starts_with(prefix) || !name.ends_with(stop_suffix)) continue;
    const auto path = (fs::path(directory) / name).string();
    const auto segment = read_segment(path);
    auto error = to_text(segment.bytes(segment_key::stop_error));
    if (std::find(errors.begin(), errors.end(), error) == errors.end())
      errors.push_back(std::move(error));
  }
  return errors;
}

}  // namespace

CheckpointFound find_checkpoint(const std::string& directory) {
  using Kind = CheckpointFound::Kind;
  std::error_code error;
  const auto status = fs::status(directory, error);
  if (!fs::exists(status)) return {Kind::absent, {}};
  if (!fs::is_directory(status)) {
    return {Kind::foreign, not_a_checkpoint(directory, "it is not a folder")};
  }
  if (!fs::exists(manifest_path(directory), error)) {
    // start() makes the folder, then writes the manifest as manifest.h5.tmp and renames it:
    // a run stopped in between leaves nothing else, and nothing saved.
    bool only_unfinished = true;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
      if (entry.path().filename() != unfinished_manifest_name) only_unfinished = false;
    }
    if (error) return {Kind::foreign, not_a_checkpoint(directory, "it cannot be listed")};
    if (only_unfinished) return {Kind::unstarted, {}};
    return {Kind::foreign, not_a_checkpoint(directory, "it holds no manifest.h5")};
  }
  try {
    (void)read_manifest(directory);
  } catch (const CheckpointError& refused) {
    return {h5::has_seal(manifest_path(directory)) ? Kind::unusable : Kind::foreign,
            refused.what()};
  }
  return {Kind::levelforge, {}};
}

SavedRun read_saved_run(const std::string& directory) {
  const auto manifest = read_manifest(directory);
  SavedRun run;
  run.config = to_text(manifest.bytes("config"));
  run.identity = decode_identity(to_text(manifest.bytes(identity_key)));
  run.retry_session = retry_session_of(manifest);
  const auto shard = run.identity["shard"];
  try {
    run.shard = shard == "none" ? ShardSpec{} : ShardSpec::parse(shard);
  } catch (const std::invalid_argument& error) {
    throw CheckpointError(manifest_path(directory) + ": its shard '" + shard +
                          "' is not one: " + error.what());
  }
  return run;
}

CheckpointStore::CheckpointStore(std::string directory, mpi::Comm comm, std::int64_t session,
                                 std::string identity, SessionBuilds builds,
                                 std::int64_t retry_before)
    : directory_(std::move(directory)),
      comm_(std::move(comm)),
      session_(session),
      identity_(std::move(identity)),
      builds_(std::move(builds)),
      retry_before_(retry_before) {}

CheckpointStore CheckpointStore::start(const config::Experiment& experiment, const ShardSpec& shard,
                                       const mpi::Comm& comm, const SegmentDescription& description,
                                       std::int64_t session, const SessionBuilds& earlier) {
  const auto directory = checkpoint_directory(experiment.output);
  const auto identity = run_identity(experiment, shard);
  auto builds = earlier;
  // A retry's seed session is the result file's last, whose build the file recorded.
  if (!builds.has(session)) builds.add(session, describe_build(identity));
  const auto identity_text = encode_identity(identity);
  const auto problem = mpi::root_verdict(comm, [&] {
    // The caller has made sure that whatever is there is levelforge's to replace.
    fs::remove_all(directory);
    fs::create_directories(directory);
    manifest_for(experiment, description, identity_text, session, builds, -1)
        .write(manifest_path(directory), description.layouts);
  });
  if (!problem.empty()) {
    throw CheckpointError("creating the checkpoint " + directory + ": " + problem);
  }
  return {directory, comm.dup(), session, identity_text, builds, 0};
}

CheckpointStore CheckpointStore::resume(const config::Experiment& experiment,
                                        const ShardSpec& shard, const mpi::Comm& comm,
                                        const SegmentDescription& description, bool retry_failed) {
  const auto directory = checkpoint_directory(experiment.output);
  const auto identity = run_identity(experiment, shard);
  const auto identity_text = encode_identity(identity);
  const auto experiment_text = encode_identity(experiment_part(identity));
  std::string files;
  std::int64_t session = 0;
  std::int64_t retry_session = -1;
  std::string builds_text;
  DirectoryListing listing;
  std::vector<std::string> stop_errors;  // rank 0's, for its notes
  const auto problem = mpi::root_verdict(comm, [&] {
    const auto manifest = read_manifest(directory);
    const auto saved = decode_identity(to_text(manifest.bytes(identity_key)));
    const auto lines = identity_differences(experiment_part(saved), experiment_part(identity),
                                            "in the checkpoint", "now");
    if (!lines.empty()) {
      throw CheckpointError("cannot resume " + experiment.output +
                            ": its checkpoint was made by a different run:\n" + join_lines(lines) +
                            "resume it with `" + resume_command_text(experiment.output) +
                            "`, which runs what the checkpoint holds, or start over with --force");
    }
    const auto build_lines =
        identity_differences(build_part(saved), build_part(identity), "in the checkpoint", "now");
    if (!build_lines.empty() && !retry_failed)
      throw CheckpointError(other_build(experiment.output, saved, identity, build_lines));
    listing = list_directory(directory);
    session = manifest.ints("session").front() + 1;
    stop_errors = stop_errors_of(directory, listing.segments, session - 1);
    retry_session = retry_failed ? session : retry_session_of(manifest);
    auto builds = builds_of(manifest);
    builds.add(session, describe_build(identity));
    builds_text = builds.text();
    files = join_lines(listing.segments);
  });
  if (!problem.empty()) throw CheckpointError(problem);
  comm.broadcast(files, 0);
  comm.broadcast_value(session, 0);
  comm.broadcast_value(retry_session, 0);
  comm.broadcast(builds_text, 0);
  const auto builds = SessionBuilds::from_text(builds_text);

  CheckpointStore store(directory, comm.dup(), session, identity_text, builds,
                        std::max<std::int64_t>(retry_session, 0));
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
    // Of this experiment; the build of a session before a rebuild may differ (resume's check).
    if (encode_identity(experiment_part(decode_identity(
            to_text(store.restored_.back().bytes(identity_key))))) != experiment_text) {
      local_problem = fmt::format(
          "{}: a checkpoint segment of another run (its identity is not the manifest's); it "
          "is not merged into this one. Move it out of {} to resume without it",
          path, directory);
      break;
    }
  }
  if (const auto problems = mpi::all_problems(comm, local_problem); !problems.empty()) {
    throw CheckpointError(problems);
  }
  // Everything is verified: only now does the checkpoint change.
  std::vector<std::string> notes;
  const auto committed = mpi::root_verdict(comm, [&] {
    for (const auto& name : listing.unfinished) fs::remove(fs::path(directory) / name);
    if (!listing.unfinished.empty()) {
      notes.push_back(fmt::format(
          "discarded {} checkpoint file{} being written when the run stopped ({}); the work "
          "they held is done again",
          listing.unfinished.size(), listing.unfinished.size() == 1 ? "" : "s",
          fmt::join(listing.unfinished, ", ")));
    }
    for (const auto& error : stop_errors)
      notes.push_back(
          fmt::format("session {} stopped on a kernel's error: {}", session - 1, error));
    manifest_for(experiment, description, identity_text, session, builds, retry_session)
        .write(manifest_path(directory), description.layouts);
  });
  if (!committed.empty()) {
    throw CheckpointError("updating the checkpoint " + directory + ": " + committed);
  }
  auto notes_text = join_lines(notes);
  comm.broadcast(notes_text, 0);
  store.notes_ = split_lines(notes_text);
  return store;
}

void CheckpointStore::save(Segment segment) {
  segment.put_bytes(std::string(identity_key), to_bytes(identity_));
  const auto name = fmt::format("s{:04}-r{:06}-{:06}.h5", session_, comm_.rank(), next_sequence_++);
  segment.write((fs::path(directory_) / name).string());
}

void CheckpointStore::save_stop_error(const std::string& message) {
  Segment segment;
  segment.put_bytes(segment_key::stop_error, to_bytes(message));
  segment.put_bytes(std::string(identity_key), to_bytes(identity_));
  const auto name = fmt::format("s{:04}-r{:06}{}", session_, comm_.rank(), stop_suffix);
  segment.write((fs::path(directory_) / name).string());
}

void remove_checkpoint(const std::string& directory) {
  std::error_code ignored;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(directory, ignored)) {
    if (entry.path().filename() != manifest_name) entries.push_back(entry.path());
  }
  for (const auto& entry : entries) fs::remove_all(entry, ignored);
  fs::remove(manifest_path(directory), ignored);
  fs::remove(directory, ignored);
}

void CheckpointStore::remove() {
  comm_.barrier();
  if (comm_.rank() == 0) remove_checkpoint(directory_);
}

CheckpointSummary summarize_checkpoint(const std::string& directory) {
  const auto manifest = read_manifest(directory);
  CheckpointSummary summary;
  summary.directory = directory;
  summary.experiment = to_text(manifest.bytes("experiment"));
  summary.driver = to_text(manifest.bytes("driver"));
  summary.shard = decode_identity(to_text(manifest.bytes(identity_key)))["shard"];
  summary.sessions = manifest.ints("session").front() + 1;
  summary.retry_session = retry_session_of(manifest);
  summary.tasks_total = static_cast<std::uint64_t>(manifest.ints("tasks").front());
  const auto* driver = find_driver_spec(summary.driver);
  if (driver == nullptr) {
    throw CheckpointError(directory + ": the checkpoint is of a run by driver '" + summary.driver +
                          "', which this levelforge does not have");
  }
  summary.unit = driver->unit;
  // A driver saves the units it finished under one key of the two.
  const bool units_are_tasks = driver->unit == "task";
  if (units_are_tasks) summary.units_total = summary.tasks_total;
  const auto listing = list_directory(directory);
  summary.segments = listing.segments.size();
  summary.unfinished_files = listing.unfinished.size();
  std::set<std::int64_t> tasks;
  std::set<std::int64_t> units;
  std::map<std::int64_t, std::int64_t> failed;  // unit: the newest session it failed in
  std::map<std::int64_t, std::int64_t> snapshots;
  for (const auto& name : listing.segments) {
    // "sSSSS-rRRRRRR-NNNNNN.h5": written in session SSSS.
    const std::int64_t segment_session = std::strtoll(name.c_str() + 1, nullptr, 10);
    const auto path = (fs::path(directory) / name).string();
    const auto segment = read_segment(path);
    for (auto task : segment.ints(segment_key::tasks)) tasks.insert(task);
    for (auto unit : segment.ints(units_are_tasks ? segment_key::tasks : segment_key::chunks))
      units.insert(unit);
    for (auto unit : segment.ints(segment_key::failed_units)) {
      auto& newest = failed.try_emplace(unit, segment_session).first->second;
      newest = std::max(newest, segment_session);
    }
    if (const auto total = segment.ints(segment_key::chunk_total); !total.empty())
      summary.units_total = static_cast<std::uint64_t>(total.front());
    const auto snapshot_tasks = segment.ints(segment_key::snapshot_tasks);
    const auto generations = segment.ints(segment_key::snapshot_generations);
    for (std::size_t i = 0; i < snapshot_tasks.size() && i < generations.size(); ++i) {
      auto& newest = snapshots[snapshot_tasks[i]];
      newest = std::max(newest, generations[i]);
    }
  }
  // A unit that succeeded in any session is done; one that only failed is done as a failure,
  // unless a retry in progress runs it again.
  for (const auto& [unit, session] : failed) {
    if (units.contains(unit)) continue;
    if (session < summary.retry_session) {
      ++summary.to_retry;
    } else {
      ++summary.failed;
    }
  }
  summary.units_done = units.size() + summary.failed;
  for (const auto& [task, generations] : snapshots) {
    if (!tasks.contains(task))
      summary.in_progress.emplace_back(static_cast<std::uint64_t>(task), generations);
  }
  summary.stop_errors = stop_errors_of(directory, listing.segments, summary.sessions - 1);
  return summary;
}

std::string describe_progress(const CheckpointSummary& summary) {
  const auto sessions =
      fmt::format("{} session{}", summary.sessions, summary.sessions == 1 ? "" : "s");
  std::vector<std::string> notes;
  if (summary.failed > 0) notes.push_back(fmt::format("{} failed", summary.failed));
  if (summary.to_retry > 0)
    notes.push_back(fmt::format("{} more failed earlier, being retried", summary.to_retry));
  const auto failed = notes.empty() ? std::string() : fmt::format(" ({})", fmt::join(notes, "; "));
  return fmt::format("{} of {} {}s done{} in {}", summary.units_done,
                     summary.units_total > 0 ? std::to_string(summary.units_total)
                                             : std::string("(not yet known)"),
                     summary.unit, failed, sessions);
}

}  // namespace levelforge
