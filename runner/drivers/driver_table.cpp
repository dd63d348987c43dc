#include "runner/drivers/driver_table.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

namespace {

void no_point_checks(const config::Experiment& /*experiment*/, const PointModels& /*models*/,
                     std::size_t /*point*/) {}

const std::array<Driver, 4> drivers{{
    {ga_driver_spec,
     [](PointModels& models, const KernelEntry& kernel, const ParamSet& params) {
       models.add(kernel.ga->make(params));
     },
     check_ga_point, run_ga_driver, ga_shard_segment},
    {qd_driver_spec,
     [](PointModels& models, const KernelEntry& kernel, const ParamSet& params) {
       models.add(kernel.qd->make(params));
     },
     check_qd_point, run_qd_driver, qd_shard_segment},
    {sweep_driver_spec,
     [](PointModels& models, const KernelEntry& kernel, const ParamSet& params) {
       models.add(kernel.sweep->make(params));
     },
     no_point_checks, run_sweep_driver, sweep_shard_segment},
    {exhaustive_driver_spec,
     [](PointModels& models, const KernelEntry& kernel, const ParamSet& params) {
       models.add(kernel.exhaustive->make(params));
     },
     check_exhaustive_point, run_exhaustive_driver, exhaustive_shard_segment},
}};

}  // namespace

const Driver& driver_for(const config::Experiment& experiment) {
  const auto found = std::find_if(drivers.begin(), drivers.end(), [&](const Driver& driver) {
    return driver.spec.name == experiment.driver;
  });
  if (found == drivers.end())
    throw std::logic_error("no driver is named '" + experiment.driver + "'");
  return *found;
}

}  // namespace levelforge
