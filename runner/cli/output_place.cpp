#include "runner/cli/output_place.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "runner/cli/commands.hpp"
#include "runner/files/input_file.hpp"

namespace levelforge::cli {

namespace {

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

}  // namespace levelforge::cli
