#include "runner/engine/kernel_registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kernels/testing/onemax.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/engine/describe_kernel.hpp"
#include "tests/error_message.hpp"
#include "tests/solo_group.hpp"

namespace levelforge {
namespace {

const KernelEntry& entry(std::string_view name) {
  const auto* found = find_kernel(name);
  if (found == nullptr) throw std::runtime_error("kernel not registered: " + std::string(name));
  return *found;
}

std::vector<std::string> names_of(const std::vector<ParamSpec>& specs) {
  std::vector<std::string> names;
  names.reserve(specs.size());
  for (const auto& spec : specs) names.push_back(spec.name);
  return names;
}

std::vector<std::string> names_of(const std::vector<FieldSpec>& fields) {
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (const auto& field : fields) names.push_back(field.name);
  return names;
}

template <class T>
bool within(const ParamSpec& spec) {
  const auto* value = std::get_if<T>(&spec.default_value);
  if (value == nullptr || !spec.min || !spec.max) return false;
  const auto* low = std::get_if<T>(&*spec.min);
  const auto* high = std::get_if<T>(&*spec.max);
  return low != nullptr && high != nullptr && *low <= *value && *value <= *high;
}

// Each default has the declared type and lies within the declared range or choices.
void expect_defaults_valid(const std::vector<ParamSpec>& specs, const std::string& owner) {
  std::set<std::string> seen;
  for (const auto& spec : specs) {
    const auto where = owner + "." + spec.name;
    EXPECT_TRUE(seen.insert(spec.name).second) << where << " declared twice";
    EXPECT_FALSE(spec.name.empty()) << owner;
    EXPECT_FALSE(spec.doc.empty()) << where << " has no doc";
    switch (spec.type) {
      case ParamType::integer:
        EXPECT_TRUE(within<std::int64_t>(spec)) << where << " default outside its range";
        break;
      case ParamType::real:
        EXPECT_TRUE(within<double>(spec)) << where << " default outside its range";
        break;
      case ParamType::boolean:
        EXPECT_TRUE(std::holds_alternative<bool>(spec.default_value)) << where;
        EXPECT_FALSE(spec.min.has_value()) << where;
        EXPECT_FALSE(spec.max.has_value()) << where;
        break;
      case ParamType::choice: {
        const auto* value = std::get_if<std::string>(&spec.default_value);
        ASSERT_NE(value, nullptr) << where;
        EXPECT_NE(std::find(spec.choices.begin(), spec.choices.end(), *value), spec.choices.end())
            << where << " default is not one of its choices";
        EXPECT_EQ(std::set<std::string>(spec.choices.begin(), spec.choices.end()).size(),
                  spec.choices.size())
            << where << " repeats a choice";
        break;
      }
      case ParamType::text: {
        const auto* value = std::get_if<std::string>(&spec.default_value);
        ASSERT_NE(value, nullptr) << where;
        EXPECT_FALSE(value->empty()) << where << " default is empty";
        break;
      }
      case ParamType::table:
        EXPECT_TRUE(std::holds_alternative<ParamTable>(spec.default_value)) << where;
        EXPECT_FALSE(spec.min.has_value()) << where;
        break;
    }
  }
}

ParamSet with(const KernelEntry& kernel, const std::string& name, std::int64_t value) {
  auto params = ParamSet::defaults(kernel.params);
  params.set(name, ParamValue{value});
  return params;
}

// ---------------------------------------------------------------- the registry

TEST(KernelRegistry, RegistersTheTestKernelsWithTheirDrivers) {
  EXPECT_EQ(entry("onemax").drivers(), (std::vector<std::string>{"ga", "qd", "sweep"}));
  EXPECT_EQ(entry("collatz").drivers(), (std::vector<std::string>{"sweep", "exhaustive"}));
  EXPECT_EQ(entry("faulty").drivers(), (std::vector<std::string>{"ga", "sweep", "exhaustive"}));
}

// LEVELFORGE_REGISTER_KERNEL's entry for a kernel built out of the tree is the registry's own.
TEST(KernelRegistry, DescribeMakesTheEntryTheRegistryHolds) {
  const KernelEntry described = describe<kernels::OneMax>();
  const KernelEntry& registered = entry("onemax");
  EXPECT_EQ(described.name, registered.name);
  EXPECT_EQ(described.summary, registered.summary);
  EXPECT_EQ(described.drivers(), registered.drivers());
  ASSERT_EQ(described.params.size(), registered.params.size());
  for (std::size_t i = 0; i < described.params.size(); ++i)
    EXPECT_EQ(described.params[i].name, registered.params[i].name);
  EXPECT_EQ(static_cast<bool>(described.memory_estimate),
            static_cast<bool>(registered.memory_estimate));
  EXPECT_FALSE(described.puzzle.has_value());
}

// A kernel added once the registry is read would be missing from it: refused, not dropped.
TEST(KernelRegistry, KernelsAddedAfterTheRegistryWasReadAreRefused) {
  EXPECT_FALSE(registered_kernels().empty());
  KernelEntry late;
  late.name = "late";
  const auto message =
      testing::error_message<std::logic_error>([&] { add_kernel(std::move(late), "tests"); });
  EXPECT_NE(message.find("kernel 'late' added after the registry was read"), std::string::npos)
      << message;
  EXPECT_EQ(find_kernel("late"), nullptr);
}

TEST(KernelRegistry, NamesAreUniqueAndEveryKernelServesADriver) {
  std::set<std::string> names;
  for (const auto& kernel : registered_kernels()) {
    EXPECT_TRUE(names.insert(kernel.name).second) << kernel.name << " registered twice";
    EXPECT_FALSE(kernel.summary.empty()) << kernel.name;
    EXPECT_FALSE(kernel.drivers().empty()) << kernel.name;
  }
  EXPECT_GE(names.size(), 3U);
}

// Listed by name, whatever order the linker gave the registering objects' initializers.
TEST(KernelRegistry, KernelsAreListedByName) {
  std::vector<std::string> names;
  for (const auto& kernel : registered_kernels()) names.push_back(kernel.name);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(names.front(), "collatz");
  EXPECT_EQ(names.back(), "zdt");
}

// Each built-in kernel's code is its own folder's (and kernels/api's), set by the source
// levelforge_kernel_code generated into its registration library: the test kernels share
// kernels/testing, the games each have their own; a run's identity names its kernel's.
TEST(KernelRegistry, EveryKernelHasTheCodeIdentityOfItsFolder) {
  std::set<std::string> game_sources;
  for (const auto& kernel : registered_kernels()) {
    EXPECT_TRUE(kernel.code.sources.starts_with("sha256:")) << kernel.name;
    EXPECT_EQ(kernel.code.sources.size(), std::string("sha256:").size() + 16) << kernel.name;
    EXPECT_EQ(kernel.code.version, "0.1.0") << kernel.name;
    EXPECT_EQ(kernel.code.identity(), "sources " + kernel.code.sources + ", version 0.1.0");
    const bool test_kernel = kernel.name == "onemax" || kernel.name == "collatz" ||
                             kernel.name == "faulty" || kernel.name == "sphere" ||
                             kernel.name == "zdt";
    if (!test_kernel) {
      EXPECT_TRUE(game_sources.insert(kernel.code.sources).second) << kernel.name;
    }
  }
  EXPECT_EQ(find_kernel("onemax")->code.sources, find_kernel("faulty")->code.sources);
  EXPECT_EQ(find_kernel("onemax")->code.sources, find_kernel("sphere")->code.sources);
  EXPECT_EQ(game_sources.size(), 5U);
  EXPECT_EQ(find_kernel("match3")->code.sources,
            kernel_code("levelforge_match3_registration").sources);
  EXPECT_EQ(kernel_code("no such library").sources, "unknown");
}

TEST(KernelRegistry, EveryParameterDefaultLiesInsideItsDeclaredRange) {
  for (const auto& kernel : registered_kernels()) expect_defaults_valid(kernel.params, kernel.name);
}

TEST(KernelRegistry, EveryDriverSettingDefaultLiesInsideItsDeclaredRange) {
  expect_defaults_valid(GaSpec::settings(), "ga");
  expect_defaults_valid(ExhaustiveSpec::settings(), "exhaustive");
}

TEST(KernelRegistry, FindKernelByName) {
  EXPECT_EQ(find_kernel("nope"), nullptr);
  EXPECT_EQ(find_kernel(""), nullptr);
  EXPECT_EQ(find_kernel("OneMax"), nullptr);  // names are case-sensitive
  const auto* onemax = find_kernel("onemax");
  ASSERT_NE(onemax, nullptr);
  EXPECT_EQ(onemax->name, "onemax");
  // The same entry as in the list, not a copy.
  EXPECT_EQ(onemax, &*std::find_if(registered_kernels().begin(), registered_kernels().end(),
                                   [](const KernelEntry& e) { return e.name == "onemax"; }));
}

TEST(KernelRegistry, CapabilitiesCarryTheKernelDeclarations) {
  const auto& onemax = entry("onemax");
  ASSERT_NE(onemax.binding<GaSpec>(), nullptr);
  EXPECT_EQ(names_of(onemax.binding<GaSpec>()->evaluation_fields),
            (std::vector<std::string>{"ones"}));
  EXPECT_FALSE((onemax.binding<ExhaustiveSpec>() != nullptr));
  const auto& collatz = entry("collatz");
  EXPECT_EQ(collatz.binding<GaSpec>(), nullptr);
  ASSERT_TRUE((collatz.binding<ExhaustiveSpec>() != nullptr));
  ASSERT_EQ(collatz.binding<ExhaustiveSpec>()->reductions.size(), 3U);
  EXPECT_EQ(collatz.binding<ExhaustiveSpec>()->reductions[0].kind, ReductionKind::count);
  EXPECT_EQ(collatz.binding<ExhaustiveSpec>()->reductions[1].kind, ReductionKind::histogram);
  EXPECT_EQ(collatz.binding<ExhaustiveSpec>()->reductions[2].kind, ReductionKind::top_k);
  EXPECT_EQ(names_of(collatz.binding<ExhaustiveSpec>()->solutions.fields()),
            (std::vector<std::string>{"n", "steps"}));
  ASSERT_NE(collatz.binding<SweepSpec>(), nullptr);
  EXPECT_EQ(names_of(collatz.binding<SweepSpec>()->record_fields),
            (std::vector<std::string>{"n", "steps", "peak"}));
}

// ---------------------------------------------------------------- the config schema

TEST(ConfigSchema, ListsEveryKernelWithItsParametersAndDrivers) {
  const auto schema = config_schema();
  EXPECT_EQ(schema.kernels.size(), registered_kernels().size());
  for (const auto& kernel : registered_kernels()) {
    const auto found = schema.kernels.find(kernel.name);
    ASSERT_NE(found, schema.kernels.end()) << kernel.name;
    EXPECT_EQ(names_of(found->second.params), names_of(kernel.params)) << kernel.name;
    EXPECT_EQ(found->second.drivers, kernel.drivers()) << kernel.name;
  }
  EXPECT_EQ(schema.kernels.at("collatz").drivers,
            (std::vector<std::string>{"sweep", "exhaustive"}));
}

TEST(ConfigSchema, HasTheFourDriverSections) {
  const auto schema = config_schema();
  EXPECT_EQ(schema.drivers.size(), 4U);
  ASSERT_EQ(schema.drivers.count("ga"), 1U);
  ASSERT_EQ(schema.drivers.count("qd"), 1U);
  ASSERT_EQ(schema.drivers.count("sweep"), 1U);
  ASSERT_EQ(schema.drivers.count("exhaustive"), 1U);
  EXPECT_EQ(names_of(schema.drivers.at("ga")), names_of(GaSpec::settings()));
  EXPECT_TRUE(schema.drivers.at("sweep").empty());
  EXPECT_EQ(names_of(schema.drivers.at("exhaustive")),
            (std::vector<std::string>{"begin", "end", "chunk"}));
  const auto ga = names_of(schema.drivers.at("ga"));
  for (const char* name :
       {"population", "generations", "tournament", "crossover_rate", "mutation_rate", "elitism",
        "stop_fitness", "keep_best", "ranks_per_task"}) {
    EXPECT_NE(std::find(ga.begin(), ga.end(), name), ga.end()) << name;
  }
}

// ---------------------------------------------------------------- the factories

TEST(KernelFactories, GaModelGenomeLengthIsTheLengthParameter) {
  const auto& onemax = entry("onemax");
  const auto model = onemax.binding<GaSpec>()->make(with(onemax, "length", 17));
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->genome_length(), 17U);
  EXPECT_EQ(onemax.binding<GaSpec>()->make(ParamSet::defaults(onemax.params))->genome_length(),
            64U);
}

TEST(KernelFactories, GaModelRunsATask) {
  const auto& onemax = entry("onemax");
  const auto model = onemax.binding<GaSpec>()->make(with(onemax, "length", 12));
  const GaSettings settings{8, 3, 2, 0.9, 0.05, 1, false, std::numeric_limits<double>::infinity(),
                            2, 0};
  testing::SoloGroup group;
  const auto outcome = model->run_task(settings, 1, 0, group, nullptr);
  EXPECT_EQ(outcome.generations_run, 3U);
  EXPECT_EQ(outcome.evaluations, 8U + 2U * 7U);
  EXPECT_EQ(group.total(), outcome.evaluations);
  EXPECT_EQ(outcome.best_genomes.size(), 2U * 12U);
}

TEST(KernelFactories, ExhaustiveModelIndexCountIsTheCountParameter) {
  const auto& collatz = entry("collatz");
  EXPECT_EQ(collatz.binding<ExhaustiveSpec>()->make(with(collatz, "count", 123))->index_count(),
            123U);
  EXPECT_EQ(
      collatz.binding<ExhaustiveSpec>()->make(ParamSet::defaults(collatz.params))->index_count(),
      1'000'000U);
  const auto& faulty = entry("faulty");
  EXPECT_EQ(faulty.binding<ExhaustiveSpec>()->make(with(faulty, "count", 77))->index_count(), 77U);
}

TEST(KernelFactories, ExhaustiveModelVisitsTheRangeWithIndices) {
  const auto& collatz = entry("collatz");
  auto params = with(collatz, "count", 100);
  params.set("solution_steps", ParamValue{std::int64_t{0}});  // every start is a solution
  const auto model = collatz.binding<ExhaustiveSpec>()->make(params);
  Reductions out(collatz.binding<ExhaustiveSpec>()->reductions,
                 &collatz.binding<ExhaustiveSpec>()->solutions);
  model->visit(5, 10, out);
  EXPECT_EQ(out.counts()[0], 5);
  ASSERT_EQ(out.solution_count(), 5U);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(out.solution_index(i), 5 + i);
    // start = 1: index i is n = i + 1.
    EXPECT_EQ(std::get<std::int64_t>(out.solution_record(i)[0]), static_cast<std::int64_t>(6 + i));
  }
  model->visit(10, 10, out);  // empty range
  EXPECT_EQ(out.counts()[0], 5);
}

