#include "runner/drivers/point_models.hpp"

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

PointModels::PointModels(const config::Experiment& experiment, const KernelEntry& kernel) {
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    const auto& params = experiment.points[p].params;
    try {
      if (experiment.driver == "ga") {
        ga_.push_back(kernel.ga->make(params));
      } else if (experiment.driver == "sweep") {
        sweep_.push_back(kernel.sweep->make(params));
      } else {
        exhaustive_.push_back(kernel.exhaustive->make(params));
      }
    } catch (const KernelError& error) {
      throw config::ConfigError(describe_point(experiment, p) + ": " + error.what());
    }
  }
}

}  // namespace levelforge
