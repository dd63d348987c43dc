// The four drivers through run_experiment on 1, 2 and 3 ranks, their result files read
// back and checked against values computed independently in one process. Since the
// expected values do not depend on the rank count, passing on every rank count shows the
// results are identical whatever the number of ranks.
#include "runner/drivers/run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "kernels/testing/collatz.hpp"
#include "kernels/testing/onemax.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/qd_engine.hpp"
#include "runner/output/table_reader.hpp"
#include "tests/solo_group.hpp"

namespace levelforge {
namespace {

class DriversTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string directory;
    if (world_.rank() == 0) {
      std::string pattern =
          (std::filesystem::temp_directory_path() / "levelforge-drivers-XXXXXX").string();
      directory = mkdtemp(pattern.data());
    }
    world_.broadcast(directory, 0);
    directory_ = directory;
  }

  void TearDown() override {
    world_.barrier();
    if (world_.rank() == 0) std::filesystem::remove_all(directory_);
  }

  [[nodiscard]] config::Experiment experiment(const std::string& yaml) const {
    auto parsed = config::parse_experiment(yaml, "test.yaml", {}, config_schema());
    parsed.output = (directory_ / (parsed.name + ".h5")).string();
    return parsed;
  }

  [[nodiscard]] RunSummary run(const config::Experiment& parsed) const {
    RunOptions options;
    options.progress = ProgressStyle::none;
    const auto bound = bind_run(parsed);
    return run_experiment(bound, check_runnable(bound), options, world_);
  }

  mpi::Comm world_ = mpi::Comm::world();
  std::filesystem::path directory_;
};

std::vector<std::byte> rows_of(const TableData& table, std::size_t first_row, std::size_t count) {
  const auto size = table.layout.row_size();
  const auto begin = table.rows.begin() + static_cast<std::ptrdiff_t>(first_row * size);
  return {begin, begin + static_cast<std::ptrdiff_t>(count * size)};
}

TEST_F(DriversTest, GaHistoryEqualsASingleProcessRunOfEveryTask) {
  const auto parsed = experiment(R"(
experiment: ga
kernel: onemax
driver: ga
ga: {population: 40, generations: 30, elitism: 2, keep_best: 3}
sweep:
  grid: {params.length: [16, 48]}
  replicates: 3
seed: 11
)");
  const auto summary = run(parsed);
  EXPECT_EQ(summary.tasks, 6U);
  if (world_.rank() != 0) return;

  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  const auto history = read_table(file.root().open_dataset("ga/history"));
  const auto best = read_table(file.root().open_dataset("ga/best"));
  ASSERT_EQ(history.dims, (std::vector<hsize_t>{6, 30}));
  for (std::uint64_t task = 0; task < 6; ++task) {
    const auto& point = parsed.points[task / 3];
    const kernels::OneMax kernel(point.params);
    const auto settings = GaSettings::from(point.driver);
    testing::SoloGroup group;
    const auto outcome = GaRun<kernels::OneMax>(kernel, settings, parsed.seed, task, group).run();
    ASSERT_EQ(outcome.generations_run, 30U);
    EXPECT_EQ(rows_of(history, task * 30, 30), outcome.history) << "task " << task;
    EXPECT_EQ(rows_of(best, task * 3, 3), outcome.best) << "task " << task;
  }
  const auto tasks = read_table(file.root().open_dataset("tasks"));
  for (std::size_t i = 0; i < tasks.row_count(); ++i) {
    EXPECT_EQ(std::get<std::int64_t>(tasks.row(i)[tasks.field("status")]), 1);
    EXPECT_EQ(std::get<std::int64_t>(tasks.row(i)[tasks.field("task")]),
              static_cast<std::int64_t>(i));
  }
  EXPECT_EQ(file.root().read_int_attribute("complete"), 1);
}

TEST_F(DriversTest, GaSplitsOneLargePopulationAcrossAllRanks) {
  const auto parsed = experiment(R"(
experiment: wide
kernel: onemax
driver: ga
params: {length: 24}
ga: {population: 301, generations: 12, elitism: 1, keep_best: 2}
seed: 5
)");
  EXPECT_FALSE(run(parsed).stopped);  // no signal: the run completes
  if (world_.rank() != 0) return;
  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  EXPECT_EQ(file.root().open_group("ga").read_int_attribute_array("group_sizes"),
            std::vector<std::int64_t>{world_.size()});
  const auto history = read_table(file.root().open_dataset("ga/history"));
  const kernels::OneMax kernel(parsed.points[0].params);
  testing::SoloGroup group;
  const auto outcome =
      GaRun<kernels::OneMax>(kernel, GaSettings::from(parsed.points[0].driver), 5, 0, group).run();
  EXPECT_EQ(history.rows, outcome.history);
}