// matchstick offers its good puzzles' scores alone (top_record): its top-k table is marked
// for records on request, the entries kept have none, and the model builds each one's.
TEST(KernelFactories, ExhaustiveModelBuildsTheRecordsOfTheEntriesKept) {
  const auto& matchstick = entry("matchstick");
  const auto model =
      matchstick.binding<ExhaustiveSpec>()->make(ParamSet::defaults(matchstick.params));
  const auto& specs = matchstick.binding<ExhaustiveSpec>()->reductions;
  const auto good = static_cast<std::size_t>(
      std::find_if(specs.begin(), specs.end(),
                   [](const ReductionSpec& spec) { return spec.name == "good_puzzles"; }) -
      specs.begin());
  ASSERT_LT(good, specs.size());
  for (std::size_t r = 0; r < specs.size(); ++r)
    EXPECT_EQ(specs[r].records_on_request, r == good) << specs[r].name;
  Reductions out(specs, &matchstick.binding<ExhaustiveSpec>()->solutions);
  model->visit(1'500'000, 1'540'000, out);
  ASSERT_EQ(out.tops()[good].size(), specs[good].k);
  for (const auto& kept : out.tops()[good]) {
    ASSERT_TRUE(kept.record.empty());
    const auto record = model->top_record(good, kept.index);
    ASSERT_EQ(record.size(), specs[good].fields.size());
    EXPECT_EQ(static_cast<double>(std::get<std::int64_t>(record.back())), kept.score);
  }
}

