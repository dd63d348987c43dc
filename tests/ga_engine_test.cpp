#include "runner/engine/ga_engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/testing/onemax.hpp"
#include "runner/drivers/driver_list.hpp"
#include "tests/solo_group.hpp"

namespace levelforge {
namespace {

using kernels::OneMax;

using testing::SoloGroup;
using StoppingGroup = testing::StoppingGroupOf<GaSnapshot>;

GaSettings settings(std::int64_t population, std::int64_t generations, std::int64_t elitism,
                    std::int64_t keep_best,
                    double stop_fitness = std::numeric_limits<double>::infinity()) {
  return GaSettings{population, generations,  3,         0.9, 0.02, elitism,
                    false,      stop_fitness, keep_best, 0};
}

OneMax onemax(std::int64_t length) {
  auto params = ParamSet::defaults(OneMax::parameters());
  params.set("length", ParamValue{length});
  return OneMax(params);
}

struct Run {
  GaOutcome outcome;
  std::vector<std::uint64_t> reported;
  int gathers = 0;
};

Run run_onemax(const OneMax& kernel, const GaSettings& ga, std::uint64_t seed,
               std::uint64_t task = 0) {
  SoloGroup group;
  Run result;
  result.outcome = GaRun<OneMax>(kernel, ga, seed, task, group).run();
  result.reported = group.reported;
  result.gathers = group.gathers;
  return result;
}

// History columns: generation, best, mean, std, min, then OneMax's `ones`.
struct HistoryRow {
  std::int64_t generation;
  double best, mean, std, min;
  std::int64_t ones;
};

std::vector<HistoryRow> history_rows(const GaOutcome& outcome) {
  const auto layout = ga_history_layout(OneMax::evaluation_fields());
  EXPECT_EQ(outcome.history.size(), outcome.generations_run * layout.row_size());
  std::vector<HistoryRow> rows;
  for (std::size_t g = 0; g < outcome.generations_run; ++g) {
    const auto row = std::span(outcome.history).subspan(g * layout.row_size(), layout.row_size());
    rows.push_back({layout.get_int(row, 0), layout.get_real(row, 1), layout.get_real(row, 2),
                    layout.get_real(row, 3), layout.get_real(row, 4), layout.get_int(row, 5)});
  }
  return rows;
}

// ---------------------------------------------------------------- layouts and helpers

TEST(GaLayouts, ColumnsAreFixedPrefixThenKernelFields) {
  const std::vector<FieldSpec> kernel_fields{int_field("ones", ""), text_field("tag", 3, "")};
  const auto evaluation = ga_evaluation_layout(kernel_fields);
  ASSERT_EQ(evaluation.fields().size(), 3U);
  EXPECT_EQ(evaluation.fields()[0].name, "fitness");
  EXPECT_EQ(evaluation.fields()[0].type, FieldType::float64);
  EXPECT_EQ(evaluation.fields()[1].name, "ones");
  EXPECT_EQ(evaluation.row_size(), 19U);

  const auto history = ga_history_layout(kernel_fields);
  std::vector<std::string> names;
  for (const auto& field : history.fields()) names.push_back(field.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"generation", "best", "mean", "std", "min", "ones", "tag"}));
  EXPECT_EQ(history.fields()[0].type, FieldType::int64);

  const auto best = ga_best_layout(kernel_fields);
  names.clear();
  for (const auto& field : best.fields()) names.push_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"position", "fitness", "ones", "tag"}));
  EXPECT_EQ(best.fields()[0].type, FieldType::int64);
  // keep_best copies an evaluation row behind the position column.
  EXPECT_EQ(best.row_size(), 8U + evaluation.row_size());
}

TEST(Ranking, HigherFitnessFirstTiesByLowerPosition) {
  const std::vector<double> fitness{1.0, 3.0, 3.0, 2.0, 3.0, -1.0};
  EXPECT_EQ(ranking(fitness), (std::vector<std::size_t>{1, 2, 4, 3, 0, 5}));
}

