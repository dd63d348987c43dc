// `levelforge solve KERNEL INPUT`: one puzzle read, solved, checked and reported, by the
// kernel's puzzle capability.

#include <array>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>

#include "runner/cli/commands.hpp"
#include "runner/cli/puzzle_options.hpp"
#include "runner/files/input_file.hpp"

namespace levelforge::cli {

namespace {

std::string read_input(const std::string& path) {
  std::string text;
  if (path == "-") {
    std::array<char, 4096> buffer{};
    while (std::cin.read(buffer.data(), buffer.size()) || std::cin.gcount() > 0) {
      text.append(buffer.data(), static_cast<std::size_t>(std::cin.gcount()));
      if (text.size() > puzzle_size_limit) {
        throw UsageError("<stdin>: more than the " + describe_size(puzzle_size_limit) +
                         " a puzzle file may hold");
      }
    }
    return text;
  }
  if (const auto problem = input_file_problem(path, "puzzle file", puzzle_size_limit);
      !problem.empty()) {
    throw UsageError(problem);
  }
  if (!read_input_file(path, puzzle_size_limit, text))
    throw UsageError("cannot read puzzle file '" + path + "'");
  return text;
}

}  // namespace

Report solve_puzzle(const KernelEntry& kernel, std::string_view text, const std::string& source,
                    const ParamSet& options) {
  try {
    return kernel.puzzle->solve(text, source, options);
  } catch (const PuzzleInputError& error) {
    throw UsageError(error.what());
  } catch (const std::logic_error& error) {
    throw std::runtime_error(
        fmt::format("internal error on {} ({}, {}): {}; please report it with the puzzle", source,
                    kernel.name, options_text(options), error.what()));
  }
}

int solve_command(const SolveArguments& arguments) {
  const KernelEntry& kernel = find_puzzle_kernel("solve", arguments.kernel);
  const ParamSet options = read_puzzle_options("solve", kernel, arguments.options);
  const bool from_file = kernel.puzzle->info.input_is_file;
  const std::string source = !from_file               ? "<puzzle>"
                             : arguments.input == "-" ? "<stdin>"
                                                      : arguments.input;
  const std::string text = from_file ? read_input(arguments.input) : arguments.input;
  // Everything is decided before anything is printed: an internal error leaves stdout empty.
  const Report report = solve_puzzle(kernel, text, source, options);
  fmt::print("{}", render_report(report, arguments.json));
  return exit_ok;
}

std::string render_report(const Report& report, bool json) {
  return json ? report.json_line() : report.text();
}

}  // namespace levelforge::cli