// collatz builds its records as it offers: its table is not marked, and asking its model
// for a record is an error that names the kernel, the table and the index.
TEST(KernelFactories, ExhaustiveModelWithoutTopRecordsRefusesToBuildOne) {
  const auto& collatz = entry("collatz");
  for (const auto& spec : collatz.binding<ExhaustiveSpec>()->reductions)
    EXPECT_FALSE(spec.records_on_request);
  const auto model = collatz.binding<ExhaustiveSpec>()->make(ParamSet::defaults(collatz.params));
  const auto message = testing::error_message<KernelError>([&] { (void)model->top_record(2, 41); });
  EXPECT_NE(message.find("'collatz'"), std::string::npos) << message;
  EXPECT_NE(message.find("'longest'"), std::string::npos) << message;
  EXPECT_NE(message.find("index 41"), std::string::npos) << message;
}

TEST(KernelFactories, SweepModelsReturnTheirDeclaredRecords) {
  for (const auto& kernel : registered_kernels()) {
    if (kernel.binding<SweepSpec>() == nullptr) continue;
    const auto model = kernel.binding<SweepSpec>()->make(ParamSet::defaults(kernel.params));
    Rng rng({1, Stream::sweep_run, 0, 0, 0});
    EXPECT_EQ(model->run(rng).size(), kernel.binding<SweepSpec>()->record_fields.size())
        << kernel.name;
  }
}

