#pragma once
// The runner's entry for a kernel type: what it claims, and only that (kernels/api/
// concepts.hpp, capabilities_hold), with its binding to each driver it offers.
// LEVELFORGE_REGISTER_KERNEL (runner/engine/register_kernel.hpp) describes every kernel with it.

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kernels/api/concepts.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

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

// Binds the kernel to every driver of the list that it offers, in the list's order.
template <Kernel K, class... Specs>
void bind_drivers(KernelEntry& entry, DriverList<Specs...> /*list*/) {
  (
      [&] {
        if constexpr (Specs::template offered_by<K>)
          entry.bindings.push_back({Specs::name, Specs::template bind<K>()});
      }(),
      ...);
}

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
  bind_drivers<K>(entry, Drivers{});
  if constexpr (claims<K>(Capability::puzzle)) entry.puzzle = describe_puzzle<K>();
  if constexpr (claims<K>(Capability::summary)) {
    entry.summarize = [](const ResultTables& results) { return K::summarize(results); };
  }
  if constexpr (claims<K>(Capability::simd)) {
    entry.simd_path = [](const ParamSet& params) { return K::simd_path(params); };
    entry.simd_paths = K::simd_paths();
  }
  return entry;
}

}  // namespace levelforge
