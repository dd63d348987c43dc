#pragma once
// The `exhaustive` driver's hold on a kernel that claims the exhaustive capability: its
// reductions, its solution fields and a factory of its type-erased model.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"

namespace levelforge {

class Driver;

class ExhaustiveModel {
 public:
  ExhaustiveModel() = default;
  ExhaustiveModel(const ExhaustiveModel&) = delete;
  ExhaustiveModel& operator=(const ExhaustiveModel&) = delete;
  ExhaustiveModel(ExhaustiveModel&&) = delete;
  ExhaustiveModel& operator=(ExhaustiveModel&&) = delete;
  virtual ~ExhaustiveModel() = default;
  [[nodiscard]] virtual std::uint64_t index_count() const = 0;
  // Visits [begin, end) in increasing order.
  virtual void visit(std::uint64_t begin, std::uint64_t end, Reductions& out) const = 0;
  // The record of top-k table `id`'s entry for `index`, from a kernel that offers scores
  // alone (TopRecordKernel): the writer asks for those of the rows it writes. KernelError
  // from any other kernel.
  [[nodiscard]] virtual Record top_record(std::size_t id, std::uint64_t index) const = 0;
};

template <ExhaustiveKernel K>
class ErasedExhaustive final : public ExhaustiveModel {
 public:
  explicit ErasedExhaustive(const ParamSet& params) : kernel_(params) {}
  [[nodiscard]] std::uint64_t index_count() const override { return kernel_.index_count(); }
  void visit(std::uint64_t begin, std::uint64_t end, Reductions& out) const override {
    if constexpr (claims<K>(Capability::visit_range)) {
      kernel_.visit_range(begin, end, out);
    } else {
      for (std::uint64_t index = begin; index < end; ++index) {
        out.begin_index(index);
        kernel_.visit(index, out);
      }
    }
  }
  [[nodiscard]] Record top_record(std::size_t id, std::uint64_t index) const override {
    if constexpr (claims<K>(Capability::top_record)) {
      return kernel_.top_record(id, index);
    } else {
      throw KernelError(std::string("kernel '") + std::string(K::name) +
                        "' builds no top-k records on request (the top_record capability): "
                        "asked for table '" +
                        K::reductions().at(id).name + "', index " + std::to_string(index));
    }
  }

 private:
  K kernel_;
};

struct IndexRange {
  std::uint64_t begin;
  std::uint64_t end;
};

// The indices an exhaustive point visits: its `begin`/`end` settings within the kernel's
// index space. Throws KernelError when they do not fit.
IndexRange exhaustive_range(const ParamSet& settings, std::uint64_t index_count);

// The `exhaustive` driver as configs, kernels and the rest of the run know it (driver_list.hpp).
struct ExhaustiveSpec {
  static constexpr std::string_view name = "exhaustive";
  static constexpr std::string_view unit = "chunk";
  static constexpr std::string_view work_unit = "indices";
  // Its config section (`exhaustive:`).
  static std::vector<ParamSpec> settings();
  // The driver itself (runner/drivers/exhaustive/).
  static const Driver& driver();

  template <class K>
  static constexpr bool offered_by = claims<K>(Capability::exhaustive);

  // What the driver holds of a kernel that offers it.
  struct Binding {
    std::vector<ReductionSpec> reductions;
    RecordLayout solutions;  // the kernel's solution fields
    std::function<std::unique_ptr<ExhaustiveModel>(const ParamSet&)> make;
  };

  template <ExhaustiveKernel K>
  static Binding bind() {
    auto reductions = K::reductions();
    for (auto& spec : reductions)
      spec.records_on_request =
          claims<K>(Capability::top_record) && spec.kind == ReductionKind::top_k;
    return {std::move(reductions), RecordLayout(K::solution_fields()), [](const ParamSet& params) {
              return std::unique_ptr<ExhaustiveModel>(new ErasedExhaustive<K>(params));
            }};
  }
};

}  // namespace levelforge