TEST(Ranking, AllEqualKeepsPositionOrderAndEmptyIsEmpty) {
  const std::vector<double> equal(5, 0.5);
  EXPECT_EQ(ranking(equal), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(ranking(std::span<const double>{}).empty());
}

TEST(ShareOf, PartitionsEveryCountExactlyAndEvenly) {
  for (std::size_t size = 1; size <= 7; ++size) {
    for (std::size_t count = 0; count <= 50; ++count) {
      std::vector<int> covered(count, 0);
      std::size_t expected_begin = 0;
      for (std::size_t rank = 0; rank < size; ++rank) {
        const auto [begin, end] = share_of(count, rank, size);
        ASSERT_EQ(begin, expected_begin) << "count " << count << " rank " << rank << "/" << size;
        ASSERT_LE(begin, end);
        ASSERT_LE(end, count);
        // Balanced: every share is count / size rounded down or up.
        ASSERT_GE(end - begin, count / size);
        ASSERT_LE(end - begin, (count + size - 1) / size);
        for (std::size_t i = begin; i < end; ++i) ++covered[i];
        expected_begin = end;
      }
      ASSERT_EQ(expected_begin, count) << "count " << count << " size " << size;
      for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(covered[i], 1) << "index " << i << " count " << count << " size " << size;
      }
    }
  }
}

TEST(SummarizeGeneration, HandComputedStatisticsAndBestFieldsCopied) {
  const std::vector<FieldSpec> kernel_fields{int_field("ones", ""), text_field("tag", 3, "")};
  const auto evaluation = ga_evaluation_layout(kernel_fields);
  const auto history = ga_history_layout(kernel_fields);
  // Fitness 0.5, 1.0, 0.25, 1.0: the best is position 1 (tie with 3, lower position wins).
  const std::vector<double> fitness{0.5, 1.0, 0.25, 1.0};
  const std::vector<Record> records{{0.5, std::int64_t{10}, std::string("a")},
                                    {1.0, std::int64_t{20}, std::string("bb")},
                                    {0.25, std::int64_t{30}, std::string("ccc")},
                                    {1.0, std::int64_t{40}, std::string("d")}};
  std::vector<std::byte> rows(4 * evaluation.row_size());
  for (std::size_t i = 0; i < 4; ++i) {
    evaluation.pack(records[i],
                    std::span(rows).subspan(i * evaluation.row_size(), evaluation.row_size()),
                    "test");
  }
  std::vector<std::byte> row(history.row_size(), std::byte{0xEE});
  summarize_generation(7, fitness, rows, evaluation, history, row);

  // mean 2.75 / 4 = 0.6875; squared deviations 0.03515625 + 0.09765625 + 0.19140625 +
  // 0.09765625 = 0.421875; population variance 0.421875 / 4 = 0.10546875.
  const auto summary = history.unpack(row);
  ASSERT_EQ(summary.size(), 7U);
  EXPECT_EQ(std::get<std::int64_t>(summary[0]), 7);
  EXPECT_EQ(std::get<double>(summary[1]), 1.0);
  EXPECT_EQ(std::get<double>(summary[2]), 0.6875);
  EXPECT_DOUBLE_EQ(std::get<double>(summary[3]), std::sqrt(0.10546875));
  EXPECT_EQ(std::get<double>(summary[4]), 0.25);
  EXPECT_EQ(std::get<std::int64_t>(summary[5]), 20);
  EXPECT_EQ(std::get<std::string>(summary[6]), "bb");
}

TEST(SummarizeGeneration, SingleIndividualHasZeroStd) {
  const std::vector<FieldSpec> kernel_fields{int_field("ones", "")};
  const auto evaluation = ga_evaluation_layout(kernel_fields);
  const auto history = ga_history_layout(kernel_fields);
  const std::vector<double> fitness{0.3};
  std::vector<std::byte> rows(evaluation.row_size());
  evaluation.pack({0.3, std::int64_t{3}}, rows, "test");
  std::vector<std::byte> row(history.row_size());
  summarize_generation(0, fitness, rows, evaluation, history, row);
  EXPECT_EQ(history.unpack(row), (Record{std::int64_t{0}, 0.3, 0.3, 0.0, 0.3, std::int64_t{3}}));
}

