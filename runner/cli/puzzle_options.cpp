#include "runner/cli/puzzle_options.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "runner/cli/commands.hpp"
#include "runner/config/suggest.hpp"
#include "runner/config/values.hpp"

namespace levelforge::cli {

namespace {

std::string flag_of(std::string_view name) {
  std::string flag = "--" + std::string(name);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

const ParamSpec* find_option(const PuzzleCapability& puzzle, std::string_view name) {
  const auto found = std::find_if(puzzle.options.begin(), puzzle.options.end(),
                                  [&](const ParamSpec& spec) { return spec.name == name; });
  return found == puzzle.options.end() ? nullptr : &*found;
}

std::string own_options(const PuzzleCapability& puzzle) {
  if (puzzle.options.empty()) return "no options of its own";
  std::vector<std::string> flags;
  for (const auto& spec : puzzle.options) flags.push_back(flag_of(spec.name));
  return "only " + config::join(flags);
}

}  // namespace

PuzzleOptions::PuzzleOptions(CLI::App& command, const KernelEntry* only) {
  // One --NAME per name: kernels that share a name share the option, its help lists each.
  std::map<std::string, std::vector<std::string>> docs;
  for (const auto& entry : registered_kernels()) {
    if (!entry.puzzle || (only != nullptr && &entry != only)) continue;
    for (const auto& spec : entry.puzzle->options) {
      std::string doc = spec.doc;
      if (spec.type == ParamType::choice)
        doc += fmt::format(" ({}; default {})", config::join(spec.choices, " or "),
                           format_value(spec.default_value));
      else
        doc += fmt::format(" (default {})", format_value(spec.default_value));
      docs[spec.name].push_back(only != nullptr ? doc : entry.name + ": " + doc);
    }
  }
  for (const auto& [name, texts] : docs) {
    options_[name] = command.add_option(flag_of(name), values_[name], config::join(texts, "; "));
  }
  command.add_option("--set", assignments_, "set an option: NAME=VALUE (as --NAME VALUE)")
      ->allow_extra_args(false);
}

std::vector<OptionSetting> PuzzleOptions::given_options() const {
  std::vector<OptionSetting> given;
  for (const auto& [name, option] : options_) {
    if (option->count() == 0) continue;
    const std::string& value = values_.at(name);
    given.push_back({name, value, fmt::format("{} {}", flag_of(name), value)});
  }
  for (const auto& assignment : assignments_) {
    const auto equals = assignment.find('=');
    const std::string place = "--set " + assignment;
    if (equals == std::string::npos || equals == 0)
      throw UsageError(place + ": malformed option, expected NAME=VALUE");
    given.push_back({assignment.substr(0, equals), assignment.substr(equals + 1), place});
  }
  return given;
}

const KernelEntry& find_puzzle_kernel(std::string_view command, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& entry : registered_kernels()) {
    if (!entry.puzzle) continue;
    if (entry.name == name) return entry;
    names.push_back(entry.name);
  }
  throw UsageError(fmt::format("no {} for kernel '{}'{}", command == "solve" ? "solver" : "puzzles",
                               name, config::closest_hint(name, names, "the puzzle kernels are")));
}

ParamSet read_puzzle_options(std::string_view command, const KernelEntry& kernel,
                             const std::vector<OptionSetting>& given) {
  const PuzzleCapability& puzzle = *kernel.puzzle;
  ParamSet options = ParamSet::defaults(puzzle.options);
  for (const auto& setting : given) {
    const ParamSpec* spec = find_option(puzzle, setting.name);
    if (spec == nullptr) {
      std::vector<std::string> owners;
      for (const auto& other : registered_kernels())
        if (other.puzzle && find_option(*other.puzzle, setting.name) != nullptr)
          owners.push_back(fmt::format("`{} {}`", command, other.name));
      if (owners.empty()) {
        std::vector<std::string> names;
        for (const auto& known : puzzle.options) names.push_back(known.name);
        throw UsageError(fmt::format("{}: `{} {}` has no option '{}'{}", setting.place, command,
                                     kernel.name, setting.name,
                                     config::closest_hint(setting.name, names, "its options are")));
      }
      throw UsageError(fmt::format("{} is an option of {}; `{} {}` takes {}", flag_of(setting.name),
                                   config::join(owners), command, kernel.name,
                                   own_options(puzzle)));
    }
    YAML::Node node;
    try {
      node = YAML::Load(setting.value);
    } catch (const YAML::Exception& error) {
      throw UsageError(fmt::format("{}: not a value: {}", setting.place, error.msg));
    }
    options.set(spec->name, config::read_value(*spec, node, spec->name, setting.place));
  }
  return options;
}

std::string options_text(const ParamSet& options) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : options.values())
    parts.push_back(fmt::format("{}={}", name, format_value(value)));
  return parts.empty() ? "no options" : config::join(parts);
}

}  // namespace levelforge::cli
