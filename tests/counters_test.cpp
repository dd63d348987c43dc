// runner/mpi/counters under 1, 2 and 3 ranks: each host hands out every value once and adds
// up what every rank adds; the server answers while rank 0 makes no MPI call at all; auto
// picks the window on one node where its atomics progress.
#include "runner/mpi/counters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace levelforge::mpi {
namespace counters_test {

class EachHost : public ::testing::TestWithParam<CounterHost> {};

TEST_P(EachHost, EveryValueIsHandedOutOnceAndTheSumsAddUp) {
  const auto world = Comm::world();
  constexpr std::int64_t items = 600;
  std::vector<std::int64_t> taken_by_me(items, 0);
  {
    const auto counters = make_counters(world, 2, GetParam());
    const std::array<std::int64_t, 2> claim{1, 10};
    for (auto item = counters->fetch_add(claim)[0]; item < items;
         item = counters->fetch_add(claim)[0]) {
      ++taken_by_me[static_cast<std::size_t>(item)];
    }
    world.barrier();
    const auto totals = counters->fetch_add(std::array<std::int64_t, 2>{0, 0});
    // Every rank asked once past the end, and each request added 10.
    EXPECT_EQ(totals[0], items + world.size());
    EXPECT_EQ(totals[1], 10 * (items + world.size()));
    EXPECT_FALSE(counters->description().empty());
    world.barrier();
    counters->free();
    counters->free();  // a second free does nothing
  }
  world.all_reduce_sum(taken_by_me);
  EXPECT_TRUE(
      std::all_of(taken_by_me.begin(), taken_by_me.end(), [](std::int64_t n) { return n == 1; }));
}

// Rank 0 waits for the other ranks' additions by reading its own counters, which is no MPI
// call with the server: they can only arrive through its thread. Without progress apart from
// rank 0's calls this would never end (and CTest's timeout would fail it).
TEST(ServedCounters, AnswerWhileRankZeroMakesNoMpiCall) {
  const auto world = Comm::world();
  ServedCounters counters(world, 1);
  const std::array<std::int64_t, 1> one{1};
  const std::array<std::int64_t, 1> none{0};
  if (world.rank() == 0) {
    while (counters.fetch_add(none)[0] < world.size() - 1) {
    }
    EXPECT_EQ(counters.fetch_add(none)[0], world.size() - 1);
  } else {
    (void)counters.fetch_add(one);
  }
  counters.free();
}

TEST_P(EachHost, RefuseAWrongNumberOfAmounts) {
  const auto world = Comm::world();
  const auto counters = make_counters(world, 2, GetParam());
  EXPECT_THROW((void)counters->fetch_add(std::array<std::int64_t, 1>{1}), MpiError);
  counters->free();
}

// The test runs on one node: auto takes the window where its atomics need no rank 0
// (osc/sm), and the server where there is nothing to share (one rank) or the window needs
// rank 0 or cannot be made (osc/pt2pt, as the TCP registration forces).
TEST(CounterHost, AutoTakesTheWindowOnOneNodeWhereItsAtomicsProgress) {
  const auto world = Comm::world();
  ASSERT_TRUE(world.on_one_node());
  const auto counters = make_counters(world, 2, CounterHost::automatic);
  const auto description = counters->description();
  std::unique_ptr<WindowCounters> window;
  try {
    if (world.size() > 1) window = std::make_unique<WindowCounters>(world, 1, true);
  } catch (const MpiError&) {
    // no window here (osc/pt2pt under MPI_THREAD_MULTIPLE)
  }
  const bool window_progresses = window && window->passive();
  if (window) window->free();
  if (window_progresses) {
    EXPECT_NE(description.find("one-sided window"), std::string::npos) << description;
  } else {
    EXPECT_NE(description.find("server thread"), std::string::npos) << description;
  }
  counters->free();
}

// On one node the window is in shared memory (osc/sm) unless the run forces another
// component (the TCP registration's osc/pt2pt), and both the shared and the general window
// (made as if the ranks were on several nodes; Open MPI may still pick osc/sm for it, as it
// does on one rank) hand out every value once.
TEST(WindowCounters, OnOneNodeInSharedMemoryWhereOscSmIsThere) {
  const auto world = Comm::world();
  ASSERT_TRUE(world.on_one_node());
  const bool osc_forced = std::getenv("OMPI_MCA_osc") != nullptr;
  for (const bool one_node : {true, false}) {
    std::unique_ptr<WindowCounters> window;
    try {
      window = std::make_unique<WindowCounters>(world, 1, one_node);
    } catch (const MpiError&) {
      ASSERT_TRUE(osc_forced) << "no window, one_node " << one_node;  // osc/pt2pt refused
      continue;
    }
    if (one_node && !osc_forced) {
      EXPECT_EQ(window->component(), "sm");
    }
    std::vector<std::int64_t> taken(static_cast<std::size_t>(world.size()) * 50, 0);
    for (int i = 0; i < 50; ++i)
      ++taken[static_cast<std::size_t>(window->fetch_add(std::array<std::int64_t, 1>{1})[0])];
    world.all_reduce_sum(taken);
    EXPECT_TRUE(std::all_of(taken.begin(), taken.end(), [](std::int64_t n) { return n == 1; }));
    world.barrier();
    window->free();
  }
}

TEST(CounterHost, NamesRoundTripAndUnknownIsRefused) {
  EXPECT_EQ(parse_counter_host("server"), CounterHost::server);
  EXPECT_EQ(parse_counter_host("auto"), CounterHost::automatic);
  EXPECT_EQ(parse_counter_host(counter_host_name(CounterHost::window)), CounterHost::window);
  try {
    (void)parse_counter_host("tree");
    FAIL() << "expected MpiError";
  } catch (const MpiError& error) {
    EXPECT_NE(std::string(error.what()).find("'tree'"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Counters, EachHost,
                         ::testing::Values(CounterHost::automatic, CounterHost::server,
                                           CounterHost::window),
                         [](const ::testing::TestParamInfo<CounterHost>& host) {
                           return std::string(counter_host_name(host.param));
                         });

}  // namespace counters_test
}  // namespace levelforge::mpi
