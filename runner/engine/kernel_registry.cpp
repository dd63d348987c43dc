#include "runner/engine/kernel_registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/all.hpp"
#include "runner/engine/driver_specs.hpp"

namespace levelforge {

namespace {

template <PuzzleKernel K>
PuzzleCapability describe_puzzle() {
  const auto solve = [](std::string_view text, const std::string& source, const ParamSet& options) {
    const auto puzzle = K::parse_puzzle(text, source);
    const auto answer = K::solve_puzzle(puzzle, options);
    if (const std::string problem = K::check_answer(puzzle, options, answer); !problem.empty())
      throw std::logic_error("the answer " + problem);
    return K::report(puzzle, answer, source);
  };
  const auto draw = [](std::string_view text, const std::string& source,
                       const std::string& heading) {
    return K::draw_puzzle(K::parse_puzzle(text, source), heading);
  };
  return {K::puzzle_info(), K::solve_options(), solve, draw};
}

// What K claims, and only that (concepts.hpp, capabilities_hold).
template <Kernel K>
KernelEntry describe() {
  static_assert(capabilities_hold<K>());
  KernelEntry entry;
  entry.name = K::name;
  entry.summary = K::summary;
  entry.params = K::parameters();
  if constexpr (claims<K>(Capability::memory_estimate)) {
    entry.memory_estimate = [](const ParamSet& params) { return K::memory_estimate(params); };
  }
  if constexpr (claims<K>(Capability::ga)) {
    entry.ga = GaCapability{K::evaluation_fields(), {}, [](const ParamSet& params) {
                              return std::unique_ptr<GaModel>(new ErasedGa<K>(params));
                            }};
    if constexpr (claims<K>(Capability::validate))
      entry.ga->validation_fields = K::validation_fields();
  }
  if constexpr (claims<K>(Capability::sweep)) {
    entry.sweep = SweepCapability{K::record_fields(), [](const ParamSet& params) {
                                    return std::unique_ptr<SweepModel>(new ErasedSweep<K>(params));
                                  }};
  }
  if constexpr (claims<K>(Capability::exhaustive)) {
    entry.exhaustive = ExhaustiveCapability{
        K::reductions(), K::solution_fields(), [](const ParamSet& params) {
          return std::unique_ptr<ExhaustiveModel>(new ErasedExhaustive<K>(params));
        }};
  }
  if constexpr (claims<K>(Capability::puzzle)) entry.puzzle = describe_puzzle<K>();
  if constexpr (claims<K>(Capability::summary)) {
    entry.summarize = [](const ResultTables& results) { return K::summarize(results); };
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
