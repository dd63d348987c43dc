#include "runner/engine/kernel_registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "runner/drivers/driver_list.hpp"

namespace levelforge {

namespace {

// The kernels registered (LEVELFORGE_REGISTER_KERNEL), each with its library's name, in the
// order their static initializers ran; read once, by the first registered_kernels().
struct AddedKernels {
  std::vector<std::pair<KernelEntry, std::string>> entries;
  bool read = false;
};

AddedKernels& added_kernels() {
  static AddedKernels added;
  return added;
}

}  // namespace

bool KernelEntry::offers(std::string_view driver) const {
  return std::any_of(bindings.begin(), bindings.end(),
                     [&](const DriverBinding& bound) { return bound.driver == driver; });
}

std::vector<std::string> KernelEntry::drivers() const {
  std::vector<std::string> names;
  for (const auto& bound : bindings) names.emplace_back(bound.driver);
  return names;
}

bool add_kernel(KernelEntry entry, std::string_view library) {
  auto& added = added_kernels();
  if (added.read)
    throw std::logic_error("kernel '" + entry.name +
                           "' added after the registry was read: register kernels with "
                           "LEVELFORGE_REGISTER_KERNEL, at static initialization");
  added.entries.emplace_back(std::move(entry), std::string(library));
  return true;
}

const std::vector<KernelEntry>& registered_kernels() {
  static const std::vector<KernelEntry> entries = [] {
    auto& added = added_kernels();
    added.read = true;
    std::vector<KernelEntry> all;
    for (auto& [entry, library] : added.entries) {
      entry.code = kernel_code(library);
      all.push_back(std::move(entry));
    }
    // By name: the order in which static initializers ran is the linker's, not ours.
    std::sort(all.begin(), all.end(),
              [](const KernelEntry& a, const KernelEntry& b) { return a.name < b.name; });
    auto twin = std::adjacent_find(all.begin(), all.end(),
                                   [](const auto& a, const auto& b) { return a.name == b.name; });
    if (twin != all.end())
      throw std::logic_error("two kernels are registered under the name '" + twin->name + "'");
    return all;
  }();
  return entries;
}

const KernelEntry* find_kernel(std::string_view name) {
  const auto& entries = registered_kernels();
  auto found = std::find_if(entries.begin(), entries.end(),
                            [&](const KernelEntry& entry) { return entry.name == name; });
  return found == entries.end() ? nullptr : &*found;
}

config::Schema config_schema() {
  config::Schema schema;
  for (const auto& entry : registered_kernels()) {
    schema.kernels[entry.name] = config::KernelSchema{entry.params, entry.drivers()};
  }
  for (const auto& driver : driver_specs)
    schema.drivers[std::string(driver.name)] = driver.settings();
  return schema;
}

}  // namespace levelforge
