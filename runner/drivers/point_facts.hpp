#pragma once
// What the run keeps of a sweep point once its model was built and checked: what its
// datasets are sized by. The models themselves are built again where a task needs one
// (PointModelCache), one at a time, so that a rank never holds every point's model: a kernel
// of long simulated runs may hold 15 MB, and a sweep has up to 1,000,000 points.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/engine/qd_settings.hpp"

namespace levelforge {

struct PointFacts {
  std::size_t genome_length = 0;         // ga, qd
  std::vector<std::size_t> level_shape;  // ga, qd: the level grid; empty when none is rendered
  std::vector<MeasureAxis> axes;         // qd: the kernel's measures with the point's settings
  std::uint64_t index_count = 0;         // exhaustive: the kernel's index space
  std::vector<double> centroids;         // qd with a CVT archive: cells x measures; empty: a grid
  std::vector<double> objective_reference;  // ga with objectives: the hypervolume's reference

  friend bool operator==(const PointFacts&, const PointFacts&) = default;
};

// The model of the point last asked for, built when a task of another point asks. The tasks
// of a point are consecutive and ranks pull runs of consecutive tasks, so a rank builds each
// point's model about once, however costly its lookup tables.
template <class Model>
class PointModelCache {
 public:
  using Make = std::function<std::unique_ptr<Model>(const ParamSet&)>;

  // `experiment` and `make` (a binding's factory) outlive the cache.
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
