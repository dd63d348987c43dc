#include "runner/engine/kernel_registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "kernels/all.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/engine/describe_kernel.hpp"

namespace levelforge {

namespace {

template <class... Ks>
std::vector<KernelEntry> describe_all(kernels::KernelList<Ks...> /*list*/) {
  return {describe<Ks>()...};
}

// The kernels registered from outside the tree (LEVELFORGE_REGISTER_KERNEL), in the order
// their static initializers ran; read once, by the first registered_kernels().
struct AddedKernels {
  std::vector<KernelEntry> entries;
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

bool add_kernel(KernelEntry entry) {
  auto& added = added_kernels();
  if (added.read)
    throw std::logic_error("kernel '" + entry.name +
                           "' added after the registry was read: register kernels with "
                           "LEVELFORGE_REGISTER_KERNEL, at static initialization");
  added.entries.push_back(std::move(entry));
  return true;
}

const std::vector<KernelEntry>& registered_kernels() {
  static const std::vector<KernelEntry> entries = [] {
    auto all = describe_all(kernels::Registered{});
    for (auto& entry : all) {
      auto code = in_tree_kernel_code(entry.name);
      if (!code) {
        throw std::logic_error("kernel '" + entry.name +
                               "' has no code identity: declare it with levelforge_kernel_code "
                               "in its folder's CMakeLists.txt (cmake/kernel_code.cmake)");
      }
      entry.code = std::move(*code);
    }
    auto& added = added_kernels();
    added.read = true;
    for (auto& entry : added.entries) {
      entry.code = added_kernel_code();
      if (std::any_of(all.begin(), all.end(),
                      [&](const KernelEntry& known) { return known.name == entry.name; }))
        throw std::logic_error("two kernels are registered under the name '" + entry.name + "'");
      all.push_back(std::move(entry));
    }
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
