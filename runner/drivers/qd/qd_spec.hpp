#pragma once
// The `qd` driver's hold on a kernel: a GA kernel with measures (MeasuringGaKernel), its
// evaluation and validation fields and a factory of its type-erased model.

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "runner/drivers/ga/ga_spec.hpp"
#include "runner/engine/qd_engine.hpp"

namespace levelforge {

class QdModel {
 public:
  QdModel() = default;
  QdModel(const QdModel&) = delete;
  QdModel& operator=(const QdModel&) = delete;
  QdModel(QdModel&&) = delete;
  QdModel& operator=(QdModel&&) = delete;
  virtual ~QdModel() = default;
  [[nodiscard]] virtual std::size_t genome_length() const = 0;
  // Dimensions of the kernel's level grid; empty when it renders none.
  [[nodiscard]] virtual std::vector<std::size_t> level_shape() const = 0;
  // The kernel's measures with their default ranges.
  [[nodiscard]] virtual std::vector<MeasureSpec> measures() const = 0;
  // `archive`: the point's cells (archive_cells); `resume`: a snapshot of this task to
  // continue from, or nullptr.
  virtual QdOutcome run_task(const QdSettings& settings, const ArchiveCells& archive,
                             std::uint64_t seed, std::uint64_t task, QdGroup& group,
                             const QdSnapshot* resume) const = 0;
};

template <MeasuringGaKernel K>
class ErasedQd final : public QdModel {
 public:
  explicit ErasedQd(const ParamSet& params) : kernel_(params) {}
  [[nodiscard]] std::size_t genome_length() const override { return kernel_.genome_length(); }
  [[nodiscard]] std::vector<std::size_t> level_shape() const override {
    return level_shape_of(kernel_);
  }
  [[nodiscard]] std::vector<MeasureSpec> measures() const override { return kernel_.measures(); }
  QdOutcome run_task(const QdSettings& settings, const ArchiveCells& archive, std::uint64_t seed,
                     std::uint64_t task, QdGroup& group, const QdSnapshot* resume) const override {
    return QdRun<K>(kernel_, settings, archive, seed, task, group).run(resume);
  }

 private:
  K kernel_;
};

// The `qd` driver as configs, kernels and the rest of the run know it (driver_list.hpp).
struct QdSpec {
  static constexpr std::string_view name = "qd";
  static constexpr std::string_view unit = "task";
  static constexpr std::string_view work_unit = "evals";
  // Its config section (`qd:`).
  static std::vector<ParamSpec> settings();
  // The driver itself (runner/drivers/qd/).
  static const Driver& driver();

  template <class K>
  static constexpr bool offered_by = claims<K>(Capability::measures);

  // What the driver holds of a kernel that offers it.
  struct Binding {
    std::vector<FieldSpec> evaluation_fields;
    std::vector<FieldSpec> validation_fields;  // empty: the kernel does not validate
    GenomeType genome_type = GenomeType::encoded;
    std::function<std::unique_ptr<QdModel>(const ParamSet&)> make;
  };

  template <MeasuringGaKernel K>
  static Binding bind() {
    Binding binding{K::evaluation_fields(), {}, genome_type<K>(), [](const ParamSet& params) {
                      return std::unique_ptr<QdModel>(new ErasedQd<K>(params));
                    }};
    if constexpr (claims<K>(Capability::validate))
      binding.validation_fields = K::validation_fields();
    return binding;
  }
};

}  // namespace levelforge