TEST_F(DriversTest, QdArchiveEqualsASingleProcessRunOfEveryTask) {
  const auto parsed = experiment(R"(
experiment: qd
kernel: onemax
driver: qd
qd: {bins: 4, init: 20, iterations: 5, batch: 10}
sweep:
  grid: {params.length: [12, 16]}
  replicates: 2
seed: 3
)");
  const auto summary = run(parsed);
  EXPECT_EQ(summary.tasks, 4U);
  if (world_.rank() != 0) return;

  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  const auto history = read_table(file.root().open_dataset("qd/history"));
  const auto archive = read_table(file.root().open_dataset("qd/archive"));
  // onemax's two measures in 4 bins each: 16 cells at both points, so no padding.
  ASSERT_EQ(history.dims, (std::vector<hsize_t>{4, 6}));
  ASSERT_EQ(archive.dims, (std::vector<hsize_t>{4, 16}));
  for (std::uint64_t task = 0; task < 4; ++task) {
    const auto& point = parsed.points[task / 2];
    const kernels::OneMax kernel(point.params);
    testing::SoloGroupOf<QdSnapshot> group;
    const auto outcome =
        QdRun<kernels::OneMax>(kernel, QdSettings::from(point.driver), parsed.seed, task, group)
            .run();
    ASSERT_EQ(outcome.iterations_run, 6U);  // the initial genomes, then 5 iterations
    EXPECT_EQ(rows_of(history, task * 6, 6), outcome.history) << "task " << task;
    EXPECT_EQ(rows_of(archive, task * 16, 16), outcome.archive) << "task " << task;
  }
  EXPECT_EQ(file.root().read_int_attribute("complete"), 1);
}

TEST_F(DriversTest, SweepRecordsEqualDirectKernelRuns) {
  const auto parsed = experiment(R"(
experiment: sweep
kernel: collatz
driver: sweep
params: {start: 1000, count: 100000}
sweep:
  zip: {params.start: [10, 500000], params.count: [50, 1000]}
  replicates: 7
seed: 99
)");
  EXPECT_FALSE(run(parsed).stopped);  // no signal: the run completes
  if (world_.rank() != 0) return;
  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  const auto records = read_table(file.root().open_dataset("sweep/records"));
  ASSERT_EQ(records.row_count(), 14U);
  for (std::uint64_t task = 0; task < 14; ++task) {
    const kernels::Collatz kernel(parsed.points[task / 7].params);
    Rng rng({99, Stream::sweep_run, task, 0, 0});
    EXPECT_EQ(records.row(task), kernel.run(rng)) << "task " << task;
  }
}

TEST_F(DriversTest, ExhaustiveReductionsEqualBruteForce) {
  const auto parsed = experiment(R"(
experiment: collatz
kernel: collatz
driver: exhaustive
params: {count: 30000, solution_steps: 200}
exhaustive: {chunk: 777, begin: 5}
sweep:
  grid: {params.start: [1, 40001]}
seed: 3
)");
  EXPECT_FALSE(run(parsed).stopped);  // no signal: the run completes
  if (world_.rank() != 0) return;
  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  const auto counts = read_table(file.root().open_dataset("exhaustive/counts"));
  const auto top = read_table(file.root().open_dataset("exhaustive/top/longest"));
  const auto solutions = read_table(file.root().open_dataset("exhaustive/solutions"));
  const auto histogram = file.root()
                             .open_dataset("exhaustive/histograms/steps")
                             .read_all_as<std::int64_t>(h5::Datatype::int64());

  std::size_t solution_row = 0;
  for (std::int64_t task = 0; task < 2; ++task) {
    const std::int64_t start = task == 0 ? 1 : 40001;
    std::vector<std::int64_t> expected_bins(1002, 0);
    std::vector<std::pair<std::int64_t, std::int64_t>> by_steps;  // (-steps, n)
    std::map<std::int64_t, std::int64_t> peaks;
    for (std::int64_t index = 5; index < 30000; ++index) {
      const auto n = start + index;
      const auto orbit = kernels::collatz_orbit(static_cast<std::uint64_t>(n));
      ++expected_bins[static_cast<std::size_t>(orbit.steps < 1000 ? orbit.steps + 1 : 1001)];
      by_steps.emplace_back(-orbit.steps, index);
      peaks[index] = orbit.peak;
      if (orbit.steps >= 200) {
        ASSERT_LT(solution_row, solutions.row_count());
        EXPECT_EQ(solutions.row(solution_row), (Record{task, index, n, orbit.steps}));
        ++solution_row;
      }
    }
    EXPECT_EQ(std::get<std::int64_t>(counts.row(static_cast<std::size_t>(task))[0]), 30000 - 5);
    EXPECT_TRUE(
        std::equal(expected_bins.begin(), expected_bins.end(), histogram.begin() + task * 1002))
        << "histogram of task " << task;
    std::sort(by_steps.begin(), by_steps.end());
    for (std::size_t k = 0; k < 10; ++k) {
      const auto [negative_steps, index] = by_steps[k];
      const Record expected{static_cast<double>(-negative_steps), index, start + index,
                            -negative_steps, peaks[index]};
      EXPECT_EQ(top.row(static_cast<std::size_t>(task) * 10 + k), expected)
          << "task " << task << " rank " << k;
    }
  }
  EXPECT_EQ(solution_row, solutions.row_count());
}

