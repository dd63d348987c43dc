#pragma once
// What the runner knows of each registered kernel (LEVELFORGE_REGISTER_KERNEL, in
// register_kernel.hpp): their declarations feed `levelforge kernels`, config validation and
// the drivers' bindings (the factories of the type-erased models).

#include <any>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/memory.hpp"
#include "kernels/api/params.hpp"
#include "kernels/api/puzzle.hpp"
#include "kernels/api/record.hpp"
#include "kernels/api/reductions.hpp"
#include "kernels/api/results.hpp"
#include "runner/config/experiment.hpp"
#include "runner/engine/kernel_code.hpp"

namespace levelforge {

// A kernel's binding to one driver that it offers: the driver's `SPEC::Binding`
// (runner/drivers/DRIVER/DRIVER_spec.hpp), held erased.
struct DriverBinding {
  std::string_view driver;
  std::any binding;
};

struct PuzzleCapability {
  PuzzleInfo info;
  std::vector<ParamSpec> options;
  // Reads `text` as a puzzle named `source`, solves it under `options` (validated, defaults
  // filled in), checks the answer and reports it. Throws PuzzleInputError for a text that is
  // no puzzle, std::logic_error for solvers that disagree or an answer that fails its check.
  std::function<Report(std::string_view text, const std::string& source, const ParamSet& options)>
      solve;
  // The puzzle in `text` (named `source` in a PuzzleInputError) drawn for people, headed by
  // comments naming `heading`.
  std::function<std::string(std::string_view text, const std::string& source,
                            const std::string& heading)>
      draw;
};

struct KernelEntry {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  // One per driver the kernel offers, in driver_list.hpp's order.
  std::vector<DriverBinding> bindings;
  std::optional<PuzzleCapability> puzzle;
  // The kernel's memory for one task and one genome (MemoryEstimatingKernel); empty when
  // the kernel declares none because its memory does not grow with its parameters.
  std::function<MemoryEstimate(const ParamSet&)> memory_estimate;
  // What `inspect` says of a finished run in the kernel's terms (SummarizingKernel); empty
  // when the kernel has no summary.
  std::function<std::vector<std::string>(const ResultTables&)> summarize;
  // The SIMD path a run with these parameters takes on this CPU, and every path the binary
  // carries (SimdKernel); empty for kernels without SIMD paths.
  std::function<std::string(const ParamSet&)> simd_path;
  std::string simd_paths;
  // Which code this is (kernel_code.hpp): part of every run's identity.
  KernelCode code;

  // What the driver of `Spec` holds of the kernel; nullptr when the kernel does not offer it.
  template <class Spec>
  [[nodiscard]] const typename Spec::Binding* binding() const {
    for (const auto& bound : bindings) {
      if (bound.driver == Spec::name) return std::any_cast<typename Spec::Binding>(&bound.binding);
    }
    return nullptr;
  }
  [[nodiscard]] bool offers(std::string_view driver) const;
  // The names of the drivers it offers.
  [[nodiscard]] std::vector<std::string> drivers() const;
};

// The kernels added with add_kernel, by name, each with its library's code. Throws
// std::logic_error when two share a name.
const std::vector<KernelEntry>& registered_kernels();
// Adds a kernel of the kernel library `library` (LEVELFORGE_REGISTER_KERNEL calls it during
// static initialization); returns true. Throws std::logic_error once the registry has been
// read.
bool add_kernel(KernelEntry entry, std::string_view library);
// nullptr when no kernel has that name.
const KernelEntry* find_kernel(std::string_view name);

// The config schema: every kernel's parameters and drivers, every driver's section.
config::Schema config_schema();

}  // namespace levelforge
