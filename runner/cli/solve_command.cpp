// `levelforge solve KERNEL FILE`: decide and solve one puzzle given as a file.

#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "kernels/tiltmaze/maze_text.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/tiltmaze_report.hpp"
#include "runner/config/suggest.hpp"

namespace levelforge::cli {

namespace {

void solve_tiltmaze(std::string_view text, const std::string& source,
                    const SolveArguments& arguments) {
  tiltmaze::Maze maze;
  try {
    maze = read_maze_text(text, source);
  } catch (const tiltmaze::MazeFormatError& error) {
    throw UsageError(error.what());
  }
  // Everything is decided before anything is printed: an internal error leaves stdout empty.
  const auto analysis = analyze_maze(maze, parse_collect(arguments.collect), source);
  if (arguments.json) {
    fmt::print("{}\n", report_json(maze, analysis, source));
  } else {
    fmt::print("{}", report_text(maze, analysis));
  }
}

// The puzzle kernels `solve` knows. Another one adds a reader and a report of its own here.
struct PuzzleSolver {
  std::string_view kernel;
  // Reads the puzzle in `text` (`source` names it in errors), solves it and prints the
  // report; an input error is a UsageError.
  void (*solve)(std::string_view text, const std::string& source, const SolveArguments& arguments);
};

constexpr std::array<PuzzleSolver, 1> puzzle_solvers{{{"tiltmaze", solve_tiltmaze}}};

std::string read_input(const std::string& path) {
  std::ostringstream content;
  if (path == "-") {
    content << std::cin.rdbuf();
    return content.str();
  }
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    throw UsageError("puzzle file '" + path + "' does not exist");
  if (std::filesystem::is_directory(path, error))
    throw UsageError("puzzle file '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read puzzle file '" + path + "'");
  content << in.rdbuf();
  return content.str();
}

}  // namespace

int solve_command(const SolveArguments& arguments, const mpi::Comm& comm) {
  // One puzzle is one rank's work; the others have nothing to do.
  if (comm.rank() != 0) return exit_ok;
  const PuzzleSolver* solver = nullptr;
  std::vector<std::string> names;
  for (const auto& candidate : puzzle_solvers) {
    names.emplace_back(candidate.kernel);
    if (candidate.kernel == arguments.kernel) solver = &candidate;
  }
  if (solver == nullptr) {
    throw UsageError("no solver for kernel '" + arguments.kernel + "'" +
                     config::closest_hint(arguments.kernel, names, "the solvers are"));
  }
  const std::string source = arguments.file == "-" ? "<stdin>" : arguments.file;
  solver->solve(read_input(arguments.file), source, arguments);
  return exit_ok;
}

}  // namespace levelforge::cli
