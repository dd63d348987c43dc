// The memory estimate of a run (runner/drivers/memory_estimate.hpp): each part by hand, the
// refusal's message, and where the available memory is read.

#include "runner/drivers/memory_estimate.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "kernels/spawn/selection.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/engine/ga_settings.hpp"
#include "runner/engine/qd_settings.hpp"

namespace levelforge {
namespace {

const KernelEntry& estimated_kernel(std::string_view name) {
  const auto* found = find_kernel(name);
  if (found == nullptr) throw std::runtime_error("kernel not registered: " + std::string(name));
  return *found;
}

const Driver& driver_of(const config::Experiment& experiment) {
  return *find_driver(experiment.driver);
}

config::Experiment experiment_from(const std::string& yaml) {
  return config::parse_experiment(yaml, "memory.yaml", {}, config_schema());
}

std::uint64_t part_bytes(const RunMemory& memory, std::string_view cause_start) {
  for (const auto& part : memory.parts)
    if (part.cause.starts_with(cause_start)) return part.bytes;
  ADD_FAILURE() << "no part starting with '" << cause_start << "'";
  return 0;
}

// The task log's row and id, as the runner counts them, and a /points row of `swept` keys of
// numbers.
constexpr std::uint64_t task_row_bytes = 88;
RunRows rows_with(std::uint64_t swept) { return {task_row_bytes, 8 * (1 + swept)}; }

// What every rank keeps of a point: its facts and, for the ga and qd drivers, their settings
// and the work units of a task.
static_assert(sizeof(PointFacts) == 112);
constexpr std::uint64_t ga_point_bytes = sizeof(GaSettings) + 8;
static_assert(ga_point_bytes == 136);

TEST(MemoryEstimate, KernelsDeclareItOnlyWhenTheirMemoryGrowsWithParameters) {
  EXPECT_TRUE(estimated_kernel("onemax").memory_estimate);
  EXPECT_TRUE(estimated_kernel("match3").memory_estimate);
  EXPECT_TRUE(estimated_kernel("spawn").memory_estimate);
  EXPECT_FALSE(estimated_kernel("collatz").memory_estimate);
  EXPECT_FALSE(estimated_kernel("tiltmaze").memory_estimate);
  const auto& match3_kernel = estimated_kernel("match3");
  const auto match3 = match3_kernel.memory_estimate(ParamSet::defaults(match3_kernel.params));
  // 10000 validation playouts (more than the 200 playouts) x (8-byte seed + 8-byte score).
  EXPECT_EQ(match3.working_bytes, 160'000U);
  EXPECT_EQ(match3.working_cause, "params.validation_playouts = 10000 playouts x 16 bytes");
}

TEST(MemoryEstimate, SpawnKernelsHoldTwoNumbersAndAPlanPerLevel) {
  // A level's plan: its required difficulty, two masks and 16 caps.
  static_assert(sizeof(spawn::LevelPlan) == 8 + 2 * 4 + 16 * 8);
  const auto& spawn = estimated_kernel("spawn");
  auto params = ParamSet::defaults(spawn.params);
  params.set("levels", ParamValue{std::int64_t{100'000}});
  const auto estimate = spawn.memory_estimate(params);
  // The kernel: a required difficulty (8 bytes) and a plan per level.
  EXPECT_EQ(estimate.model_bytes, 100'000U * 152);
  EXPECT_EQ(estimate.model_cause, "params.levels = 100000 levels x 152 bytes");
  // A GA evaluation's simulator of the genome's rules: a plan per level.
  EXPECT_EQ(estimate.working_bytes, 100'000U * 144);
  EXPECT_EQ(estimate.working_cause, "params.levels = 100000 levels x 144 bytes");
  // A std::vector of the increment, the decay and up to 16 ratios.
  EXPECT_EQ(estimate.genome_bytes, 24U + 18 * 8);
}

TEST(MemoryEstimate, ASpawnSweepOf3000LongPointsHoldsOneKernelAtATime) {
  // Issue 51: 3000 points of 100,000 levels held 45 GB when every rank built every point's
  // kernel. 3000 tasks on 2 ranks: 1500 per rank. A record: 43 reals, an int and the
  // 256-character first_run.
  const auto experiment = experiment_from(R"(
experiment: long-runs
kernel: spawn
driver: sweep
params: {levels: 100000, runs: 1}
sweep:
  grid: {params.weight_increment: {linspace: [0, 100, 3000]}}
)");
  EXPECT_EQ(RecordLayout(estimated_kernel("spawn").binding<SweepSpec>()->record_fields).row_size(),
            43U * 8 + 8 + 256);
  const auto memory = estimate_run_memory(experiment, estimated_kernel("spawn"),
                                          driver_of(experiment), 2, rows_with(1));
  EXPECT_EQ(part_bytes(memory,
                       "params.levels = 100000 levels x 152 bytes (the kernel of one "
                       "point at a time)"),
            15'200'000U);
  EXPECT_EQ(part_bytes(memory, "params.levels = 100000 levels x 144 bytes"), 14'400'000U);
  // The records, sent to the host's writer, received, ordered and compressed: 4 copies.
  EXPECT_EQ(part_bytes(memory,
                       "the records of 1500 tasks per rank (3000 points x 1 replicate = "
                       "3000 tasks on 2 ranks) and 4 copies made to write them"),
            5U * 1500 * 608);
  EXPECT_EQ(part_bytes(memory, "the task list of 1500 tasks per rank"), 1500U * 88);
  EXPECT_EQ(part_bytes(memory, "the list of the 3000 tasks to pull, on every rank"), 3000U * 16);
  // A point's facts and its /points row (point, weight_increment) twice.
  EXPECT_EQ(part_bytes(memory, "the sweep's 3000 points"), 3000U * (112 + 2 * 16));
  EXPECT_EQ(memory.bytes,
            15'200'000U + 14'400'000 + 4'560'000 + 132'000 + 48'000 + 432'000);  // 33 MiB
  EXPECT_EQ(memory.parts.front().cause,
            "params.levels = 100000 levels x 152 bytes (the kernel of one point at a time)");
}

TEST(MemoryEstimate, ATiltmazeSweepCountsTheCopiesOfItsRecords) {
  // Issue 51: 1,000,000 tiltmaze points took 7.2 GB a rank. Per task on 1 rank: a record
  // (2404 bytes, most of it the maze drawn) and the 2 copies made to write it, its task log
  // row and id, 16 bytes in the list of tasks to pull; per point its facts and /points row
  // twice: 7.4 KB, 7.4 GB for 1,000,000 points (the config's points, which every rank holds
  // once it has parsed it, come on top).
  const auto experiment = experiment_from(R"(
experiment: many-mazes
kernel: tiltmaze
driver: sweep
sweep:
  grid: {params.wall_density: {linspace: [0, 0.5, 1000]}}
)");
  EXPECT_EQ(
      RecordLayout(estimated_kernel("tiltmaze").binding<SweepSpec>()->record_fields).row_size(),
      2404U);
  const auto memory = estimate_run_memory(experiment, estimated_kernel("tiltmaze"),
                                          driver_of(experiment), 1, rows_with(1));
  EXPECT_EQ(memory.parts.front().cause,
            "the records of 1000 tasks per rank (1000 points x 1 replicate = 1000 tasks on 1 "
            "rank) and 2 copies made to write them");
  EXPECT_EQ(memory.parts.front().bytes, 3U * 1000 * 2404);
  EXPECT_EQ(memory.bytes, 1000U * (3 * 2404 + 88 + 16 + 112 + 2 * 16));
}

TEST(MemoryEstimate, GaRunByHand) {
  // 4 tasks on 2 ranks: 2 per rank. OneMax genomes are a std::vector<std::uint8_t> (24
  // bytes) and a byte per bit; evaluation rows fitness + ones (16 bytes), history rows
  // generation, best, mean, std, min + ones (48 bytes), best rows position, fitness +
  // ones (24 bytes) and the genome.
  static_assert(sizeof(std::vector<std::uint8_t>) == 24);
  const auto experiment = experiment_from(R"(
experiment: by-hand
kernel: onemax
driver: ga
params: {length: 100}
ga: {population: 10, generations: 3, keep_best: 2}
sweep: {replicates: 4}
)");
  const auto memory = estimate_run_memory(experiment, estimated_kernel("onemax"),
                                          driver_of(experiment), 2, rows_with(0));
  EXPECT_EQ(part_bytes(memory, "params.length = 100 bits"), 100U);  // one hill climb / genome
  EXPECT_EQ(part_bytes(memory, "ga.population = 10 x params.length"), 2U * 10 * (24 + 100));
  EXPECT_EQ(part_bytes(memory, "ga.population = 10 evaluation rows"), 10U * (2 * 16 + 8));
  // The largest of the rows written at the end, with its 4 copies made to write them.
  EXPECT_EQ(part_bytes(memory, "ga.generations = 3 history rows"),
            5U * 2 * (3 * 48 + 2 * (24 + 24 + 100)));
  EXPECT_EQ(part_bytes(memory, "the task list of 2 tasks per rank"), 2U * 88);
  EXPECT_EQ(part_bytes(memory, "the list of the 4 tasks to pull"), 4U * 16);
  EXPECT_EQ(part_bytes(memory, "the sweep's 1 point"),
            112U + ga_point_bytes + 16U);  // two 8-byte fields
  EXPECT_EQ(memory.bytes, 100U + 2480 + 400 + 4400 + 176 + 64 + 264);
  EXPECT_EQ(memory.parts.front().cause,
            "ga.generations = 3 history rows and ga.keep_best = 2 genomes for 2 tasks per rank "
            "(1 point x 4 replicates = 4 tasks on 2 ranks) and 4 copies made to write them");
}

TEST(MemoryEstimate, SweepRunByHandAndTheLargestPointWins) {
  // 2 points x 5 replicates = 10 tasks on 3 ranks: 4 per rank; a record is 3 ints.
  const auto experiment = experiment_from(R"(
experiment: by-hand
kernel: onemax
driver: sweep
sweep:
  grid: {params.length: [100, 1000]}
  replicates: 5
)");
  const auto memory = estimate_run_memory(experiment, estimated_kernel("onemax"),
                                          driver_of(experiment), 3, rows_with(1));
  EXPECT_EQ(part_bytes(memory, "params.length = 1000 bits"), 1000U);
  // The task log (larger than the records) with its 4 copies made to write them.
  EXPECT_EQ(part_bytes(memory, "the task list of 4 tasks per rank"), 5U * 4 * 88);
  EXPECT_EQ(memory.bytes, 1000U + 4 * 24 + 5 * 4 * 88 + 10 * 16 + 2 * (112 + 2 * 16));
}

TEST(MemoryEstimate, QdArchivesAreCountedOnceThePointsAreChecked) {
  // 9 cells (qd.bins 3 for OneMax's two measures); 2 tasks on 1 rank.
  const auto experiment = experiment_from(R"(
experiment: cells
kernel: onemax
driver: qd
params: {length: 20}
qd: {bins: 3, iterations: 4}
sweep: {replicates: 2}
)");
  const auto& onemax = estimated_kernel("onemax");
  const auto before =
      estimate_run_memory(experiment, onemax, driver_of(experiment), 1, rows_with(0));
  for (const auto& part : before.parts)
    EXPECT_EQ(part.cause.find("archive cells"), std::string::npos);
  PointFacts facts;
  facts.axes =
      measure_axes(QdSettings::from(experiment.points[0].driver),
                   onemax.binding<QdSpec>()->make(experiment.points[0].params)->measures());
  const std::vector<PointFacts> checked{facts};
  const auto after =
      estimate_run_memory(experiment, onemax, driver_of(experiment), 1, rows_with(0), &checked);
  const auto archive_row =
      qd_archive_layout(onemax.binding<QdSpec>()->evaluation_fields, facts.axes).row_size();
  const auto genome = 24U + 20;
  EXPECT_EQ(part_bytes(after, "9 archive cells (qd.bins) of the task in progress"),
            9 * (genome + archive_row));
  EXPECT_GT(after.bytes, before.bytes + 9 * (genome + archive_row));
}

TEST(MemoryEstimate, ExhaustiveChunksAreCountedOnceThePointsAreChecked) {
  // Indices [10, 95) of 100 in chunks of 20: 5 chunks per task, 2 tasks.
  const auto experiment = experiment_from(R"(
experiment: chunks
kernel: collatz
driver: exhaustive
params: {count: 100}
exhaustive: {begin: 10, end: 95, chunk: 20}
sweep: {replicates: 2}
)");
  PointFacts facts;
  facts.index_count = 100;
  const std::vector<PointFacts> checked{facts};
  const auto memory = estimate_run_memory(experiment, estimated_kernel("collatz"),
                                          driver_of(experiment), 2, rows_with(0), &checked);
  EXPECT_EQ(part_bytes(memory, "the list of the 10 chunks to pull, on every rank"), 10U * 16);
  // Every rank's task log and plan of every task: its row, range, seconds and indices.
  EXPECT_EQ(part_bytes(memory, "the task list of 2 tasks"), 2U * (88 + 5 * 8 + 3 * 8));
}

TEST(MemoryEstimate, HugeSweepsSaturateInsteadOfWrapping) {
  const auto experiment = experiment_from(R"(
experiment: huge
kernel: onemax
driver: sweep
sweep: {replicates: 9223372036854775807}
)");
  const auto memory = estimate_run_memory(experiment, estimated_kernel("onemax"),
                                          driver_of(experiment), 1, rows_with(0));
  EXPECT_EQ(memory.bytes, std::numeric_limits<std::uint64_t>::max());
}

TEST(MemoryEstimate, FormatsBytesInBinaryUnits) {
  EXPECT_EQ(format_bytes(1), "1 byte");
  EXPECT_EQ(format_bytes(512), "512 bytes");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(37ULL << 30), "37 GiB");
  EXPECT_EQ(format_bytes(std::numeric_limits<std::uint64_t>::max()), "16 EiB");
}

TEST(MemoryEstimate, ProblemNamesTheCauseTheNeedAndWhatIsAvailable) {
  const RunMemory needed{37ULL << 30,
                         {{"params.width x params.height = 1000000000 cells", 20ULL << 30},
                          {"the task list", 17ULL << 30}}};
  EXPECT_EQ(memory_problem(needed, {23ULL << 30, "MemAvailable in /proc/meminfo"}, 1),
            "params.width x params.height = 1000000000 cells: the run needs about 37 GiB per "
            "rank (20 GiB of it for this), 23 GiB are available (MemAvailable in /proc/meminfo)");
  EXPECT_EQ(memory_problem(needed, {64ULL << 30, "MemAvailable in /proc/meminfo"}, 2),
            "params.width x params.height = 1000000000 cells: the run needs about 37 GiB per "
            "rank (20 GiB of it for this), 64 GiB are available (MemAvailable in /proc/meminfo, "
            "32 GiB for each of the 2 ranks on this host)");
  EXPECT_EQ(memory_problem(needed, {74ULL << 30, "MemAvailable"}, 2), "");
  // A part that is nearly the whole need is not repeated.
  const RunMemory one_part{
      100ULL << 30,
      {{"ga.population = 10000000 genomes", 95ULL << 30}, {"the task list", 5ULL << 30}}};
  EXPECT_EQ(memory_problem(one_part, {1ULL << 30, "MemAvailable"}, 1),
            "ga.population = 10000000 genomes: the run needs about 100 GiB per rank, 1.0 GiB are "
            "available (MemAvailable)");
}

TEST(MemoryEstimate, AvailableIsTheSmallerOfMemAvailableAndTheCgroupRoom) {
  const auto folder =
      std::filesystem::temp_directory_path() / ("levelforge-memory-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto write = [&](const char* name, const char* text) {
    std::ofstream(folder / name) << text;
    return (folder / name).string();
  };
  const auto meminfo = write("meminfo", "MemTotal:       4096 kB\nMemAvailable:   2048 kB\n");
  const auto unlimited = write("max_unlimited", "max\n");
  const auto limit = write("max", "1048576\n");
  const auto current = write("current", "524288\n");
  const auto missing = (folder / "missing").string();

  const auto from_meminfo = available_memory(meminfo, unlimited, current);
  ASSERT_TRUE(from_meminfo);
  EXPECT_EQ(from_meminfo->bytes, 2048U * 1024);
  EXPECT_EQ(from_meminfo->source, "MemAvailable in " + meminfo);
  const auto from_cgroup = available_memory(meminfo, limit, current);
  ASSERT_TRUE(from_cgroup);
  EXPECT_EQ(from_cgroup->bytes, 1048576U - 524288);
  EXPECT_EQ(available_memory(missing, missing, missing), std::nullopt);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace levelforge