// Three tasks of 4 indices, each 2-index chunk on whichever rank pulls it: a top-10 table
// per task holds that task's 4 entries, best first, then 6 missing rows (index -1), however
// the ranks' merged rows fell to the task that each rank writes.
TEST_F(DriversTest, ExhaustiveTopTablesShorterThanKEndInMissingRows) {
  const auto parsed = experiment(R"(
experiment: short
kernel: collatz
driver: exhaustive
params: {count: 4}
exhaustive: {chunk: 2}
sweep:
  grid: {params.start: [27, 1, 97]}
)");
  EXPECT_FALSE(run(parsed).stopped);  // no signal: the run completes
  if (world_.rank() != 0) return;
  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  const auto top = read_table(file.root().open_dataset("exhaustive/top/longest"));
  ASSERT_EQ(top.row_count(), 30U);
  const std::int64_t starts[] = {27, 1, 97};
  for (std::size_t task = 0; task < 3; ++task) {
    std::vector<std::pair<std::int64_t, std::int64_t>> by_steps;  // (-steps, index)
    for (std::int64_t index = 0; index < 4; ++index) {
      const auto orbit = kernels::collatz_orbit(static_cast<std::uint64_t>(starts[task] + index));
      by_steps.emplace_back(-orbit.steps, index);
    }
    std::sort(by_steps.begin(), by_steps.end());
    for (std::size_t k = 0; k < 10; ++k) {
      const auto row = top.row(task * 10 + k);
      if (k >= 4) {
        EXPECT_EQ(std::get<std::int64_t>(row[1]), -1) << "task " << task << " rank " << k;
        continue;
      }
      const auto [negative_steps, index] = by_steps[k];
      EXPECT_EQ(std::get<double>(row[0]), static_cast<double>(-negative_steps));
      EXPECT_EQ(std::get<std::int64_t>(row[1]), index) << "task " << task << " rank " << k;
      EXPECT_EQ(std::get<std::int64_t>(row[2]), starts[task] + index);
    }
  }
}

TEST_F(DriversTest, ExhaustiveWithoutSolutionsWritesAnEmptyTable) {
  const auto parsed = experiment(R"(
experiment: none
kernel: faulty
driver: exhaustive
params: {count: 5000}
exhaustive: {chunk: 300}
)");
  EXPECT_FALSE(run(parsed).stopped);  // no signal: the run completes
  if (world_.rank() != 0) return;
  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  EXPECT_EQ(file.root().open_dataset("exhaustive/solutions").dims(), std::vector<hsize_t>{0});
  const auto counts = read_table(file.root().open_dataset("exhaustive/counts"));
  EXPECT_EQ(counts.row(0), (Record{std::int64_t{5000}}));
}

// A solution per index: the writer (rank 0) writes every rank's rows while the others have
// nothing left to do. Their wait is idle time in the driver, not time after it: every rank's
// wall time spans the same driver, the writer's writing included.
TEST_F(DriversTest, RanksWaitingForTheWriterAreIdleInTheDriver) {
  if (world_.size() == 1) GTEST_SKIP() << "one rank waits for no writer";
  const auto parsed = experiment(R"(
experiment: writing
kernel: collatz
driver: exhaustive
params: {count: 200000, solution_steps: 0}
exhaustive: {chunk: 20000}
)");
  EXPECT_FALSE(run(parsed).stopped);  // no signal: the run completes
  if (world_.rank() != 0) return;
  auto file = h5::File::open_serial(parsed.output, h5::Access::read_only);
  const auto ranks = read_table(file.root().open_dataset("ranks"));
  std::vector<double> walls;
  for (std::size_t r = 0; r < ranks.row_count(); ++r) {
    const auto wall = std::get<double>(ranks.row(r)[ranks.field("wall_time")]);
    EXPECT_LE(std::get<double>(ranks.row(r)[ranks.field("idle_time")]), wall) << "rank " << r;
    walls.push_back(wall);
  }
  const auto [shortest, longest] = std::minmax_element(walls.begin(), walls.end());
  // Measured on 2 and 3 ranks: within 1-3% of each other; a rank that left the driver
  // when its rows were sent, 40-50% shorter than the writer's.
  EXPECT_LE(*longest - *shortest, 0.2 * *longest)
      << "wall times " << fmt::format("{}", fmt::join(walls, ", "));
}

TEST_F(DriversTest, DisabledOutputWritesNothing) {
  const auto parsed = experiment(R"(
experiment: quiet
kernel: onemax
driver: sweep
sweep: {replicates: 5}
)");
  RunOptions options;
  options.progress = ProgressStyle::none;
  options.write_output = false;
  const auto bound = bind_run(parsed);
  const auto summary = run_experiment(bound, check_runnable(bound), options, world_);
  EXPECT_EQ(summary.work_units, 5U);
  EXPECT_FALSE(std::filesystem::exists(parsed.output));
  EXPECT_FALSE(std::filesystem::exists(parsed.output + ".partial"));
}

}  // namespace
}  // namespace levelforge