TEST(GaSettings, FromReadsTheSectionAndRejectsElitismNotBelowPopulation) {
  auto section = ParamSet::defaults(GaSpec::settings());
  section.set("population", ParamValue{std::int64_t{10}});
  section.set("elitism", ParamValue{std::int64_t{9}});
  section.set("mutation_rate", ParamValue{0.125});
  const auto ok = GaSettings::from(section);
  EXPECT_EQ(ok.population, 10);
  EXPECT_EQ(ok.elitism, 9);
  EXPECT_EQ(ok.mutation_rate, 0.125);
  EXPECT_EQ(ok.generations, 50);
  EXPECT_EQ(ok.keep_best, 5);

  section.set("elitism", ParamValue{std::int64_t{10}});
  EXPECT_THROW((void)GaSettings::from(section), KernelError);
  section.set("elitism", ParamValue{std::int64_t{11}});
  EXPECT_THROW((void)GaSettings::from(section), KernelError);
}

// ---------------------------------------------------------------- GaRun with OneMax

TEST(GaRun, IsDeterministicForTheSameSeedAndTask) {
  const auto kernel = onemax(32);
  const auto ga = settings(24, 10, 1, 3);
  const auto a = run_onemax(kernel, ga, 42, 3);
  const auto b = run_onemax(kernel, ga, 42, 3);
  EXPECT_EQ(a.outcome.generations_run, b.outcome.generations_run);
  EXPECT_EQ(a.outcome.history, b.outcome.history);
  EXPECT_EQ(a.outcome.best, b.outcome.best);
  EXPECT_EQ(a.outcome.best_genomes, b.outcome.best_genomes);
  EXPECT_EQ(a.outcome.evaluations, b.outcome.evaluations);
}

TEST(GaRun, DifferentSeedsOrTasksGiveDifferentRuns) {
  const auto kernel = onemax(32);
  const auto ga = settings(24, 10, 1, 3);
  const auto base = run_onemax(kernel, ga, 42, 3);
  const auto other_seed = run_onemax(kernel, ga, 43, 3);
  const auto other_task = run_onemax(kernel, ga, 42, 4);
  EXPECT_NE(base.outcome.best_genomes, other_seed.outcome.best_genomes);
  EXPECT_NE(base.outcome.history, other_seed.outcome.history);
  EXPECT_NE(base.outcome.best_genomes, other_task.outcome.best_genomes);
}

TEST(GaRun, SoloGroupNeverGathersAndReportsEveryGeneration) {
  const auto kernel = onemax(16);
  const auto ga = settings(10, 6, 2, 2);
  const auto run = run_onemax(kernel, ga, 1);
  EXPECT_EQ(run.gathers, 0);
  EXPECT_EQ(run.reported, (std::vector<std::uint64_t>{10, 8, 8, 8, 8, 8}));
}

TEST(GaRun, StoppedAndResumedFromItsSnapshotEqualsTheUninterruptedRun) {
  const auto kernel = onemax(40);
  const auto ga = settings(26, 15, 2, 4);
  const auto whole = run_onemax(kernel, ga, 99, 5);
  for (const std::int64_t stop_after : {1, 7, 14}) {
    StoppingGroup stopping(stop_after);
    const auto first = GaRun<OneMax>(kernel, ga, 99, 5, stopping).run();
    ASSERT_TRUE(first.stopped) << stop_after;
    EXPECT_EQ(first.generations_run, static_cast<std::size_t>(stop_after));
    EXPECT_EQ(stopping.checked.back(), stop_after);
    EXPECT_EQ(stopping.saved.generations_run, stop_after);
    EXPECT_EQ(stopping.saved.genomes.size(), 26U * 40U);
    // 26 in generation 0, then 24 offspring per generation.
    EXPECT_EQ(stopping.saved.evaluations, 26U + 24U * static_cast<std::uint64_t>(stop_after - 1));

    SoloGroup solo;
    const auto rest = GaRun<OneMax>(kernel, ga, 99, 5, solo).run(&stopping.saved);
    EXPECT_FALSE(rest.stopped);
    EXPECT_EQ(rest.history, whole.outcome.history) << stop_after;
    EXPECT_EQ(rest.best, whole.outcome.best) << stop_after;
    EXPECT_EQ(rest.best_genomes, whole.outcome.best_genomes) << stop_after;
    EXPECT_EQ(rest.evaluations, whole.outcome.evaluations) << stop_after;
    EXPECT_EQ(rest.evaluations_before, stopping.saved.evaluations);
    EXPECT_EQ(solo.reported.size(), static_cast<std::size_t>(15 - stop_after));
  }
}

