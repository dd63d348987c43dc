// The spawn kernel (kernels/spawn/spawn.hpp): parameters and table errors, the metrics of
// whole runs on tables whose outcome is known by hand, and the GA genome.
#include "kernels/spawn/spawn.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tests/kernel_params.hpp"
#include "tests/spawn_tables.hpp"

namespace levelforge::kernels {
namespace {

using testing::params_with;

using testing::num;
using testing::object_node;

DataNode key(double time, double value) {
  return DataNode::map({{"time", num(time)}, {"value", num(value)}});
}

ParamValue table(DataNode node) {
  return ParamTable{std::make_shared<const DataNode>(std::move(node))};
}

Rng spawn_rng_for(std::uint64_t task) { return Rng({5, Stream::sweep_run, task, 0, 0}); }

double real_at(const Record& record, const std::string& field) {
  const auto fields = Spawn::record_fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field) {
      if (fields[i].type == FieldType::int64) {
        return static_cast<double>(std::get<std::int64_t>(record.at(i)));
      }
      return std::get<double>(record.at(i));
    }
  }
  ADD_FAILURE() << "no field " << field;
  return 0;
}

TEST(SpawnKernel, DeclaresItsParametersAndRecord) {
  const auto params = ParamSet::defaults(Spawn::parameters());
  EXPECT_EQ(params.integer("runs"), 10'000);
  EXPECT_EQ(params.integer("levels"), 50);
  EXPECT_DOUBLE_EQ(params.real("default_weight"), 1);
  EXPECT_DOUBLE_EQ(params.real("weight_increment"), 10);
  EXPECT_EQ(params.choice("recency"), "all");
  EXPECT_EQ(params.choice("wrap"), "loop");
  const auto fields = Spawn::record_fields();
  EXPECT_EQ(fields.size(), 13 + 2 * spawn::max_objects);
  EXPECT_EQ(fields[12].name, "share_0");
  EXPECT_EQ(fields[fields.size() - 2].name, "absence_15");
  EXPECT_EQ(fields.back().name, "first_run");
  EXPECT_EQ(fields.back().type, FieldType::text);
  EXPECT_EQ(fields.back().text_size, 256U);  // 64 levels of 4 hex digits
  EXPECT_EQ(Spawn::validation_fields().back().name, "validated_first_run");
}

// The document's default: no objects, constant curve 1. Nothing spawns, every level misses
// its whole difficulty, and the per-object columns are NaN.
TEST(SpawnKernel, DefaultsSpawnNothing) {
  const Spawn kernel(params_with<Spawn>({{"runs", std::int64_t{3}}}));
  auto rng = spawn_rng_for(0);
  const Record record = kernel.run(rng);
  ASSERT_EQ(record.size(), Spawn::record_fields().size());
  EXPECT_DOUBLE_EQ(real_at(record, "mean_required"), 20);
  EXPECT_DOUBLE_EQ(real_at(record, "mean_spawned"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "error_share"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "repetition"), 1);  // empty level after empty level
  EXPECT_TRUE(std::isnan(real_at(record, "share_0")));
  EXPECT_TRUE(std::isnan(real_at(record, "mean_longest_absence")));
}

TEST(SpawnKernel, RequiredDifficultyIsTheCurveTimesTheBase) {
  const auto keys = table(DataNode::list({key(0, 1), key(4, 3)}));
  const Spawn looped(params_with<Spawn>(
      {{"keyframes", keys}, {"levels", std::int64_t{6}}, {"base_difficulty", 10.0}}));
  EXPECT_EQ(looped.required(), (std::vector<double>{10, 15, 20, 25, 10, 15}));
  const Spawn clamped(params_with<Spawn>({{"keyframes", keys},
                                          {"levels", std::int64_t{6}},
                                          {"base_difficulty", 10.0},
                                          {"wrap", std::string("clamp")}}));
  EXPECT_EQ(clamped.required(), (std::vector<double>{10, 15, 20, 25, 30, 30}));
  const Spawn ping(params_with<Spawn>({{"keyframes", keys},
                                       {"levels", std::int64_t{6}},
                                       {"base_difficulty", 10.0},
                                       {"wrap", std::string("ping_pong")}}));
  EXPECT_EQ(ping.required(), (std::vector<double>{10, 15, 20, 25, 30, 25}));
}

TEST(SpawnKernel, RefusesBadTablesNamingThePlace) {
  const auto objects = table(DataNode::list(
      {object_node("orc", 5, 0, 1),
       DataNode::map(
           {{"name", DataNode::scalar("orc", "spawn/e.yaml:4:11", "params.objects[1].name")}})}));
  try {
    const Spawn kernel(params_with<Spawn>({{"objects", objects}}));
    ADD_FAILURE() << "accepted a duplicate name";
  } catch (const KernelError& error) {
    EXPECT_STREQ(error.what(),
                 "spawn/e.yaml:4:11: params.objects[1].name: duplicate object name 'orc'");
  }
  const auto unsorted = table(DataNode::list({key(5, 1), key(2, 1)}));
  EXPECT_THROW(Spawn(params_with<Spawn>({{"keyframes", unsorted}})), KernelError);
}

// One object of strength 1, ratio 1, at difficulty 1: every level holds exactly one.
TEST(SpawnKernel, OneObjectFillingEveryLevel) {
  const Spawn kernel(
      params_with<Spawn>({{"objects", table(DataNode::list({object_node("a", 1, 0, 1)}))},
                          {"base_difficulty", 1.0},
                          {"runs", std::int64_t{20}}}));
  auto rng = spawn_rng_for(1);
  const Record record = kernel.run(rng);
  EXPECT_DOUBLE_EQ(real_at(record, "mean_spawned"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "mean_abs_error"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "error_share"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "mean_types"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "entropy"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "mix_entropy"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "repetition"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "share_0"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "absence_0"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "stalled_share"), 0);
  EXPECT_TRUE(std::isnan(real_at(record, "share_1")));
}

// Two objects of strength 1 with cap floor(2 * 0.5) = 1 at difficulty 2: both in every level,
// one each: entropy 1 bit per level, shares 1/2.
TEST(SpawnKernel, TwoObjectsSharingEveryLevel) {
  const Spawn kernel(params_with<Spawn>(
      {{"objects",
        table(DataNode::list({object_node("a", 1, 0, 0.5), object_node("b", 1, 0, 0.5)}))},
       {"base_difficulty", 2.0},
       {"runs", std::int64_t{20}}}));
  auto rng = spawn_rng_for(2);
  const Record record = kernel.run(rng);
  EXPECT_DOUBLE_EQ(real_at(record, "mean_types"), 2);
  EXPECT_DOUBLE_EQ(real_at(record, "entropy"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "mix_entropy"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "share_0"), 0.5);
  EXPECT_GE(real_at(record, "mean_draws"), 2);  // a quantity-0 draw is a draw too
}

// Required 1, 2, 3, 4, 5 (clamped ramp). "b" is eligible from level 2 (min difficulty 3) but
// never fits (strength 100): its longest absence is levels 2..4, 3 levels. "a" fills every
// level: absence 0. No level stalls (b has cap 0 but does not fit).
TEST(SpawnKernel, LongestAbsenceCountsFromEligibility) {
  const auto keys = table(DataNode::list({key(0, 1), key(4, 5)}));
  const Spawn kernel(params_with<Spawn>(
      {{"objects", table(DataNode::list({object_node("a", 1, 0, 1), object_node("b", 100, 3, 1),
                                         object_node("c", 1, 99, 1)}))},
       {"keyframes", keys},
       {"wrap", std::string("clamp")},
       {"base_difficulty", 1.0},
       {"levels", std::int64_t{5}},
       {"runs", std::int64_t{10}}}));
  auto rng = spawn_rng_for(3);
  const Record record = kernel.run(rng);
  EXPECT_DOUBLE_EQ(real_at(record, "absence_0"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "absence_1"), 3);
  EXPECT_TRUE(std::isnan(real_at(record, "absence_2")));  // never eligible
  EXPECT_DOUBLE_EQ(real_at(record, "mean_longest_absence"), 1.5);
  EXPECT_DOUBLE_EQ(real_at(record, "max_longest_absence"), 3);
  EXPECT_DOUBLE_EQ(real_at(record, "mean_required"), 3);
  EXPECT_DOUBLE_EQ(real_at(record, "stalled_share"), 0);
  EXPECT_DOUBLE_EQ(real_at(record, "share_0"), 1);
}

// "z" (strength 2, ratio 0.1) has cap floor(10 / 2 * 0.1) = 0 at difficulty 10; "a" (cap 5)
// leaves at least 5, so z always fits afterwards: the document's rule would hang on every
// level.
TEST(SpawnKernel, CountsTheLevelsTheDocumentsRuleNeverEnds) {
  const Spawn kernel(params_with<Spawn>(
      {{"objects",
        table(DataNode::list({object_node("a", 1, 0, 0.5), object_node("z", 2, 0, 0.1)}))},
       {"base_difficulty", 10.0},
       {"runs", std::int64_t{10}}}));
  auto rng = spawn_rng_for(4);
  const Record record = kernel.run(rng);
  EXPECT_DOUBLE_EQ(real_at(record, "stalled_share"), 1);
  EXPECT_DOUBLE_EQ(real_at(record, "share_1"), 0);
}

std::string text_at(const Record& record, const std::string& field) {
  const auto fields = Spawn::record_fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field) return std::get<std::string>(record.at(i));
  }
  ADD_FAILURE() << "no field " << field;
  return {};
}

