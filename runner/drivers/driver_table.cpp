#include "runner/drivers/driver_table.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

namespace {

const std::array<Driver, 4> drivers{{
    {ga_driver_spec, ga_point_facts, ga_task_datasets, run_ga_driver, ga_shard_segment},
    {qd_driver_spec, qd_point_facts, qd_task_datasets, run_qd_driver, qd_shard_segment},
    {sweep_driver_spec, sweep_point_facts, sweep_task_datasets, run_sweep_driver,
     sweep_shard_segment},
    {exhaustive_driver_spec, exhaustive_point_facts, no_task_datasets, run_exhaustive_driver,
     exhaustive_shard_segment},
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
