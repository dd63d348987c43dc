// runner/mpi under 1, 2 and 3 ranks.
#include "runner/mpi/mpi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace levelforge::mpi {
namespace {

// A duplicate is a collective, so it is spelled out: a Comm cannot be copied.
static_assert(!std::is_copy_constructible_v<Comm> && !std::is_copy_assignable_v<Comm>);

TEST(Comm, DupDuplicatesAndMoveLeavesNull) {
  const auto world = Comm::world();
  Comm copy = world.dup();
  int relation = MPI_UNEQUAL;
  MPI_Comm_compare(world.native(), copy.native(), &relation);
  EXPECT_EQ(relation, MPI_CONGRUENT);
  Comm moved(std::move(copy));
  // NOLINTNEXTLINE(bugprone-use-after-move): the moved-from state is the contract under test
  EXPECT_EQ(copy.native(), MPI_COMM_NULL);
  EXPECT_EQ(moved.size(), world.size());
}

TEST(Comm, DupOfASplitKeepsItsGroup) {
  const auto world = Comm::world();
  const Comm half = world.split(world.rank() % 2, world.rank());
  const Comm copy = half.dup();
  int relation = MPI_UNEQUAL;
  MPI_Comm_compare(half.native(), copy.native(), &relation);
  EXPECT_EQ(relation, MPI_CONGRUENT);
  EXPECT_EQ(copy.rank(), half.rank());
}

TEST(Comm, WorldSurvivesItsHandles) {
  { const auto world = Comm::world(); }
  int size = 0;
  EXPECT_EQ(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_SUCCESS);
  EXPECT_EQ(size, Comm::world().size());
}

TEST(Comm, SplitGroupsByColor) {
  const auto world = Comm::world();
  const auto half = world.split(world.rank() % 2, world.rank());
  const int expected = (world.size() + 1 - world.rank() % 2) / 2;
  EXPECT_EQ(half.size(), expected);
  EXPECT_EQ(half.rank(), world.rank() / 2);
}

TEST(Comm, BroadcastString) {
  const auto world = Comm::world();
  const std::string sent("levelforge: \xc3\xbcn\0embedded nul", 27);
  std::string text = world.rank() == 0 ? sent : "";
  world.broadcast(text, 0);
  EXPECT_EQ(text, sent);
}

TEST(Verdicts, RootVerdictRunsOnRankZeroAndSharesWhatItThrew) {
  const auto world = Comm::world();
  int calls = 0;
  EXPECT_EQ(root_verdict(world, [&] { ++calls; }), "");
  EXPECT_EQ(calls, world.rank() == 0 ? 1 : 0);
  EXPECT_EQ(root_verdict(world, [] { throw std::runtime_error("disk full"); }), "disk full");
}

TEST(Verdicts, AllProblemsListsEveryRanksOwnInRankOrder) {
  const auto world = Comm::world();
  EXPECT_EQ(all_problems(world, ""), "");
  const auto odd = world.rank() % 2 == 1 ? "rank " + std::to_string(world.rank()) : "";
  std::string expected;
  for (int rank = 1; rank < world.size(); rank += 2) {
    expected += (expected.empty() ? "rank " : "\nrank ") + std::to_string(rank);
  }
  EXPECT_EQ(all_problems(world, odd), expected);
}

TEST(Comm, AllReduceSums) {
  const auto world = Comm::world();
  std::vector<std::int64_t> values{world.rank(), 1, std::int64_t{-2} * world.rank()};
  world.all_reduce_sum(values);
  const std::int64_t ranks = world.size();
  EXPECT_EQ(values[0], ranks * (ranks - 1) / 2);
  EXPECT_EQ(values[1], ranks);
  EXPECT_EQ(values[2], -ranks * (ranks - 1));
  EXPECT_EQ(world.all_reduce_max(static_cast<double>(world.rank())),
            static_cast<double>(ranks - 1));
}

TEST(Comm, AllGatherUnevenContributions) {
  const auto world = Comm::world();
  // Rank r contributes r bytes of value r.
  std::vector<std::byte> local(static_cast<std::size_t>(world.rank()), std::byte(world.rank()));
  std::vector<int> lengths;
  const auto gathered = world.all_gather_bytes(local, &lengths);
  std::size_t offset = 0;
  for (int r = 0; r < world.size(); ++r) {
    EXPECT_EQ(lengths[static_cast<std::size_t>(r)], r);
    for (int i = 0; i < r; ++i) EXPECT_EQ(gathered[offset++], std::byte(r));
  }
  EXPECT_EQ(offset, gathered.size());
}

TEST(Comm, AllGatherIntoChecksTheTotal) {
  const auto world = Comm::world();
  std::vector<std::byte> local(2, std::byte{7});
  std::vector<std::byte> too_small(static_cast<std::size_t>(world.size()));
  EXPECT_THROW(world.all_gather_into(local, too_small), MpiError);
}

TEST(Comm, AllGatherStrings) {
  const auto world = Comm::world();
  const auto names = world.all_gather_strings("rank-" + std::to_string(world.rank()));
  ASSERT_EQ(names.size(), static_cast<std::size_t>(world.size()));
  for (int r = 0; r < world.size(); ++r)
    EXPECT_EQ(names[static_cast<std::size_t>(r)], "rank-" + std::to_string(r));
}

TEST(SharedCounters, EveryItemIsHandedOutExactlyOnce) {
  const auto world = Comm::world();
  constexpr std::int64_t items = 1000;
  std::vector<std::int64_t> taken_by_me(items, 0);
  {
    SharedCounters counters(world, 2);
    for (auto item = counters.fetch_add(0, 1); item < items; item = counters.fetch_add(0, 1)) {
      ++taken_by_me[static_cast<std::size_t>(item)];
      counters.fetch_add(1, 10);
    }
    world.barrier();
    EXPECT_EQ(counters.read(1), 10 * items);
    // Every rank asked once past the end.
    EXPECT_EQ(counters.read(0), items + world.size());
    counters.free();
    counters.free();  // a second free does nothing
  }
  world.all_reduce_sum(taken_by_me);
  EXPECT_TRUE(
      std::all_of(taken_by_me.begin(), taken_by_me.end(), [](std::int64_t n) { return n == 1; }));
}

TEST(Check, NamesTheCallAndMpisMessage) {
  try {
    check(MPI_ERR_COUNT, "MPI_Send");
    FAIL() << "expected MpiError";
  } catch (const MpiError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("MPI_Send failed"), std::string::npos);
    EXPECT_NE(message.find("count"), std::string::npos);
  }
}

}  // namespace
}  // namespace levelforge::mpi
