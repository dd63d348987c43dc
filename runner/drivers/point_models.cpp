#include "runner/drivers/point_models.hpp"

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

PointModels::PointModels(const config::Experiment& experiment, const KernelEntry& kernel) {
  const auto& driver = driver_for(experiment);
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    try {
      driver.add_model(*this, kernel, experiment.points[p].params);
    } catch (const KernelError& error) {
      throw config::ConfigError(describe_point(experiment, p) + ": " + error.what());
    }
  }
}

}  // namespace levelforge
