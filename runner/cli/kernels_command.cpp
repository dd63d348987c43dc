// `levelforge kernels [NAME]`: generated from the kernels' own declarations.

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "runner/cli/commands.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/suggest.hpp"
#include "runner/drivers/driver.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge::cli {

namespace {

using config::join;

std::string allowed(const ParamSpec& spec) {
  if (spec.min && spec.max)
    return fmt::format("[{}, {}]", format_value(*spec.min), format_value(*spec.max));
  switch (spec.type) {
    case ParamType::choice: return "one of " + join(spec.choices);
    case ParamType::boolean: return "true or false";
    case ParamType::text: return "any non-empty text";
    case ParamType::table: return "map, list of maps, or files";
    case ParamType::integer:
    case ParamType::real: break;
  }
  return "any";
}

void describe(const KernelEntry& kernel) {
  fmt::print("{}: {}\n", kernel.name, kernel.summary);
  fmt::print("drivers: {}\n", join(kernel.drivers()));
  fmt::print("parameters (params.NAME):\n");
  fmt::print("  {:<20} {:<7} {:<12} {:<28} {}\n", "name", "type", "default", "valid",
             "description");
  for (const auto& spec : kernel.params) {
    fmt::print("  {:<20} {:<7} {:<12} {:<28} {}\n", spec.name, to_string(spec.type),
               format_value(spec.default_value), allowed(spec), spec.doc);
  }
  fmt::print("records:\n");
  for (const auto* driver : drivers()) {
    if (kernel.offers(driver->name())) driver->print_records(kernel);
  }
}

int kernels_command(const std::string& name) {
  if (name.empty()) {
    // The drivers column as wide as its widest entry.
    std::size_t width = 7;
    for (const auto& kernel : registered_kernels())
      width = std::max(width, join(kernel.drivers()).size());
    fmt::print("{:<12} {:<{}} {}\n", "kernel", "drivers", width, "summary");
    for (const auto& kernel : registered_kernels()) {
      fmt::print("{:<12} {:<{}} {}\n", kernel.name, join(kernel.drivers()), width, kernel.summary);
    }
    fmt::print("\n`levelforge kernels NAME` lists a kernel's parameters.\n");
    return exit_ok;
  }
  const auto* kernel = find_kernel(name);
  if (kernel == nullptr) {
    std::vector<std::string> names;
    for (const auto& entry : registered_kernels()) names.push_back(entry.name);
    throw UsageError("unknown kernel '" + name + "'" +
                     config::closest_hint(name, names, "the kernels are"));
  }
  describe(*kernel);
  return exit_ok;
}

}  // namespace

void add_kernels_command(CommandList& commands) {
  auto name = std::make_shared<std::string>();
  auto* command = commands.app().add_subcommand("kernels", "list the kernels, or describe one");
  command->add_option("name", *name, "a kernel's name");
  commands.add(command, Ranks::first, [name](const Invocation&) { return kernels_command(*name); });
}

}  // namespace levelforge::cli
