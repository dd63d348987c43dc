#pragma once
// Type-erased kernels, one interface per driver, built for one sweep point. The drivers
// and the output code see only these; the templates below are the one place a kernel
// type meets them.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "runner/engine/ga_engine.hpp"
#include "runner/engine/qd_engine.hpp"

namespace levelforge {

// What the run keeps of a sweep point once its model was built and checked: what its
// datasets are sized by. The models themselves are built again where a task needs one
// (PointModelCache), one at a time, so that a rank never holds every point's model: a kernel
// of long simulated runs may hold 15 MB, and a sweep has up to 1,000,000 points.
struct PointFacts {
  std::size_t genome_length = 0;         // ga, qd
  std::vector<std::size_t> level_shape;  // ga, qd: the level grid; empty when none is rendered
  std::vector<MeasureAxis> axes;         // qd: the kernel's measures with the point's settings
  std::uint64_t index_count = 0;         // exhaustive: the kernel's index space

  friend bool operator==(const PointFacts&, const PointFacts&) = default;
};

class GaModel {
 public:
  virtual ~GaModel() = default;
  [[nodiscard]] virtual std::size_t genome_length() const = 0;
  // Dimensions of the kernel's level grid; empty when it renders none.
  [[nodiscard]] virtual std::vector<std::size_t> level_shape() const = 0;
  // `resume`: a snapshot of this task to continue from, or nullptr.
  virtual GaOutcome run_task(const GaSettings& settings, std::uint64_t seed, std::uint64_t task,
                             EvaluationGroup& group, const GaSnapshot* resume) const = 0;
};

class QdModel {
 public:
  virtual ~QdModel() = default;
  [[nodiscard]] virtual std::size_t genome_length() const = 0;
  // Dimensions of the kernel's level grid; empty when it renders none.
  [[nodiscard]] virtual std::vector<std::size_t> level_shape() const = 0;
  // The kernel's measures with their default ranges.
  [[nodiscard]] virtual std::vector<MeasureSpec> measures() const = 0;
  // `resume`: a snapshot of this task to continue from, or nullptr.
  virtual QdOutcome run_task(const QdSettings& settings, std::uint64_t seed, std::uint64_t task,
                             QdGroup& group, const QdSnapshot* resume) const = 0;
};

class SweepModel {
 public:
  virtual ~SweepModel() = default;
  virtual Record run(Rng& rng) const = 0;
};

class ExhaustiveModel {
 public:
  virtual ~ExhaustiveModel() = default;
  [[nodiscard]] virtual std::uint64_t index_count() const = 0;
  // Visits [begin, end) in increasing order.
  virtual void visit(std::uint64_t begin, std::uint64_t end, Reductions& out) const = 0;
  // The record of top-k table `id`'s entry for `index`, from a kernel that offers scores
  // alone (TopRecordKernel): the writer asks for those of the rows it writes. KernelError
  // from any other kernel.
  [[nodiscard]] virtual Record top_record(std::size_t id, std::uint64_t index) const = 0;
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
  GaOutcome run_task(const GaSettings& settings, std::uint64_t seed, std::uint64_t task,
                     EvaluationGroup& group, const GaSnapshot* resume) const override {
    return GaRun<K>(kernel_, settings, seed, task, group).run(resume);
  }

 private:
  K kernel_;
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
  QdOutcome run_task(const QdSettings& settings, std::uint64_t seed, std::uint64_t task,
                     QdGroup& group, const QdSnapshot* resume) const override {
    return QdRun<K>(kernel_, settings, seed, task, group).run(resume);
  }

 private:
  K kernel_;
};

template <SweepKernel K>
class ErasedSweep final : public SweepModel {
 public:
  explicit ErasedSweep(const ParamSet& params) : kernel_(params) {}
  Record run(Rng& rng) const override { return kernel_.run(rng); }

 private:
  K kernel_;
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

}  // namespace levelforge
