#include "runner/drivers/point_models.hpp"

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

std::vector<PointFacts> check_points(const config::Experiment& experiment,
                                     const KernelEntry& kernel) {
  const auto& driver = driver_for(experiment);
  std::vector<PointFacts> facts;
  facts.reserve(experiment.points.size());
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    try {
      facts.push_back(driver.point_facts(experiment, kernel, p));
    } catch (const KernelError& error) {
      throw config::ConfigError(describe_point(experiment, p) + ": " + error.what());
    }
  }
  return facts;
}

}  // namespace levelforge