TEST(SpawnKernel, FormatsLevelsAsFourHexDigitsEach) {
  const std::vector<spawn::Mask> present = {0x0001, 0x8000, 0x00a5, 0, 0xffff};
  EXPECT_EQ(spawn::format_levels(present), "0001800000a50000ffff");
  EXPECT_EQ(spawn::format_levels({}), "");
}

// Required 10, 20, 30, 30, 30 (clamped ramp). "a" is eligible everywhere, "b" from 15 and
// "c" (table position 13, bit 0x2000) from 25; positions 2..12 are never eligible. The caps
// (a: floor(D / 10), b: 1 from D = 20, c: 1 at D = 30) spend at most 9 of each level's
// difficulty, so every candidate stays until it spawns: the levels hold {a}, {a, b},
// {a, b, c} three times, in every run.
TEST(SpawnKernel, FirstRunRecordsTheObjectsOfEachLevel) {
  std::vector<DataNode> objects = {object_node("a", 1, 0, 0.1), object_node("b", 2, 15, 0.1)};
  for (int i = 2; i <= 12; ++i) objects.push_back(object_node(std::to_string(i), 1, 99, 1));
  objects.push_back(object_node("c", 4, 25, 0.2));
  const Spawn kernel(
      params_with<Spawn>({{"objects", table(DataNode::list(objects))},
                          {"keyframes", table(DataNode::list({key(0, 1), key(2, 3)}))},
                          {"wrap", std::string("clamp")},
                          {"base_difficulty", 10.0},
                          {"levels", std::int64_t{5}},
                          {"runs", std::int64_t{7}}}));
  auto rng = spawn_rng_for(11);
  const Record record = kernel.run(rng);
  EXPECT_EQ(text_at(record, "first_run"), "00010003200320032003");
  EXPECT_DOUBLE_EQ(real_at(record, "mean_types"), (1 + 2 + 3 * 3) / 5.0);
  // The validation records its first run the same way; the genome holds the table's ratios
  // (a and b 0.1, c 0.2; 1 for the never eligible).
  Spawn::Genome genome(kernel.genome_length(), 1.0);
  genome[0] = 10;
  genome[1] = 0.5;
  genome[2] = genome[3] = 0.1;
  genome.back() = 0.2;
  const Record validated = kernel.validate(genome, rng);
  ASSERT_EQ(validated.size(), Spawn::validation_fields().size());
  EXPECT_EQ(std::get<std::string>(validated.back()), "00010003200320032003");
}

