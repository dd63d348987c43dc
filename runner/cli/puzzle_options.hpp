#pragma once
// The options of `solve` and `show`: each puzzle kernel declares its own (PuzzleKernel's
// solve_options), given on the command line as `--set NAME=VALUE` or `--NAME VALUE` (the
// name with '-' for '_').

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "kernels/api/params.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge::cli {

// One option as given, and where: "--collect pass" or "--set collect=pass".
struct OptionSetting {
  std::string name;
  std::string value;
  std::string place;
};

// Adds every puzzle kernel's options to `command` as `--NAME VALUE` (those of `only`, when
// given). After parsing, given_options() lists what was set.
class PuzzleOptions {
 public:
  // CLI11 keeps pointers into this object: it stays where it was built.
  explicit PuzzleOptions(CLI::App& command, const KernelEntry* only = nullptr);
  PuzzleOptions(const PuzzleOptions&) = delete;
  PuzzleOptions& operator=(const PuzzleOptions&) = delete;
  PuzzleOptions(PuzzleOptions&&) = delete;
  PuzzleOptions& operator=(PuzzleOptions&&) = delete;
  ~PuzzleOptions() = default;
  // The --NAME options given, then each --set: later settings win.
  [[nodiscard]] std::vector<OptionSetting> given_options() const;

 private:
  std::map<std::string, std::string> values_;  // by option name
  std::map<std::string, CLI::Option*> options_;
  std::vector<std::string> assignments_;  // --set NAME=VALUE
};

// The kernel whose puzzles `command` ("solve") handles; UsageError naming those that have
// some otherwise.
const KernelEntry& find_puzzle_kernel(std::string_view command, const std::string& name);

// `given` read as `kernel`'s options: validated like config values, defaults filled in. An
// option of another kernel or of none is refused, naming its kernels and this one's options.
ParamSet read_puzzle_options(std::string_view command, const KernelEntry& kernel,
                             const std::vector<OptionSetting>& given);

// "collect=pass, ..." for messages.
std::string options_text(const ParamSet& options);

}  // namespace levelforge::cli
