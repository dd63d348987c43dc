// `levelforge solve KERNEL INPUT`: one puzzle read, solved, checked and reported, by the
// kernel's puzzle capability.

#include <algorithm>
#include <array>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "runner/cli/commands.hpp"
#include "runner/cli/puzzle_options.hpp"
#include "runner/config/suggest.hpp"
#include "runner/files/input_file.hpp"

namespace levelforge::cli {

namespace {

struct SolveArguments {
  std::string kernel;
  std::string input;  // a file ('-': stdin) or the puzzle's text, as the kernel's PuzzleInfo says
  std::vector<OptionSetting> options;
  bool json = false;
};

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

// A puzzle given on the command line may begin with '-' ("-1+2=1": the kernel refuses it with
// its own message), which CLI11 reads as an unknown option unless a digit follows, and keeps
// among the extras of `command` (which allows them for this). The first extra that is no long
// option is the input when none was given; any other extra is refused as CLI11 refuses it.
void take_input_from_extras(const CLI::App& command, const CLI::Option& input_option,
                            std::string& input) {
  std::vector<std::string> extras = command.remaining();
  // CLI11 keeps a "--" that ends the options among them.
  std::erase(extras, "--");
  if (input_option.count() == 0) {
    const auto first = std::find_if(extras.begin(), extras.end(),
                                    [](const std::string& arg) { return !arg.starts_with("--"); });
    if (first == extras.end()) throw CLI::RequiredError(input_option.get_name());
    input = *first;
    extras.erase(first);
  }
  if (!extras.empty()) throw CLI::ExtrasError(command.get_name(), extras);
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

std::string render_report(const Report& report, bool json) {
  return json ? report.json_line() : report.text();
}

namespace {

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

}  // namespace

void add_solve_command(CommandList& commands) {
  struct Solve {
    SolveArguments arguments;
    CLI::Option* input = nullptr;
    std::optional<PuzzleOptions> options;  // CLI11 keeps pointers into it
  };
  auto solve = std::make_shared<Solve>();
  auto* command = commands.app().add_subcommand(
      "solve", "decide and solve one puzzle: is it solvable, and how");
  std::vector<std::string> puzzle_kernels;
  std::vector<std::string> inputs;
  for (const auto& entry : registered_kernels()) {
    if (!entry.puzzle) continue;
    puzzle_kernels.push_back(entry.name);
    inputs.push_back(entry.name + ": " + entry.puzzle->info.input);
  }
  command
      ->add_option("kernel", solve->arguments.kernel,
                   "the puzzle's kernel: " + config::join(puzzle_kernels, " or "))
      ->required();
  // Not required() for CLI11: take_input_from_extras requires it, where it may also begin
  // with '-'.
  solve->input = command->add_option("file", solve->arguments.input, config::join(inputs, "; "));
  command->allow_extras();
  solve->options.emplace(*command);
  command->add_flag("--json", solve->arguments.json,
                    "one JSON object on stdout instead of the report");
  commands.add(
      command, Ranks::first,
      [solve](const Invocation&) {
        solve->arguments.options = solve->options->given_options();
        return solve_command(solve->arguments);
      },
      [solve, command] {
        take_input_from_extras(*command, *solve->input, solve->arguments.input);
      });
}

}  // namespace levelforge::cli
