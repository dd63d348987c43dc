#include "runner/engine/kernel_registry.hpp"

#include <algorithm>

#include "kernels/all.hpp"
#include "runner/engine/driver_specs.hpp"

namespace levelforge {

namespace {

template <Kernel K>
KernelEntry describe() {
  KernelEntry entry{std::string(K::name), std::string(K::summary), K::parameters(), {}, {}, {}, {}};
  if constexpr (MemoryEstimatingKernel<K>) {
    entry.memory_estimate = [](const ParamSet& params) { return K::memory_estimate(params); };
  }
  if constexpr (GaKernel<K>) {
    entry.ga = GaCapability{K::evaluation_fields(), {}, [](const ParamSet& params) {
                              return std::unique_ptr<GaModel>(new ErasedGa<K>(params));
                            }};
    if constexpr (ValidatingGaKernel<K>) entry.ga->validation_fields = K::validation_fields();
  }
  if constexpr (SweepKernel<K>) {
    entry.sweep = SweepCapability{K::record_fields(), [](const ParamSet& params) {
                                    return std::unique_ptr<SweepModel>(new ErasedSweep<K>(params));
                                  }};
  }
  if constexpr (ExhaustiveKernel<K>) {
    entry.exhaustive = ExhaustiveCapability{
        K::reductions(), K::solution_fields(), [](const ParamSet& params) {
          return std::unique_ptr<ExhaustiveModel>(new ErasedExhaustive<K>(params));
        }};
  }
  return entry;
}

template <class... Ks>
std::vector<KernelEntry> describe_all(kernels::KernelList<Ks...> /*list*/) {
  return {describe<Ks>()...};
}

}  // namespace

std::vector<std::string> KernelEntry::drivers() const {
  std::vector<std::string> names;
  if (ga) names.emplace_back("ga");
  if (sweep) names.emplace_back("sweep");
  if (exhaustive) names.emplace_back("exhaustive");
  return names;
}

const std::vector<KernelEntry>& registered_kernels() {
  static const std::vector<KernelEntry> entries = describe_all(kernels::Registered{});
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
  schema.drivers["ga"] = ga_settings();
  schema.drivers["sweep"] = {};
  schema.drivers["exhaustive"] = exhaustive_settings();
  return schema;
}

}  // namespace levelforge