// first_run is the first run of the same simulation: the other fields are what the
// simulator measures on the same stream, and it holds the first 64 levels of a longer run.
TEST(SpawnKernel, FirstRunLeavesTheMetricsAlone) {
  const Spawn kernel(params_with<Spawn>(
      {{"objects", table(DataNode::list({object_node("a", 1, 0, 0.5), object_node("b", 3, 5, 0.5),
                                         object_node("c", 7, 10, 0.5)}))},
       {"levels", std::int64_t{80}},
       {"runs", std::int64_t{30}}}));
  auto rng = spawn_rng_for(12);
  const Record record = kernel.run(rng);
  auto same = spawn_rng_for(12);
  const spawn::Metrics m = kernel.simulator().measure(30, same);
  EXPECT_EQ(real_at(record, "error_share"), m.error_share);
  EXPECT_EQ(real_at(record, "repetition"), m.repetition);
  EXPECT_EQ(real_at(record, "entropy"), m.entropy);
  EXPECT_EQ(real_at(record, "share_2"), m.share[2]);
  auto first = spawn_rng_for(12);
  spawn::Tally tally;
  std::vector<spawn::Mask> present(80);
  kernel.simulator().run(first, tally, present);
  const std::string text = text_at(record, "first_run");
  ASSERT_EQ(text.size(), 256U);
  EXPECT_EQ(text, spawn::format_levels(std::span(present).first(64)));
  EXPECT_NE(text, std::string(256, '0'));
}