TEST(GaRun, ASnapshotOfOtherSettingsIsRefused) {
  const auto kernel = onemax(40);
  StoppingGroup stopping(3);
  (void)GaRun<OneMax>(kernel, settings(26, 15, 2, 4), 99, 5, stopping).run();
  SoloGroup solo;
  const auto bigger = settings(30, 15, 2, 4);
  EXPECT_THROW((void)GaRun<OneMax>(kernel, bigger, 99, 5, solo).run(&stopping.saved),
               std::invalid_argument);
  const auto shorter = settings(26, 3, 2, 4);
  EXPECT_THROW((void)GaRun<OneMax>(kernel, shorter, 99, 5, solo).run(&stopping.saved),
               std::invalid_argument);
}

TEST(GaRun, OneMaxReachesTheOptimum) {
  const auto kernel = onemax(32);
  const auto ga = settings(64, 80, 1, 5);
  const auto run = run_onemax(kernel, ga, 2024);
  const auto rows = history_rows(run.outcome);
  ASSERT_EQ(rows.size(), 80U);
  EXPECT_EQ(rows.back().best, 1.0);
  EXPECT_EQ(rows.back().ones, 32);
  // The random start is far from it.
  EXPECT_LT(rows.front().best, 1.0);
}

TEST(GaRun, HistoryRowsAreConsistent) {
  const auto kernel = onemax(32);
  const auto ga = settings(30, 25, 2, 5);
  const auto run = run_onemax(kernel, ga, 7);
  ASSERT_EQ(run.outcome.generations_run, 25U);
  const auto rows = history_rows(run.outcome);
  ASSERT_EQ(rows.size(), 25U);
  for (std::size_t g = 0; g < rows.size(); ++g) {
    const auto& row = rows[g];
    EXPECT_EQ(row.generation, static_cast<std::int64_t>(g));
    EXPECT_LE(row.min, row.mean) << "generation " << g;
    EXPECT_LE(row.mean, row.best) << "generation " << g;
    EXPECT_GE(row.std, 0.0) << "generation " << g;
    EXPECT_LE(row.std, (row.best - row.min) / 2 + 1e-12) << "generation " << g;
    // The best's kernel fields are copied: OneMax fitness is ones / length.
    EXPECT_EQ(static_cast<double>(row.ones) / 32.0, row.best) << "generation " << g;
    // Elitism keeps the best: it never decreases.
    if (g > 0) {
      EXPECT_GE(row.best, rows[g - 1].best) << "generation " << g;
    }
  }
}

TEST(GaRun, EvaluationCountSkipsTheElites) {
  const auto kernel = onemax(16);
  // Odd offspring count (7 - 2 = 5): the last pair contributes one child.
  const auto ga = settings(7, 9, 2, 3);
  const auto run = run_onemax(kernel, ga, 11);
  ASSERT_EQ(run.outcome.generations_run, 9U);
  EXPECT_EQ(run.outcome.evaluations, 7U + 8U * 5U);
  const auto reported = std::accumulate(run.reported.begin(), run.reported.end(), std::uint64_t{0});
  EXPECT_EQ(reported, run.outcome.evaluations);
  EXPECT_EQ(run.reported.size(), 9U);
}

TEST(GaRun, ReevaluatedElitesAreEvaluatedEveryGeneration) {
  const auto kernel = onemax(16);
  auto ga = settings(7, 9, 2, 3);
  ga.reevaluate_elites = true;
  const auto run = run_onemax(kernel, ga, 11);
  EXPECT_EQ(run.outcome.evaluations, 7U * 9U);
  EXPECT_EQ(run.reported, std::vector<std::uint64_t>(9, 7U));
  // Same seed, elites kept: a different run, since the elites' evaluations are not redrawn.
  const auto kept = run_onemax(kernel, settings(7, 9, 2, 3), 11);
  EXPECT_EQ(kept.outcome.evaluations, 7U + 8U * 5U);
}

TEST(GaRun, StopFitnessStopsAfterTheFirstGenerationThatReachesIt) {
  const auto kernel = onemax(32);
  const double stop = 0.8;
  const auto ga = settings(40, 200, 1, 3, stop);
  const auto run = run_onemax(kernel, ga, 5);
  const auto rows = history_rows(run.outcome);
  ASSERT_FALSE(rows.empty());
  EXPECT_LT(run.outcome.generations_run, 200U);
  EXPECT_GE(rows.back().best, stop);
  for (std::size_t g = 0; g + 1 < rows.size(); ++g) {
    EXPECT_LT(rows[g].best, stop) << "generation " << g;
  }
  EXPECT_EQ(run.outcome.evaluations, 40U + (run.outcome.generations_run - 1) * 39U);
}

