#include "runner/engine/qd_engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "kernels/testing/onemax.hpp"
#include "runner/drivers/driver_list.hpp"
#include "tests/error_message.hpp"
#include "tests/solo_group.hpp"

namespace levelforge::qd_engine_test {
namespace {

using kernels::OneMax;
using QdSolo = testing::SoloGroupOf<QdSnapshot>;
using StoppingQdGroup = testing::StoppingGroupOf<QdSnapshot>;

OneMax onemax_of(std::int64_t length) {
  auto params = ParamSet::defaults(OneMax::parameters());
  params.set("length", ParamValue{length});
  return OneMax(params);
}

QdSettings qd(std::int64_t bins, std::int64_t init, std::int64_t iterations, std::int64_t batch) {
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("bins", ParamValue{bins});
  section.set("init", ParamValue{init});
  section.set("iterations", ParamValue{iterations});
  section.set("batch", ParamValue{batch});
  return QdSettings::from(section);
}

TEST(MeasureAxis, BinsClampOutsideTheRange) {
  const MeasureAxis axis{"m", 0.0, 1.0, 4};
  EXPECT_EQ(axis.bin(-0.5), 0);
  EXPECT_EQ(axis.bin(0.0), 0);
  EXPECT_EQ(axis.bin(0.24), 0);
  EXPECT_EQ(axis.bin(0.25), 1);
  EXPECT_EQ(axis.bin(0.999), 3);
  EXPECT_EQ(axis.bin(1.0), 3);
  EXPECT_EQ(axis.bin(7.0), 3);
  const MeasureAxis shifted{"n", -10.0, 30.0, 8};  // cells of 5
  EXPECT_EQ(shifted.bin(-5.0), 1);
  EXPECT_EQ(shifted.bin(29.99), 7);
}

TEST(CellOf, IsRowMajorWithTheLastMeasureFastest) {
  const std::vector<MeasureAxis> axes{{"a", 0, 3, 3}, {"b", 0, 4, 4}};
  EXPECT_EQ(cell_of(axes, std::vector<double>{0.5, 0.5}), 0);
  EXPECT_EQ(cell_of(axes, std::vector<double>{0.5, 3.5}), 3);
  EXPECT_EQ(cell_of(axes, std::vector<double>{1.5, 0.5}), 4);
  EXPECT_EQ(cell_of(axes, std::vector<double>{2.5, 2.5}), 2 * 4 + 2);
  EXPECT_EQ(cell_count(axes), 12U);
}

TEST(MeasureAxes, OverridesChangeOneMeasureAndBadOnesAreNamed) {
  const auto kernel = onemax_of(8);
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("bins", ParamValue{std::int64_t{6}});
  const auto plain = measure_axes(QdSettings::from(section), kernel.measures());
  ASSERT_EQ(plain.size(), 2U);
  EXPECT_EQ(plain[0].name, "first_half");
  EXPECT_EQ(plain[1].bins, 6);
  EXPECT_EQ(plain[1].high, 1.0);

  const auto with = [&](DataNode table) {
    auto copy = section;
    copy.set("measures",
             ParamValue{ParamTable{std::make_shared<const DataNode>(std::move(table))}});
    return measure_axes(QdSettings::from(copy), kernel.measures());
  };
  const auto scalar = [](const char* text) { return DataNode::scalar(text, "c.yaml:3:5"); };
  const auto overridden = with(DataNode::map(
      {{"second_half",
        DataNode::map({{"bins", scalar("3")},
                       {"range", DataNode::list({scalar("0.25"), scalar("0.75")})}})}}));
  EXPECT_EQ(overridden[0].bins, 6);
  EXPECT_EQ(overridden[1].bins, 3);
  EXPECT_EQ(overridden[1].low, 0.25);
  EXPECT_EQ(overridden[1].high, 0.75);
  const auto message = testing::error_message<KernelError>([&] {
    (void)with(DataNode::map({{"third", DataNode::map({{"bins", scalar("3")}})}}, "c.yaml:2:3"));
  });
  EXPECT_NE(message.find("no measure 'third'"), std::string::npos) << message;
  EXPECT_NE(message.find("first_half, second_half"), std::string::npos) << message;
  EXPECT_THROW((void)with(DataNode::map(
                   {{"first_half",
                     DataNode::map({{"range", DataNode::list({scalar("1"), scalar("1")})}})}})),
               KernelError);
  section.set("bins", ParamValue{std::int64_t{5000}});  // 25 million cells
  EXPECT_THROW((void)measure_axes(QdSettings::from(section), kernel.measures()), KernelError);
}

struct Elite {
  std::int64_t cell;
  double fitness;
  std::vector<std::int64_t> genome;
};

std::map<std::int64_t, Elite> archive_of(const QdOutcome& outcome, const RecordLayout& layout,
                                         std::size_t length) {
  std::map<std::int64_t, Elite> elites;
  for (std::size_t cell = 0; cell < outcome.archive.size() / layout.row_size(); ++cell) {
    const auto row =
        std::span(outcome.archive).subspan(cell * layout.row_size(), layout.row_size());
    EXPECT_EQ(layout.get_int(row, 0), static_cast<std::int64_t>(cell));
    if (layout.get_int(row, 1) == 0) continue;
    const auto genome = std::span(outcome.genomes).subspan(cell * length, length);
    elites[static_cast<std::int64_t>(cell)] = {
        static_cast<std::int64_t>(cell), layout.get_real(row, 2), {genome.begin(), genome.end()}};
  }
  return elites;
}

TEST(QdRun, InitialArchiveHoldsTheFirstFittestGenomeOfEachCell) {
  // With no iterations, the archive is the initial genomes' best per cell, the earliest on a
  // tie: computed here from the genomes themselves.
  for (const std::int64_t length : {4, 9}) {
    const auto kernel = onemax_of(length);
    for (const std::int64_t bins : {1, 2, 3}) {
      const auto settings = qd(bins, 60, 0, 1);
      QdSolo group;
      QdRun<OneMax> run(kernel, settings, 17, 3, group);
      const auto outcome = run.run();
      std::map<std::int64_t, Elite> expected;
      for (std::uint64_t i = 0; i < 60; ++i) {
        Rng rng({17, Stream::init, 3, 0, i});
        const auto genome = kernel.random_genome(rng);
        Rng unused({17, Stream::evaluation, 3, 0, i});
        const auto evaluation = kernel.evaluate(genome, unused);
        const auto cell = cell_of(run.axes(), kernel.measure(genome, evaluation));
        const auto found = expected.find(cell);
        if (found == expected.end() || evaluation.fitness > found->second.fitness) {
          expected[cell] = {cell, evaluation.fitness, {genome.begin(), genome.end()}};
        }
      }
      const auto layout = qd_archive_layout(OneMax::evaluation_fields(), run.axes());
      const auto actual = archive_of(outcome, layout, static_cast<std::size_t>(length));
      ASSERT_EQ(actual.size(), expected.size()) << length << " " << bins;
      for (const auto& [cell, elite] : expected) {
        EXPECT_EQ(actual.at(cell).fitness, elite.fitness);
        EXPECT_EQ(actual.at(cell).genome, elite.genome) << "cell " << cell;
      }
    }
  }
}

TEST(QdRun, ArchiveRowsAndHistoryAgree) {
  const auto kernel = onemax_of(20);
  auto settings = qd(5, 40, 12, 25);
  settings.score_offset = -1;
  QdSolo group;
  QdRun<OneMax> run(kernel, settings, 8, 0, group);
  const auto outcome = run.run();
  EXPECT_EQ(outcome.evaluations, 40U + 12U * 25U);
  EXPECT_EQ(group.total(), outcome.evaluations);
  const auto layout = qd_archive_layout(OneMax::evaluation_fields(), run.axes());
  const auto elites = archive_of(outcome, layout, 20);
  double score = 0;
  double best = -1;
  for (const auto& [cell, elite] : elites) {
    const auto genome = kernel.decode(elite.genome);
    Rng unused({0, Stream::evaluation, 0, 0, 0});
    const auto evaluation = kernel.evaluate(genome, unused);
    EXPECT_EQ(evaluation.fitness, elite.fitness);
    const auto measures = kernel.measure(genome, evaluation);
    EXPECT_EQ(cell_of(run.axes(), measures), cell);
    const auto row =
        std::span(outcome.archive)
            .subspan(static_cast<std::size_t>(cell) * layout.row_size(), layout.row_size());
    EXPECT_EQ(layout.get_real(row, layout.index_of("measure_first_half")), measures[0]);
    EXPECT_EQ(layout.get_real(row, layout.index_of("measure_second_half")), measures[1]);
    score += elite.fitness + 1;
    best = std::max(best, elite.fitness);
  }
  const auto history = qd_history_layout();
  ASSERT_EQ(outcome.history.size(), 13 * history.row_size());
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < 13; ++i) {
    const auto row = std::span(outcome.history).subspan(i * history.row_size(), history.row_size());
    EXPECT_EQ(history.get_int(row, 0), static_cast<std::int64_t>(i));
    EXPECT_EQ(history.get_int(row, 1), 40 + 25 * static_cast<std::int64_t>(i));
    const auto occupied = history.get_int(row, 2);
    EXPECT_GE(occupied, previous) << "a cell was lost";
    EXPECT_EQ(history.get_real(row, 3), static_cast<double>(occupied) / 25.0);
    EXPECT_LE(history.get_int(row, 6), i == 0 ? 40 : 25);
    previous = occupied;
  }
  const auto last = std::span(outcome.history).last(history.row_size());
  EXPECT_EQ(history.get_int(last, 2), static_cast<std::int64_t>(elites.size()));
  EXPECT_NEAR(history.get_real(last, 4), score, 1e-9);
  EXPECT_EQ(history.get_real(last, 5), best);
}

TEST(QdRun, StoppedAndResumedFromItsSnapshotEqualsTheUninterruptedRun) {
  const auto kernel = onemax_of(16);
  auto settings = qd(4, 20, 9, 15);
  settings.crossover_rate = 0.5;
  QdSolo whole_group;
  const auto whole = QdRun<OneMax>(kernel, settings, 4, 1, whole_group).run();
  for (const std::int64_t stop_after : {1, 5, 9}) {
    StoppingQdGroup stopping(stop_after);
    const auto first = QdRun<OneMax>(kernel, settings, 4, 1, stopping).run();
    ASSERT_TRUE(first.stopped);
    EXPECT_EQ(stopping.saved.iterations_run, stop_after);
    EXPECT_EQ(stopping.saved.evaluations, 20U + 15U * static_cast<std::uint64_t>(stop_after - 1));
    QdSolo solo;
    const auto rest = QdRun<OneMax>(kernel, settings, 4, 1, solo).run(&stopping.saved);
    EXPECT_EQ(rest.history, whole.history) << stop_after;
    EXPECT_EQ(rest.archive, whole.archive) << stop_after;
    EXPECT_EQ(rest.genomes, whole.genomes) << stop_after;
    EXPECT_EQ(rest.evaluations_before, stopping.saved.evaluations);
  }
  auto other = settings;
  other.bins = 5;
  StoppingQdGroup stopping(3);
  (void)QdRun<OneMax>(kernel, settings, 4, 1, stopping).run();
  QdSolo solo;
  // A saved cell beyond a smaller archive: refused rather than read out of bounds.
  other.bins = 2;
  if (std::any_of(stopping.saved.cells.begin(), stopping.saved.cells.end(),
                  [](std::int64_t cell) { return cell >= 4; })) {
    EXPECT_THROW((void)QdRun<OneMax>(kernel, other, 4, 1, solo).run(&stopping.saved),
                 std::invalid_argument);
  }
  auto shorter = settings;
  shorter.iterations = 2;
  EXPECT_THROW((void)QdRun<OneMax>(kernel, shorter, 4, 1, solo).run(&stopping.saved),
               std::invalid_argument);
}

TEST(QdRun, SeedsAndTasksGiveDifferentArchivesAndTheSameOnesAgain) {
  const auto kernel = onemax_of(16);
  const auto settings = qd(4, 20, 5, 10);
  QdSolo a;
  QdSolo b;
  QdSolo c;
  const auto first = QdRun<OneMax>(kernel, settings, 1, 0, a).run();
  EXPECT_EQ(first.genomes, QdRun<OneMax>(kernel, settings, 1, 0, b).run().genomes);
  EXPECT_NE(first.genomes, QdRun<OneMax>(kernel, settings, 1, 1, c).run().genomes);
}

}  // namespace
}  // namespace levelforge::qd_engine_test
