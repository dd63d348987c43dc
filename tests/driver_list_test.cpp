// The list of drivers: every driver of driver_list.hpp is found by its name, with the unit
// and work unit of its spec; the config schema and the kernels' driver lists come from the
// same list.

#include "runner/drivers/driver_list.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runner/drivers/driver.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {
namespace {

TEST(DriverList, EveryListedDriverIsFoundByItsSpecsName) {
  ASSERT_EQ(drivers().size(), driver_specs.size());
  for (std::size_t i = 0; i < driver_specs.size(); ++i) {
    const auto& spec = driver_specs[i];
    const auto* driver = find_driver(spec.name);
    ASSERT_NE(driver, nullptr) << spec.name;
    EXPECT_EQ(driver, drivers()[i]) << spec.name;
    EXPECT_EQ(driver->name(), spec.name);
    EXPECT_EQ(driver->unit(), spec.unit);
    EXPECT_EQ(driver->work_unit(), spec.work_unit);
    EXPECT_EQ(find_driver_spec(spec.name), &spec);
  }
}

TEST(DriverList, UnitsAreWhatRunsCountAndShard) {
  const auto unit_of = [](std::string_view name) {
    const auto* driver = find_driver(name);
    return std::string(driver->unit()) + "/" + std::string(driver->work_unit());
  };
  EXPECT_EQ(unit_of("ga"), "task/evals");
  EXPECT_EQ(unit_of("qd"), "task/evals");
  EXPECT_EQ(unit_of("sweep"), "task/runs");
  EXPECT_EQ(unit_of("exhaustive"), "chunk/indices");
}

TEST(DriverList, AnUnknownDriverIsNone) {
  EXPECT_EQ(find_driver_spec("annealing"), nullptr);
  EXPECT_EQ(find_driver("annealing"), nullptr);
  EXPECT_EQ(find_driver(""), nullptr);
}

TEST(DriverList, TheSchemaHasASectionPerDriver) {
  const auto schema = config_schema();
  std::set<std::string> sections;
  for (const auto& [name, settings] : schema.drivers) sections.insert(name);
  EXPECT_EQ(sections, (std::set<std::string>{"ga", "qd", "sweep", "exhaustive"}));
  EXPECT_EQ(schema.drivers.at("ga").size(), GaSpec::settings().size());
  EXPECT_EQ(schema.drivers.at("qd").size(), QdSpec::settings().size());
  EXPECT_TRUE(schema.drivers.at("sweep").empty());
}

TEST(DriverList, AKernelOffersTheDriversOfItsBindingsInTheListsOrder) {
  for (const auto& kernel : registered_kernels()) {
    std::vector<std::string> offered;
    if (kernel.binding<GaSpec>() != nullptr) offered.emplace_back("ga");
    if (kernel.binding<QdSpec>() != nullptr) offered.emplace_back("qd");
    if (kernel.binding<SweepSpec>() != nullptr) offered.emplace_back("sweep");
    if (kernel.binding<ExhaustiveSpec>() != nullptr) offered.emplace_back("exhaustive");
    EXPECT_EQ(kernel.drivers(), offered) << kernel.name;
    for (const auto& name : offered) EXPECT_TRUE(kernel.offers(name)) << kernel.name;
  }
  EXPECT_FALSE(registered_kernels().front().offers("annealing"));
}

}  // namespace
}  // namespace levelforge