TEST(GaRun, StopFitnessReachedByTheInitialPopulationRunsOneGeneration) {
  const auto kernel = onemax(8);
  const auto ga = settings(12, 30, 1, 2, -std::numeric_limits<double>::infinity());
  const auto run = run_onemax(kernel, ga, 5);
  EXPECT_EQ(run.outcome.generations_run, 1U);
  EXPECT_EQ(run.outcome.evaluations, 12U);
}

TEST(GaRun, KeepBestRowsAreSortedWithPositionsAndMatchingGenomes) {
  const auto kernel = onemax(32);
  const auto ga = settings(20, 5, 1, 6);
  const auto run = run_onemax(kernel, ga, 99);
  const auto layout = ga_best_layout(OneMax::evaluation_fields());
  ASSERT_EQ(run.outcome.best.size(), 6 * layout.row_size());
  ASSERT_EQ(run.outcome.best_genomes.size(), 6U * 32U);
  const auto rows = history_rows(run.outcome);
  double previous = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < 6; ++k) {
    const auto row = std::span(run.outcome.best).subspan(k * layout.row_size(), layout.row_size());
    EXPECT_EQ(layout.get_int(row, 0), static_cast<std::int64_t>(k));
    const double fitness = layout.get_real(row, 1);
    const std::int64_t ones = layout.get_int(row, 2);
    EXPECT_LE(fitness, previous) << "position " << k;
    previous = fitness;
    const auto stored = std::span<const std::int64_t>(run.outcome.best_genomes).subspan(k * 32, 32);
    const auto genome = kernel.decode(stored);
    const auto genome_ones = std::count(genome.begin(), genome.end(), std::uint8_t{1});
    EXPECT_EQ(genome_ones, ones) << "position " << k;
    EXPECT_EQ(static_cast<double>(ones) / 32.0, fitness) << "position " << k;
    EXPECT_TRUE(std::all_of(stored.begin(), stored.end(),
                            [](std::int64_t bit) { return bit == 0 || bit == 1; }));
  }
  // The first kept is the final generation's best.
  EXPECT_EQ(layout.get_real(run.outcome.best, 1), rows.back().best);
}

TEST(GaRun, KeepBestBeyondThePopulationPadsWithMissingRows) {
  const auto kernel = onemax(10);
  const auto ga = settings(4, 3, 1, 6);
  const auto run = run_onemax(kernel, ga, 3);
  const auto layout = ga_best_layout(OneMax::evaluation_fields());
  ASSERT_EQ(run.outcome.best.size(), 6 * layout.row_size());
  ASSERT_EQ(run.outcome.best_genomes.size(), 60U);
  for (std::size_t k = 0; k < 6; ++k) {
    const auto row = std::span(run.outcome.best).subspan(k * layout.row_size(), layout.row_size());
    const auto genome = std::span(run.outcome.best_genomes).subspan(k * 10, 10);
    if (k < 4) {
      EXPECT_EQ(layout.get_int(row, 0), static_cast<std::int64_t>(k));
      EXPECT_GE(layout.get_real(row, 1), 0.0);
      EXPECT_TRUE(std::all_of(genome.begin(), genome.end(),
                              [](std::int64_t bit) { return bit == 0 || bit == 1; }));
    } else {
      EXPECT_EQ(layout.get_int(row, 0), -1) << "position " << k;
      EXPECT_TRUE(std::isnan(layout.get_real(row, 1))) << "position " << k;
      EXPECT_EQ(layout.get_int(row, 2), -1) << "position " << k;
      EXPECT_TRUE(
          std::all_of(genome.begin(), genome.end(), [](std::int64_t bit) { return bit == -1; }))
          << "position " << k;
    }
  }
}

// ---------------------------------------------------------------- islands

