#pragma once
// Each sweep point's kernel model, built where it is needed and no longer kept: the run's
// checks build every point's model once, one at a time, and keep its PointFacts; the drivers
// build the model of the point their task belongs to. A rank holds one model at a time
// instead of one per point (3,000 points of a kernel holding 15 MB each held 45 GB on every
// rank).

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/models.hpp"

namespace levelforge {

// Builds each point's model of `experiment.driver` in turn, checks it and the point's driver
// settings, keeps its facts and frees it. A parameter combination the kernel refuses
// (KernelError) is a config::ConfigError naming the point.
std::vector<PointFacts> check_points(const config::Experiment& experiment,
                                     const KernelEntry& kernel);

// The model of the point last asked for, built when a task of another point asks. The tasks
// of a point are consecutive and ranks pull runs of consecutive tasks, so a rank builds each
// point's model about once, however costly its lookup tables.
template <class Model>
class PointModelCache {
 public:
  using Make = std::function<std::unique_ptr<Model>(const ParamSet&)>;

  // `experiment` and `make` (a KernelEntry's factory) outlive the cache.
  PointModelCache(const config::Experiment& experiment, const Make& make)
      : experiment_(experiment), make_(make) {}

  // Valid until the next call for another point. A KernelError of the kernel passes through.
  const Model& at(std::size_t point) {
    if (model_ == nullptr || point != point_) {
      model_.reset();  // before the next is built: one model at a time
      model_ = make_(experiment_.points[point].params);
      point_ = point;
    }
    return *model_;
  }

 private:
  const config::Experiment& experiment_;
  const Make& make_;
  std::size_t point_ = 0;
  std::unique_ptr<Model> model_;
};

}  // namespace levelforge