// ---------------------------------------------------------------- exhaustive_range

ParamSet range_settings(std::int64_t begin, std::int64_t end) {
  auto settings = ParamSet::defaults(ExhaustiveSpec::settings());
  settings.set("begin", ParamValue{begin});
  settings.set("end", ParamValue{end});
  return settings;
}

TEST(ExhaustiveRange, DefaultsCoverTheWholeIndexSpace) {
  const auto range = exhaustive_range(ParamSet::defaults(ExhaustiveSpec::settings()), 1000);
  EXPECT_EQ(range.begin, 0U);
  EXPECT_EQ(range.end, 1000U);
}

TEST(ExhaustiveRange, ExplicitBeginAndEnd) {
  const auto range = exhaustive_range(range_settings(10, 20), 1000);
  EXPECT_EQ(range.begin, 10U);
  EXPECT_EQ(range.end, 20U);
  const auto to_default_end = exhaustive_range(range_settings(990, -1), 1000);
  EXPECT_EQ(to_default_end.begin, 990U);
  EXPECT_EQ(to_default_end.end, 1000U);
  const auto whole = exhaustive_range(range_settings(0, 1000), 1000);
  EXPECT_EQ(whole.end, 1000U);
  const auto empty = exhaustive_range(range_settings(1000, 1000), 1000);
  EXPECT_EQ(empty.begin, 1000U);
  EXPECT_EQ(empty.end, 1000U);
}

TEST(ExhaustiveRange, RejectsRangesThatDoNotFit) {
  EXPECT_THROW((void)exhaustive_range(range_settings(0, 1001), 1000), KernelError);
  EXPECT_THROW((void)exhaustive_range(range_settings(21, 20), 1000), KernelError);
  EXPECT_THROW((void)exhaustive_range(range_settings(1001, -1), 1000), KernelError);
  try {
    (void)exhaustive_range(range_settings(5, 2000), 1000);
    ADD_FAILURE() << "no KernelError";
  } catch (const KernelError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("2000"), std::string::npos) << message;
    EXPECT_NE(message.find("1000"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace levelforge