namespace islands {

GaSettings island_settings(MigrationTopology topology, MigrationPolicy policy) {
  auto ga = settings(40, 12, 1, 3);
  ga.islands = 4;
  ga.migration_every = 3;
  ga.migration_count = 2;
  ga.migration_topology = topology;
  ga.migration_policy = policy;
  return ga;
}

struct IslandRow {
  std::int64_t generation, island;
  double best, mean, std, min, diversity;
};

std::vector<IslandRow> island_rows(const GaOutcome& outcome) {
  const auto layout = ga_island_history_layout();
  std::vector<IslandRow> rows;
  for (std::size_t r = 0; r < outcome.island_history.size() / layout.row_size(); ++r) {
    const auto row =
        std::span(outcome.island_history).subspan(r * layout.row_size(), layout.row_size());
    rows.push_back({layout.get_int(row, 0), layout.get_int(row, 1), layout.get_real(row, 2),
                    layout.get_real(row, 3), layout.get_real(row, 4), layout.get_real(row, 5),
                    layout.get_real(row, 6)});
  }
  return rows;
}

TEST(GaSettings, IslandsMustHoldTheElitesAndTheArrivingMigrants) {
  auto section = ParamSet::defaults(GaSpec::settings());
  section.set("population", ParamValue{std::int64_t{20}});
  section.set("islands", ParamValue{std::int64_t{4}});  // islands of 5
  section.set("elitism", ParamValue{std::int64_t{4}});
  section.set("migration.count", ParamValue{std::int64_t{1}});
  section.set("migration.topology", ParamValue{std::string("all")});
  const auto ok = GaSettings::from(section);
  EXPECT_EQ(ok.islands, 4);
  EXPECT_EQ(ok.migration_topology, MigrationTopology::all);
  EXPECT_EQ(ok.evaluations_per_generation(), 20U - 4U * 4U);
  section.set("elitism", ParamValue{std::int64_t{5}});
  EXPECT_THROW((void)GaSettings::from(section), KernelError);
  section.set("elitism", ParamValue{std::int64_t{1}});
  section.set("migration.count", ParamValue{std::int64_t{2}});  // 2 from each of 3 sources > 5
  EXPECT_THROW((void)GaSettings::from(section), KernelError);
  section.set("migration.topology", ParamValue{std::string("ring")});  // 2 from one source
  EXPECT_NO_THROW((void)GaSettings::from(section));
  section.set("islands", ParamValue{std::int64_t{11}});  // islands of 1
  EXPECT_THROW((void)GaSettings::from(section), KernelError);
}

TEST(GaSettings, MigrationEventsCountEveryMigrationBeforeTheLastGeneration) {
  auto ga = island_settings(MigrationTopology::ring, MigrationPolicy::best_replace_worst);
  // After generations 3, 6 and 9 (10 is the last one followed by a generation).
  EXPECT_EQ(ga.migration_events(), 3U * 4U * 2U);
  EXPECT_TRUE(ga.migrates_after(9));
  EXPECT_FALSE(ga.migrates_after(0));
  EXPECT_FALSE(ga.migrates_after(4));
  ga.migration_topology = MigrationTopology::all;
  EXPECT_EQ(ga.migration_events(), 3U * 4U * 3U * 2U);
  ga.migration_count = 0;
  EXPECT_EQ(ga.migration_events(), 0U);
}

TEST(GaRunIslands, IslandRowsAgreeWithTheWholePopulationAndMigrantsAreTheirIslandsBest) {
  const auto kernel = onemax(30);
  const auto ga = island_settings(MigrationTopology::ring, MigrationPolicy::best_replace_worst);
  const auto run = run_onemax(kernel, ga, 11, 2);
  const auto whole = history_rows(run.outcome);
  const auto rows = island_rows(run.outcome);
  ASSERT_EQ(rows.size(), 12U * 4U);
  EXPECT_EQ(run.outcome.evaluations, 40U + 11U * (40U - 4U));
  for (std::size_t g = 0; g < 12; ++g) {
    double best = -1;
    double lowest = 2;
    double mean = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const auto& row = rows[g * 4 + i];
      EXPECT_EQ(row.generation, static_cast<std::int64_t>(g));
      EXPECT_EQ(row.island, static_cast<std::int64_t>(i));
      EXPECT_GT(row.diversity, 0.0);
      EXPECT_LT(row.diversity, 1.0);
      if (g > 0) {
        EXPECT_GE(row.best, rows[(g - 1) * 4 + i].best) << "an island lost its elite";
      }
      best = std::max(best, row.best);
      lowest = std::min(lowest, row.min);
      mean += row.mean / 4;  // islands of 10
    }
    EXPECT_EQ(whole[g].best, best) << g;
    EXPECT_EQ(whole[g].min, lowest) << g;
    EXPECT_NEAR(whole[g].mean, mean, 1e-12) << g;
  }
  const auto layout = ga_migration_layout();
  ASSERT_EQ(run.outcome.migrations.size(), ga.migration_events() * layout.row_size());
  for (std::size_t e = 0; e < ga.migration_events(); ++e) {
    const auto row =
        std::span(run.outcome.migrations).subspan(e * layout.row_size(), layout.row_size());
    const auto generation = layout.get_int(row, 0);
    const auto from = layout.get_int(row, 1);
    EXPECT_EQ(generation, 3 * static_cast<std::int64_t>(1 + e / 8));
    EXPECT_EQ(layout.get_int(row, 2), (from + 1) % 4);
    EXPECT_EQ(layout.get_int(row, 3) / 10, from);
    EXPECT_EQ(layout.get_int(row, 4) / 10, (from + 1) % 4);
    if (e % 2 == 0) {  // the first migrant of an island is its best
      EXPECT_EQ(layout.get_real(row, 5),
                rows[static_cast<std::size_t>(generation * 4 + from)].best);
    }
  }
  const auto best_layout = ga_island_best_layout(OneMax::evaluation_fields());
  for (std::size_t i = 0; i < 4; ++i) {
    const auto row = std::span(run.outcome.island_best)
                         .subspan(i * best_layout.row_size(), best_layout.row_size());
    EXPECT_EQ(best_layout.get_int(row, 0), static_cast<std::int64_t>(i));
    EXPECT_EQ(best_layout.get_real(row, 1), rows[std::size_t{11} * 4 + i].best);
    const auto genome = std::span(run.outcome.island_best_genomes).subspan(i * 30, 30);
    EXPECT_EQ(static_cast<double>(std::count(genome.begin(), genome.end(), 1)) / 30.0,
              best_layout.get_real(row, 1));
  }
}

