#pragma once
// Each sweep point's kernel, built once on each rank for the experiment's driver: the run's
// checks, its driver and the readers of its shards share them, since building one may cost
// (a kernel's lookup tables) and a run has many points.

#include <cstddef>
#include <memory>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/models.hpp"

namespace levelforge {

class PointModels {
 public:
  // Builds the model of `experiment.driver` for every point. A parameter combination the
  // kernel refuses (KernelError) is a config::ConfigError naming the point.
  PointModels(const config::Experiment& experiment, const KernelEntry& kernel);

  // The next point's model (a driver's add_model).
  void add(std::unique_ptr<GaModel> model) { ga_.push_back(std::move(model)); }
  void add(std::unique_ptr<QdModel> model) { qd_.push_back(std::move(model)); }
  void add(std::unique_ptr<SweepModel> model) { sweep_.push_back(std::move(model)); }
  void add(std::unique_ptr<ExhaustiveModel> model) { exhaustive_.push_back(std::move(model)); }

  // One per point, in point order; only the experiment's driver's is filled.
  [[nodiscard]] const std::vector<std::unique_ptr<GaModel>>& ga() const { return ga_; }
  [[nodiscard]] const std::vector<std::unique_ptr<QdModel>>& qd() const { return qd_; }
  [[nodiscard]] const std::vector<std::unique_ptr<SweepModel>>& sweep() const { return sweep_; }
  [[nodiscard]] const std::vector<std::unique_ptr<ExhaustiveModel>>& exhaustive() const {
    return exhaustive_;
  }

 private:
  std::vector<std::unique_ptr<GaModel>> ga_;
  std::vector<std::unique_ptr<QdModel>> qd_;
  std::vector<std::unique_ptr<SweepModel>> sweep_;
  std::vector<std::unique_ptr<ExhaustiveModel>> exhaustive_;
};

}  // namespace levelforge