// Records equal value for value, NaN equal to NaN (the unused per-object columns).
bool same_record(const Record& a, const Record& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].index() != b[i].index()) return false;
    const auto* x = std::get_if<double>(&a[i]);
    const auto* y = std::get_if<double>(&b[i]);
    const bool equal =
        x != nullptr ? (*x == *y || (std::isnan(*x) && std::isnan(*y))) : a[i] == b[i];
    if (!equal) return false;
  }
  return true;
}

TEST(SpawnKernel, RunsAreAFunctionOfTheStream) {
  const Spawn kernel(params_with<Spawn>(
      {{"objects", table(DataNode::list({object_node("a", 1, 0, 0.5), object_node("b", 3, 5, 0.5),
                                         object_node("c", 7, 10, 0.5)}))},
       {"runs", std::int64_t{50}}}));
  auto first = spawn_rng_for(9);
  auto again = spawn_rng_for(9);
  auto other = spawn_rng_for(10);
  const Record record = kernel.run(first);
  EXPECT_TRUE(same_record(record, kernel.run(again)));
  EXPECT_FALSE(same_record(record, kernel.run(other)));
}

// ------------------------------------------------------------------------------------- ga

const Spawn& ga_kernel() {
  static const Spawn kernel(params_with<Spawn>(
      {{"objects", table(DataNode::list({object_node("a", 1, 0, 0.5), object_node("b", 3, 5, 0.5),
                                         object_node("c", 7, 10, 0.5)}))},
       {"recency", std::string("decay")},
       {"runs", std::int64_t{20}},
       {"max_increment", 50.0}}));
  return kernel;
}

TEST(SpawnGa, GenomesStayInTheirRanges) {
  const Spawn& kernel = ga_kernel();
  EXPECT_EQ(kernel.genome_length(), 5U);
  auto rng = spawn_rng_for(20);
  for (int i = 0; i < 200; ++i) {
    auto genome = kernel.random_genome(rng);
    kernel.mutate(genome, 1.0, rng);
    ASSERT_EQ(genome.size(), 5U);
    EXPECT_GE(genome[0], 0);
    EXPECT_LE(genome[0], 50);  // max_increment
    for (std::size_t g = 1; g < genome.size(); ++g) {
      EXPECT_GE(genome[g], 0);
      EXPECT_LE(genome[g], 1);
    }
  }
}

TEST(SpawnGa, CrossoverTakesEachGeneFromAParentAndRateZeroKeepsAGenome) {
  const Spawn& kernel = ga_kernel();
  auto rng = spawn_rng_for(21);
  const Spawn::Genome a = {1, 2, 3, 4, 5};
  const Spawn::Genome b = {10, 20, 30, 40, 50};
  const auto [x, y] = kernel.crossover(a, b, rng);
  for (std::size_t g = 0; g < a.size(); ++g) {
    EXPECT_TRUE((x[g] == a[g] && y[g] == b[g]) || (x[g] == b[g] && y[g] == a[g])) << g;
  }
  auto kept = a;
  kernel.mutate(kept, 0.0, rng);
  EXPECT_EQ(kept, a);
}