TEST(GaRunIslands, WithoutMigrantsTheIslandsEvolveApart) {
  // With no migrants, the topology and policy change nothing; with migrants they do.
  const auto kernel = onemax(30);
  auto ring = island_settings(MigrationTopology::ring, MigrationPolicy::best_replace_worst);
  ring.migration_count = 0;
  auto all = island_settings(MigrationTopology::all, MigrationPolicy::random_replace_random);
  all.migration_count = 0;
  const auto first = run_onemax(kernel, ring, 5);
  EXPECT_EQ(first.outcome.history, run_onemax(kernel, all, 5).outcome.history);
  EXPECT_TRUE(first.outcome.migrations.empty());
  auto migrating = ring;
  migrating.migration_count = 2;
  EXPECT_NE(first.outcome.history, run_onemax(kernel, migrating, 5).outcome.history);
}

TEST(GaRunIslands, StoppedAndResumedAroundAMigrationEqualsTheUninterruptedRun) {
  const auto kernel = onemax(30);
  for (const auto policy :
       {MigrationPolicy::best_replace_worst, MigrationPolicy::random_replace_random}) {
    const auto ga = island_settings(MigrationTopology::random, policy);
    const auto whole = run_onemax(kernel, ga, 99, 5);
    // 4: saved before the migration after generation 3; 11: after the last one.
    for (const std::int64_t stop_after : {1, 4, 11}) {
      StoppingGroup stopping(stop_after);
      (void)GaRun<OneMax>(kernel, ga, 99, 5, stopping).run();
      SoloGroup solo;
      const auto rest = GaRun<OneMax>(kernel, ga, 99, 5, solo).run(&stopping.saved);
      EXPECT_EQ(rest.history, whole.outcome.history) << stop_after;
      EXPECT_EQ(rest.island_history, whole.outcome.island_history) << stop_after;
      EXPECT_EQ(rest.migrations, whole.outcome.migrations) << stop_after;
      EXPECT_EQ(rest.island_best, whole.outcome.island_best) << stop_after;
      EXPECT_EQ(rest.best_genomes, whole.outcome.best_genomes) << stop_after;
    }
  }
}

}  // namespace islands

}  // namespace
}  // namespace levelforge
