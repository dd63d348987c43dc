// runner/drivers/work_queue.hpp under 1, 2 and 3 ranks: for both counter hosts and both claim
// policies every position is handed out once, the finished counts add up, guided claims
// need far fewer requests than positions, and a stop reaches every rank.
#include "runner/drivers/work_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <tuple>
#include <vector>

namespace levelforge {
namespace work_queue_test {

using Options = std::tuple<mpi::CounterHost, ClaimBatches>;

class EveryOption : public ::testing::TestWithParam<Options> {
 protected:
  [[nodiscard]] QueueOptions options() const {
    return {std::get<0>(GetParam()), std::get<1>(GetParam())};
  }
};

TEST_P(EveryOption, EveryPositionOnceAndTheCountsAddUp) {
  const auto world = mpi::Comm::world();
  constexpr std::uint64_t count = 2000;
  IdleClock idle;
  std::vector<std::int64_t> taken(count, 0);
  WorkQueue queue(world, count, idle, {5, 7}, options());
  std::uint64_t mine = 0;
  for (auto position = queue.next(); position < queue.count(); position = queue.next()) {
    ++taken[position];
    ++mine;
    queue.finished(1, 3);
  }
  EXPECT_FALSE(queue.stopped());
  // Every rank's counts are in once all have left the loop.
  world.barrier();
  EXPECT_EQ(queue.items_done(), 5 + count);
  EXPECT_EQ(queue.units_done(), 7 + 3 * count);
  EXPECT_EQ(queue.total(), 5 + count);
  std::vector<std::int64_t> requests{static_cast<std::int64_t>(queue.requests())};
  world.all_reduce_sum(requests);
  if (std::get<1>(GetParam()) == ClaimBatches::single) {
    EXPECT_GT(requests.front(), static_cast<std::int64_t>(count));
  } else {
    // Instant items: batches of what remains / (2 x ranks), so each rank makes O(log count)
    // claims (2 x ranks x ln(count / ranks) in all), the last ones single.
    const auto log2_count = static_cast<std::int64_t>(std::bit_width(count));
    EXPECT_LT(requests.front(), std::int64_t{4} * world.size() * log2_count) << requests.front();
  }
  queue.close();
  world.all_reduce_sum(taken);
  EXPECT_TRUE(std::all_of(taken.begin(), taken.end(), [](std::int64_t n) { return n == 1; }));
}

TEST_P(EveryOption, AStopReachesEveryRankAndEndsTheHandOut) {
  const auto world = mpi::Comm::world();
  constexpr std::uint64_t count = 100000;
  IdleClock idle;
  WorkQueue queue(world, count, idle, {}, options());
  std::vector<std::int64_t> handed{0};
  if (world.rank() == 0) {
    (void)queue.next();
    queue.stop();
    EXPECT_EQ(queue.next(), count);
  }
  // The other ranks learn of the stop at their next request; their batches were at most
  // what they claimed before it.
  world.barrier();
  for (auto position = queue.next(); position < queue.count(); position = queue.next()) {
    ++handed.front();
  }
  EXPECT_TRUE(queue.stopped());
  world.all_reduce_sum(handed);
  EXPECT_LT(handed.front(), static_cast<std::int64_t>(count));
  queue.close();
}

// Hand-computed: 1000 positions, 2 ranks.
TEST(GuidedBatch, AFourthOfWhatRemainsAsEstimatedAtMostAQuarterSecondAtLeastOne) {
  // The first batch after one item of 1 ms, seen 1 just now: 999 / 4.
  EXPECT_EQ(guided_batch({1000, 1, 2}, {1, 0.001}, 0.0), 249U);
  // 100 items in 10 ms, seen 300 that long ago: the other rank took about 100 more, so
  // 600 remain: 150 (from the view alone, 700 / 4 = 175).
  EXPECT_EQ(guided_batch({1000, 300, 2}, {100, 0.010}, 0.010), 150U);
  // On 3 ranks the two others took 200: 500 / 6.
  EXPECT_EQ(guided_batch({1000, 300, 3}, {100, 0.010}, 0.010), 83U);
  // Slow items: a quarter second's worth, 0.25 / 0.01 = 25.
  EXPECT_EQ(guided_batch({1000, 300, 2}, {10, 0.1}, 0.0), 25U);
  // Items slower than a quarter second, or a queue estimated empty: single items.
  EXPECT_EQ(guided_batch({1000, 300, 2}, {1, 0.5}, 0.0), 1U);
  EXPECT_EQ(guided_batch({1000, 900, 2}, {100, 0.010}, 0.010), 1U);
  // No pace known yet: from the view alone.
  EXPECT_EQ(guided_batch({1000, 200, 2}, {0, 0.0}, 1.0), 200U);
}

INSTANTIATE_TEST_SUITE_P(
    WorkQueue, EveryOption,
    ::testing::Combine(::testing::Values(mpi::CounterHost::automatic, mpi::CounterHost::server,
                                         mpi::CounterHost::window),
                       ::testing::Values(ClaimBatches::guided, ClaimBatches::single)),
    [](const ::testing::TestParamInfo<Options>& options) {
      return std::string(mpi::counter_host_name(std::get<0>(options.param))) + "_" +
             std::string(claim_batches_name(std::get<1>(options.param)));
    });

}  // namespace work_queue_test
}  // namespace levelforge