TEST(SpawnGa, EncodesAndDecodesTheGenome) {
  const Spawn& kernel = ga_kernel();
  const Spawn::Genome genome = {12.5, 0.5, 1, 0.25, 0};
  std::vector<std::int64_t> stored(kernel.genome_length());
  kernel.encode(genome, stored);
  EXPECT_EQ(kernel.decode(stored), genome);
  EXPECT_EQ(kernel.bounds()[0].high, 50);  // max_increment
  const auto simulator = kernel.simulator_for(genome);
  EXPECT_DOUBLE_EQ(simulator.selector().rules().weight_increment, 12.5);
  EXPECT_DOUBLE_EQ(simulator.selector().rules().decay, 0.5);
  // ratio 0 for "c": never a candidate.
  for (const auto& plan : simulator.plans()) EXPECT_EQ(plan.candidates & 0b100U, 0U);
  stored[1] = std::bit_cast<std::int64_t>(1.0001);
  EXPECT_THROW((void)kernel.decode(stored), KernelError);
  stored[1] = std::bit_cast<std::int64_t>(std::numeric_limits<double>::quiet_NaN());
  EXPECT_THROW((void)kernel.decode(stored), KernelError);
  EXPECT_THROW((void)kernel.decode(std::vector<std::int64_t>(4, 0)), KernelError);
}

TEST(SpawnGa, FitnessRewardsVarietyWithinTheErrorBound) {
  const Spawn& kernel = ga_kernel();
  auto rng = spawn_rng_for(22);
  // Ratios 1: the budget is filled, error small: fitness 1 - repetition.
  const auto good = kernel.evaluate({10, 0.5, 1, 1, 1}, rng);
  const double error = std::get<double>(good.record[2]);
  const double repetition = std::get<double>(good.record[3]);
  ASSERT_LE(error, 0.1);
  EXPECT_DOUBLE_EQ(good.fitness, 1 - repetition);
  EXPECT_DOUBLE_EQ(std::get<double>(good.record[0]), 10);
  // Ratios 0: nothing spawns, error share 1: fitness -(1 - 0.1).
  const auto empty = kernel.evaluate({10, 0.5, 0, 0, 0}, rng);
  EXPECT_DOUBLE_EQ(empty.fitness, -0.9);
  EXPECT_EQ(kernel.validate({10, 0.5, 0, 0, 0}, rng).size(), Spawn::validation_fields().size());
}

// ------------------------------------------------------------------------- qd measures

// The table of LongestAbsenceCountsFromEligibility under the GA: required 1, 2, 3, 4, 5;
// "a" (strength 1) fits every level, "b" (strength 100, eligible from level 2) never fits,
// "c" is never eligible. So at most 1 type can appear per level.
const Spawn& spawn_ramp_kernel() {
  static const Spawn kernel(params_with<Spawn>(
      {{"objects", table(DataNode::list({object_node("a", 1, 0, 1), object_node("b", 100, 3, 1),
                                         object_node("c", 1, 99, 1)}))},
       {"keyframes", table(DataNode::list({key(0, 1), key(4, 5)}))},
       {"wrap", std::string("clamp")},
       {"base_difficulty", 1.0},
       {"levels", std::int64_t{5}},
       {"recency", std::string("decay")},
       {"runs", std::int64_t{10}}}));
  return kernel;
}

