// ChunkPlan: chunk ids over all tasks, hand-computed.

#include "runner/drivers/chunk_plan.hpp"

#include <gtest/gtest.h>

#include "runner/config/experiment.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {
namespace {

// collatz (a test kernel) over [begin, end) in chunks of `chunk`, two replicates.
config::Experiment collatz_run(const std::string& exhaustive) {
  return config::parse_experiment(
      "experiment: plan\nkernel: collatz\ndriver: exhaustive\nparams:\n  count: 100\n"
      "exhaustive:\n" +
          exhaustive + "sweep:\n  replicates: 2\n",
      "plan.yaml", {}, config_schema());
}

TEST(ChunkPlans, ChunkIdsRunOverTheTasksInOrder) {
  const auto experiment = collatz_run("  begin: 10\n  end: 35\n  chunk: 10\n");
  std::vector<std::unique_ptr<ExhaustiveModel>> models;
  models.push_back(find_kernel("collatz")->exhaustive->make(experiment.points[0].params));
  const ChunkPlan plan(experiment, models);
  // Each task visits [10, 35): chunks [10, 20), [20, 30), [30, 35).
  EXPECT_EQ(plan.task_count(), 2U);
  EXPECT_EQ(plan.chunk_count(), 6U);
  EXPECT_EQ(plan.task_of(0), 0U);
  EXPECT_EQ(plan.task_of(2), 0U);
  EXPECT_EQ(plan.task_of(3), 1U);
  EXPECT_EQ(plan.task_of(5), 1U);
  EXPECT_EQ(plan.bounds(2).begin, 30U);
  EXPECT_EQ(plan.bounds(2).end, 35U);
  EXPECT_EQ(plan.bounds(4).begin, 20U);
  EXPECT_EQ(plan.bounds(4).end, 30U);
  EXPECT_EQ(plan.range(1).first_chunk, 3U);
  EXPECT_EQ(plan.chunk_of(1, 10), 3U);
  EXPECT_EQ(plan.chunk_of(1, 29), 4U);
  EXPECT_EQ(plan.chunk_of(1, 34), 5U);
}

TEST(ChunkPlans, EveryIndexIsInTheChunkThatHoldsIt) {
  const auto experiment = collatz_run("  begin: 3\n  end: 97\n  chunk: 7\n");
  std::vector<std::unique_ptr<ExhaustiveModel>> models;
  models.push_back(find_kernel("collatz")->exhaustive->make(experiment.points[0].params));
  const ChunkPlan plan(experiment, models);
  std::uint64_t indices = 0;
  for (std::uint64_t chunk = 0; chunk < plan.chunk_count(); ++chunk) {
    const auto task = plan.task_of(chunk);
    const auto [begin, end] = plan.bounds(chunk);
    ASSERT_LT(begin, end);
    for (auto index = begin; index < end; ++index) ASSERT_EQ(plan.chunk_of(task, index), chunk);
    indices += end - begin;
  }
  EXPECT_EQ(indices, 2U * (97 - 3));
}

}  // namespace
}  // namespace levelforge
