#pragma once
// The `sweep` driver's hold on a kernel that claims the sweep capability: its record fields
// and a factory of its type-erased model.

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"

namespace levelforge {

class Driver;

class SweepModel {
 public:
  SweepModel() = default;
  SweepModel(const SweepModel&) = delete;
  SweepModel& operator=(const SweepModel&) = delete;
  SweepModel(SweepModel&&) = delete;
  SweepModel& operator=(SweepModel&&) = delete;
  virtual ~SweepModel() = default;
  virtual Record run(Rng& rng) const = 0;
};

template <SweepKernel K>
class ErasedSweep final : public SweepModel {
 public:
  explicit ErasedSweep(const ParamSet& params) : kernel_(params) {}
  Record run(Rng& rng) const override { return kernel_.run(rng); }

 private:
  K kernel_;
};

// The `sweep` driver as configs, kernels and the rest of the run know it (driver_list.hpp).
struct SweepSpec {
  static constexpr std::string_view name = "sweep";
  static constexpr std::string_view unit = "task";
  static constexpr std::string_view work_unit = "runs";
  static std::vector<ParamSpec> settings() { return {}; }
  // The driver itself (runner/drivers/sweep/).
  static const Driver& driver();

  template <class K>
  static constexpr bool offered_by = claims<K>(Capability::sweep);

  // What the driver holds of a kernel that offers it.
  struct Binding {
    std::vector<FieldSpec> record_fields;
    std::function<std::unique_ptr<SweepModel>(const ParamSet&)> make;
  };

  template <SweepKernel K>
  static Binding bind() {
    return {K::record_fields(), [](const ParamSet& params) {
              return std::unique_ptr<SweepModel>(new ErasedSweep<K>(params));
            }};
  }
};

}  // namespace levelforge
