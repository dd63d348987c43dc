// The table of drivers: every driver the engine declares runs through one entry, found by
// the experiment's driver name; the config schema and the kernels' driver lists come from
// the same declarations.

#include "runner/drivers/driver_table.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "runner/engine/kernel_registry.hpp"

namespace levelforge {
namespace {

config::Experiment experiment_of(const std::string& driver) {
  config::Experiment experiment;
  experiment.driver = driver;
  return experiment;
}

TEST(DriverTable, EveryDeclaredDriverHasItsEntry) {
  ASSERT_EQ(driver_specs().size(), 4U);
  for (const auto* spec : driver_specs()) {
    const auto& driver = driver_for(experiment_of(std::string(spec->name)));
    EXPECT_EQ(&driver.spec, spec) << spec->name;
    EXPECT_NE(driver.run, nullptr);
    EXPECT_NE(driver.read_shard, nullptr);
    EXPECT_EQ(find_driver_spec(spec->name), spec);
  }
}

TEST(DriverTable, UnitsAreWhatRunsCountAndShard) {
  EXPECT_EQ(driver_spec("ga").unit, "task");
  EXPECT_EQ(driver_spec("ga").work_unit, "evals");
  EXPECT_EQ(driver_spec("qd").unit, "task");
  EXPECT_EQ(driver_spec("qd").work_unit, "evals");
  EXPECT_EQ(driver_spec("sweep").unit, "task");
  EXPECT_EQ(driver_spec("sweep").work_unit, "runs");
  EXPECT_EQ(driver_spec("exhaustive").unit, "chunk");
  EXPECT_EQ(driver_spec("exhaustive").work_unit, "indices");
}

TEST(DriverTable, AnUnknownDriverIsNoEntry) {
  EXPECT_EQ(find_driver_spec("annealing"), nullptr);
  EXPECT_THROW((void)driver_spec("annealing"), std::logic_error);
  EXPECT_THROW((void)driver_for(experiment_of("annealing")), std::logic_error);
}

TEST(DriverTable, TheSchemaHasASectionPerDriver) {
  const auto schema = config_schema();
  std::set<std::string> sections;
  for (const auto& [name, settings] : schema.drivers) sections.insert(name);
  EXPECT_EQ(sections, (std::set<std::string>{"ga", "qd", "sweep", "exhaustive"}));
  EXPECT_EQ(schema.drivers.at("ga").size(), ga_settings().size());
  EXPECT_EQ(schema.drivers.at("qd").size(), qd_settings().size());
  EXPECT_TRUE(schema.drivers.at("sweep").empty());
}

TEST(DriverTable, AKernelOffersTheDriversOfItsCapabilities) {
  for (const auto& kernel : registered_kernels()) {
    std::vector<std::string> offered;
    if (kernel.ga) offered.emplace_back("ga");
    if (kernel.qd) offered.emplace_back("qd");
    if (kernel.sweep) offered.emplace_back("sweep");
    if (kernel.exhaustive) offered.emplace_back("exhaustive");
    EXPECT_EQ(kernel.drivers(), offered) << kernel.name;
  }
}

}  // namespace
}  // namespace levelforge
