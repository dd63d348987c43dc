// runner/mpi under 1, 2 and 3 ranks.
#include "runner/mpi/mpi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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

TEST(Comm, TreeReduceGivesEveryRankTheMergeOfAll) {
  const auto world = Comm::world();
  // Each rank's rank number, twice; the merge keeps the parts sorted, whatever their order.
  std::vector<std::byte> mine(2, std::byte(world.rank()));
  int merges = 0;
  const auto merged = world.tree_reduce_bytes(
      mine, [&](std::vector<std::byte> own, std::span<const std::byte> received) {
        ++merges;
        own.insert(own.end(), received.begin(), received.end());
        std::sort(own.begin(), own.end());
        return own;
      });
  ASSERT_EQ(merged.size(), 2 * static_cast<std::size_t>(world.size()));
  for (int r = 0; r < world.size(); ++r) {
    EXPECT_EQ(merged[2 * static_cast<std::size_t>(r)], std::byte(r));
    EXPECT_EQ(merged[2 * static_cast<std::size_t>(r) + 1], std::byte(r));
  }
  // A binomial tree: rank 0 merges ceil(log2 P) times, odd ranks never.
  int expected = 0;
  for (int step = 1; step < world.size(); step *= 2) {
    if ((world.rank() & step) != 0) break;
    if (world.rank() + step < world.size()) ++expected;
  }
  EXPECT_EQ(merges, expected);
}

TEST(Comm, SparseExchangeDeliversOnlyWhatWasSentInOrder) {
  const auto world = Comm::world();
  const int me = world.rank();
  const int ranks = world.size();
  // Rank r sends two messages to r + 1 (wrapping) and one to itself; rank 0 sends nothing.
  std::vector<Comm::Message> messages;
  if (me != 0) {
    const int next = (me + 1) % ranks;
    messages.emplace_back(next, std::vector<std::byte>{std::byte(me), std::byte{1}});
    messages.emplace_back(next, std::vector<std::byte>{std::byte(me), std::byte{2}});
    messages.emplace_back(me, std::vector<std::byte>(3, std::byte{9}));
  }
  const auto received = world.sparse_exchange(messages);
  std::vector<Comm::Message> expected;
  const int previous = (me + ranks - 1) % ranks;
  const auto add_from_previous = [&] {
    if (previous == 0) return;
    expected.emplace_back(previous, std::vector<std::byte>{std::byte(previous), std::byte{1}});
    expected.emplace_back(previous, std::vector<std::byte>{std::byte(previous), std::byte{2}});
  };
  const auto add_own = [&] {
    if (me != 0) expected.emplace_back(me, std::vector<std::byte>(3, std::byte{9}));
  };
  if (previous < me) {
    add_from_previous();
    add_own();
  } else {
    add_own();
    add_from_previous();
  }
  EXPECT_EQ(received, expected);
  // A second exchange right after meets none of the first's messages.
  EXPECT_TRUE(world.sparse_exchange({}).empty());
}

TEST(Comm, ExclusiveScanSum) {
  const auto world = Comm::world();
  const auto before = world.exclusive_scan_sum(world.rank() + 1);
  EXPECT_EQ(before, std::int64_t{world.rank()} * (world.rank() + 1) / 2);
}

TEST(Environment, ThreadLevelAndLibrary) {
  // mpi_test_main asks for MPI_THREAD_MULTIPLE, as mpi::Environment does.
  EXPECT_EQ(thread_level(), "multiple");
  EXPECT_FALSE(library_version().empty());
  EXPECT_EQ(library_version().find('\n'), std::string::npos);
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
