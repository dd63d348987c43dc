// ChunkPlan: chunk ids over all tasks, hand-computed.

#include "runner/drivers/exhaustive/chunk_plan.hpp"

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

ChunkPlan plan_of(const config::Experiment& experiment) {
  PointFacts facts;
  facts.index_count = find_kernel("collatz")
                          ->binding<ExhaustiveSpec>()
                          ->make(experiment.points[0].params)
                          ->index_count();
  return {experiment, {facts}};
}

TEST(ChunkPlans, ChunkIdsRunOverTheTasksInOrder) {
  const auto plan = plan_of(collatz_run("  begin: 10\n  end: 95\n  chunk: 20\n"));
  // Task 0 visits [10, 95): chunks [10, 30), [30, 50), [50, 70), [70, 90), [90, 95).
  // Task 1, the last, ends in a tail: [10, 30), [30, 50), then from 50 chunks of 10, 5, 2
  // (20 / 2, / 4, / 8), then of 1 (20 / 16, at least 1): [50, 60), [60, 65), [65, 67),
  // [67, 68) ... [94, 95).
  EXPECT_EQ(plan.task_count(), 2U);
  EXPECT_EQ(plan.chunk_count(), 5U + 2U + 3U + 28U);
  EXPECT_EQ(plan.task_of(0), 0U);
  EXPECT_EQ(plan.task_of(4), 0U);
  EXPECT_EQ(plan.task_of(5), 1U);
  EXPECT_EQ(plan.task_of(37), 1U);
  EXPECT_EQ(plan.bounds(4).begin, 90U);
  EXPECT_EQ(plan.bounds(4).end, 95U);
  EXPECT_EQ(plan.bounds(6).begin, 30U);
  EXPECT_EQ(plan.bounds(6).end, 50U);
  EXPECT_EQ(plan.bounds(7).begin, 50U);
  EXPECT_EQ(plan.bounds(7).end, 60U);
  EXPECT_EQ(plan.bounds(8).begin, 60U);
  EXPECT_EQ(plan.bounds(8).end, 65U);
  EXPECT_EQ(plan.bounds(9).begin, 65U);
  EXPECT_EQ(plan.bounds(9).end, 67U);
  EXPECT_EQ(plan.bounds(10).begin, 67U);
  EXPECT_EQ(plan.bounds(10).end, 68U);
  EXPECT_EQ(plan.bounds(37).begin, 94U);
  EXPECT_EQ(plan.bounds(37).end, 95U);
  EXPECT_EQ(plan.range(1).first_chunk, 5U);
  EXPECT_EQ(plan.range(0).tail_begin, 95U);  // no tail
  EXPECT_EQ(plan.range(1).tail_begin, 50U);
  EXPECT_EQ(plan.chunk_of(0, 94), 4U);
  EXPECT_EQ(plan.chunk_of(1, 10), 5U);
  EXPECT_EQ(plan.chunk_of(1, 49), 6U);
  EXPECT_EQ(plan.chunk_of(1, 50), 7U);
  EXPECT_EQ(plan.chunk_of(1, 64), 8U);
  EXPECT_EQ(plan.chunk_of(1, 66), 9U);
  EXPECT_EQ(plan.chunk_of(1, 94), 37U);
}

// A last task of at most two chunks is all tail; sixteenths of a large chunk.
TEST(ChunkPlans, ATailOfSixteenthsAfterHalves) {
  const auto plan = plan_of(collatz_run("  begin: 0\n  end: 100\n  chunk: 64\n"));
  // Task 1: [0, 32), [32, 48), [48, 56), [56, 60), then of 4 (64 / 16) up to 100.
  EXPECT_EQ(plan.chunk_count(), 2U + 4U + 10U);
  EXPECT_EQ(plan.range(1).tail_begin, 0U);
  EXPECT_EQ(plan.bounds(2).end, 32U);
  EXPECT_EQ(plan.bounds(5).begin, 56U);
  EXPECT_EQ(plan.bounds(5).end, 60U);
  EXPECT_EQ(plan.bounds(15).begin, 96U);
  EXPECT_EQ(plan.bounds(15).end, 100U);
}

TEST(ChunkPlans, EveryIndexIsInTheChunkThatHoldsIt) {
  for (const auto* size : {"7", "1", "50", "94", "200"}) {
    const auto plan =
        plan_of(collatz_run(std::string("  begin: 3\n  end: 97\n  chunk: ") + size + "\n"));
    std::uint64_t indices = 0;
    std::uint64_t next = 3;
    for (std::uint64_t chunk = 0; chunk < plan.chunk_count(); ++chunk) {
      const auto task = plan.task_of(chunk);
      const auto [begin, end] = plan.bounds(chunk);
      ASSERT_LT(begin, end) << chunk;
      ASSERT_EQ(begin, next == 97 ? 3 : next) << "chunk " << chunk << " of size " << size;
      for (auto index = begin; index < end; ++index) ASSERT_EQ(plan.chunk_of(task, index), chunk);
      indices += end - begin;
      next = end;
    }
    EXPECT_EQ(indices, 2U * (97 - 3)) << "chunks of " << size;
  }
}

}  // namespace
}  // namespace levelforge