TEST(SpawnMeasures, HandComputedTypesAndAbsences) {
  const Spawn& kernel = spawn_ramp_kernel();
  const auto specs = kernel.measures();
  ASSERT_EQ(specs.size(), 2U);
  EXPECT_EQ(specs[0].name, "mean_types");
  EXPECT_EQ(specs[0].high, 1);  // "a" on each of the 5 levels, nothing else fits
  EXPECT_EQ(specs[1].name, "mean_longest_absence");
  EXPECT_EQ(specs[1].high, 2.5);  // half the levels
  auto rng = spawn_rng_for(30);
  // Ratios 1: every level holds "a" (1 type); absences a 0, b 3 (levels 2..4): mean 1.5.
  const Spawn::Genome every_level = {10, 0.5, 1, 1, 1};
  EXPECT_EQ(kernel.measure(every_level, kernel.evaluate(every_level, rng)),
            (std::vector<double>{1, 1.5}));
  // "a" at ratio 0 never spawns: no type on any level; absences a 5, b 3: mean 4.
  const Spawn::Genome nothing = {10, 0.5, 0, 1, 1};
  EXPECT_EQ(kernel.measure(nothing, kernel.evaluate(nothing, rng)), (std::vector<double>{0, 4}));
}

TEST(SpawnMeasures, RangesFollowTheTableAndNoEligibleObjectIsNoAbsence) {
  // Required 10 on every level: "a" and "b" can appear, "c" is too strong (20 > 10) and "d"
  // never eligible (50 > 10): at most 2 types.
  const Spawn kernel(params_with<Spawn>(
      {{"objects", table(DataNode::list({object_node("a", 1, 0, 0.5), object_node("b", 4, 5, 0.5),
                                         object_node("c", 20, 0, 1), object_node("d", 1, 50, 1)}))},
       {"base_difficulty", 10.0},
       {"levels", std::int64_t{8}},
       {"runs", std::int64_t{5}}}));
  EXPECT_EQ(kernel.measures()[0].high, 2);
  EXPECT_EQ(kernel.measures()[1].high, 4);

  // Only a never-eligible object: mean_longest_absence is NaN in the record, 0 as a measure
  // (the qd driver refuses NaN); the range of types is at least [0, 1].
  const Spawn never(
      params_with<Spawn>({{"objects", table(DataNode::list({object_node("d", 1, 50, 1)}))},
                          {"base_difficulty", 10.0},
                          {"levels", std::int64_t{8}},
                          {"runs", std::int64_t{5}}}));
  EXPECT_EQ(never.measures()[0].high, 1);
  auto rng = spawn_rng_for(31);
  const Spawn::Genome genome = {10, 0.5, 1};
  const auto evaluation = never.evaluate(genome, rng);
  ASSERT_TRUE(std::isnan(std::get<double>(evaluation.record[6])));
  EXPECT_EQ(never.measure(genome, evaluation), (std::vector<double>{0, 0}));
}

TEST(SpawnMeasures, RandomGenomesMeasureInRange) {
  const Spawn& kernel = ga_kernel();  // a, b, c all fit the constant difficulty 20
  const auto specs = kernel.measures();
  ASSERT_EQ(specs.size(), 2U);
  EXPECT_EQ(specs[0].high, 3);
  EXPECT_EQ(specs[1].high, 25);
  double least_types = 3;
  double most_types = 0;
  int absences_in_range = 0;
  for (int i = 0; i < 200; ++i) {
    auto rng = spawn_rng_for(400 + static_cast<std::uint64_t>(i));
    const auto genome = kernel.random_genome(rng);
    const auto evaluation = kernel.evaluate(genome, rng);
    const auto values = kernel.measure(genome, evaluation);
    ASSERT_EQ(values.size(), specs.size());
    // Types never leave their range; an absence lies in [0, levels], and beyond levels / 2
    // (objects that a small ratio keeps out of every level) in the last cell.
    EXPECT_GE(values[0], specs[0].low);
    EXPECT_LE(values[0], specs[0].high);
    EXPECT_GE(values[1], specs[1].low);
    EXPECT_LE(values[1], 50);
    absences_in_range += values[1] <= specs[1].high ? 1 : 0;
    EXPECT_EQ(values[0], std::get<double>(evaluation.record[4]));
    EXPECT_EQ(values[1], std::get<double>(evaluation.record[6]));
    least_types = std::min(least_types, values[0]);
    most_types = std::max(most_types, values[0]);
  }
  EXPECT_GT(most_types - least_types, 0.5) << "the ratios move the types per level";
  EXPECT_GT(absences_in_range, 150);
}

}  // namespace
}  // namespace levelforge::kernels
