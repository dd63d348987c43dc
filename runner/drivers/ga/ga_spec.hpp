#pragma once
// The `ga` driver's hold on a kernel that claims the GA capability: its evaluation and
// validation fields and a factory of its type-erased model, the one place a kernel type meets
// the GA engine.

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "runner/engine/ga_engine.hpp"

namespace levelforge {

class Driver;

class GaModel {
 public:
  GaModel() = default;
  GaModel(const GaModel&) = delete;
  GaModel& operator=(const GaModel&) = delete;
  GaModel(GaModel&&) = delete;
  GaModel& operator=(GaModel&&) = delete;
  virtual ~GaModel() = default;
  [[nodiscard]] virtual std::size_t genome_length() const = 0;
  // Dimensions of the kernel's level grid; empty when it renders none.
  [[nodiscard]] virtual std::vector<std::size_t> level_shape() const = 0;
  // The kernel's objectives; empty when it has one fitness.
  [[nodiscard]] virtual std::vector<ObjectiveSpec> objectives() const = 0;
  // `resume`: a snapshot of this task to continue from, or nullptr.
  virtual GaOutcome run_task(const GaSettings& settings, std::uint64_t seed, std::uint64_t task,
                             EvaluationGroup& group, const GaSnapshot* resume) const = 0;
};

// The kernel's level grid; empty when it renders none.
template <GaKernel K>
std::vector<std::size_t> level_shape_of(const K& kernel) {
  if constexpr (claims<K>(Capability::render_level)) {
    return kernel.level_shape();
  } else {
    return {};
  }
}

template <GaKernel K>
class ErasedGa final : public GaModel {
 public:
  explicit ErasedGa(const ParamSet& params) : kernel_(params) {}
  [[nodiscard]] std::size_t genome_length() const override { return kernel_.genome_length(); }
  [[nodiscard]] std::vector<std::size_t> level_shape() const override {
    return level_shape_of(kernel_);
  }
  [[nodiscard]] std::vector<ObjectiveSpec> objectives() const override {
    if constexpr (claims<K>(Capability::objectives)) {
      return kernel_.objectives();
    } else {
      return {};
    }
  }
  GaOutcome run_task(const GaSettings& settings, std::uint64_t seed, std::uint64_t task,
                     EvaluationGroup& group, const GaSnapshot* resume) const override {
    return GaRun<K>(kernel_, settings, seed, task, group).run(resume);
  }

 private:
  K kernel_;
};

// The `ga` driver as configs, kernels and the rest of the run know it (driver_list.hpp).
struct GaSpec {
  static constexpr std::string_view name = "ga";
  static constexpr std::string_view unit = "task";
  static constexpr std::string_view work_unit = "evals";
  // Its config section (`ga:`).
  static std::vector<ParamSpec> settings();
  // The driver itself (runner/drivers/ga/).
  static const Driver& driver();

  template <class K>
  static constexpr bool offered_by = claims<K>(Capability::ga);

  // What the driver holds of a kernel that offers it.
  struct Binding {
    std::vector<FieldSpec> evaluation_fields;
    std::vector<FieldSpec> validation_fields;  // empty: the kernel does not validate
    bool objectives = false;                   // the kernel claims objectives
    GenomeType genome_type = GenomeType::encoded;
    std::function<std::unique_ptr<GaModel>(const ParamSet&)> make;
  };

  template <GaKernel K>
  static Binding bind() {
    Binding binding{
        K::evaluation_fields(),
        {},
        claims<K>(Capability::objectives),
        genome_type<K>(),
        [](const ParamSet& params) { return std::unique_ptr<GaModel>(new ErasedGa<K>(params)); }};
    if constexpr (claims<K>(Capability::validate))
      binding.validation_fields = K::validation_fields();
    return binding;
  }
};

}  // namespace levelforge
