// `levelforge solve KERNEL FILE`: decide and solve one puzzle, given as a file (tiltmaze) or
// as itself (matchstick's equation).

#include <algorithm>
#include <array>
#include <iostream>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "kernels/tiltmaze/maze_text.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/matchstick_report.hpp"
#include "runner/cli/tiltmaze_report.hpp"
#include "runner/config/suggest.hpp"
#include "runner/files/input_file.hpp"

namespace levelforge::cli {

namespace {

std::string read_input(const std::string& path) {
  std::string text;
  if (path == "-") {
    std::array<char, 4096> buffer{};
    while (std::cin.read(buffer.data(), buffer.size()) || std::cin.gcount() > 0) {
      text.append(buffer.data(), static_cast<std::size_t>(std::cin.gcount()));
      if (text.size() > maze_size_limit) {
        throw UsageError("<stdin>: more than the " + describe_size(maze_size_limit) +
                         " a maze file may hold");
      }
    }
    return text;
  }
  if (const auto problem = input_file_problem(path, "puzzle file", maze_size_limit);
      !problem.empty()) {
    throw UsageError(problem);
  }
  if (!read_input_file(path, maze_size_limit, text))
    throw UsageError("cannot read puzzle file '" + path + "'");
  return text;
}

void solve_tiltmaze(const SolveArguments& arguments) {
  const std::string source = arguments.file == "-" ? "<stdin>" : arguments.file;
  const std::string text = read_input(arguments.file);
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

void solve_matchstick(const SolveArguments& arguments) {
  const auto rules = matchstick_rules(arguments.moves, arguments.count, arguments.leading_zeros);
  const auto puzzle = read_equation(arguments.file);
  const auto analysis = analyze_matchstick(arguments.file, puzzle, rules);
  if (arguments.json) {
    fmt::print("{}\n", report_json(analysis));
  } else {
    fmt::print("{}", report_text(analysis));
  }
}

// The puzzle kernels `solve` knows. Another one adds a solver, its options and a report of
// its own here.
struct PuzzleSolver {
  std::string_view kernel;
  // The options only this kernel takes (SolveArguments::kernel_options); the others refuse
  // them.
  std::span<const std::string_view> options;
  // Reads the puzzle `arguments.file` names (or is), solves it and prints the report; an input
  // error is a UsageError.
  void (*solve)(const SolveArguments& arguments);
};

constexpr std::array<std::string_view, 1> tiltmaze_options{"--collect"};
constexpr std::array<std::string_view, 3> matchstick_options{"--moves", "--count",
                                                             "--leading-zeros"};
constexpr std::array<PuzzleSolver, 2> puzzle_solvers{{
    {"tiltmaze", tiltmaze_options, solve_tiltmaze},
    {"matchstick", matchstick_options, solve_matchstick},
}};

bool takes(const PuzzleSolver& solver, std::string_view option) {
  return std::find(solver.options.begin(), solver.options.end(), option) != solver.options.end();
}

// Refuses the options of other kernels, naming the kernel they belong to: the command line
// accepts every kernel's options, and a silently ignored one would mislead.
void check_kernel_options(const PuzzleSolver& solver, const std::vector<std::string>& given) {
  for (const std::string& option : given) {
    if (takes(solver, option)) continue;
    std::vector<std::string_view> owners;
    for (const auto& other : puzzle_solvers)
      if (takes(other, option)) owners.push_back(other.kernel);
    const std::string own = solver.options.empty()
                                ? "no options of its own"
                                : fmt::format("only {}", fmt::join(solver.options, ", "));
    throw UsageError(fmt::format("{} is an option of `solve {}`; `solve {}` takes {}", option,
                                 fmt::join(owners, "`, `solve "), solver.kernel, own));
  }
}

}  // namespace

int solve_command(const SolveArguments& arguments) {
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
  check_kernel_options(*solver, arguments.kernel_options);
  solver->solve(arguments);
  return exit_ok;
}

}  // namespace levelforge::cli
