// runner/output/row_exchange under 1, 2 and 3 ranks.
#include "runner/output/row_exchange.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace levelforge {
namespace {

// Row r is 3 bytes: r % 251, then rank-independent markers.
std::vector<std::byte> row_bytes_of(std::uint64_t row) {
  return {std::byte(row % 251), std::byte{0xAB}, std::byte(row % 7)};
}

std::vector<int> all_ranks(int ranks) {
  std::vector<int> writers(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) writers[static_cast<std::size_t>(r)] = r;
  return writers;
}

// Every writer ends with its slice of the rows, however many of the ranks write.
void expect_slices_in_order(const std::vector<int>& writers) {
  const auto world = mpi::Comm::world();
  const auto ranks = static_cast<std::uint64_t>(world.size());
  const auto me = static_cast<std::uint64_t>(world.rank());
  constexpr std::uint64_t row_count = 1000;
  // Rows dealt out like a work queue would: scattered, in decreasing order on odd ranks.
  std::vector<std::uint64_t> rows;
  for (std::uint64_t row = me; row < row_count; row += ranks) rows.push_back(row);
  if (me % 2 == 1) std::reverse(rows.begin(), rows.end());
  std::vector<std::byte> data;
  for (auto row : rows) {
    const auto bytes = row_bytes_of(row);
    data.insert(data.end(), bytes.begin(), bytes.end());
  }

  const auto owned = exchange_rows(world, writers, row_count, 3, rows, data);

  const auto slot = std::find(writers.begin(), writers.end(), world.rank());
  if (slot == writers.end()) {
    EXPECT_TRUE(owned.runs.empty());
    EXPECT_EQ(owned.data.size(), 0U);
    return;
  }
  const auto slice = static_cast<std::uint64_t>(slot - writers.begin());
  const auto first = row_count * slice / writers.size();
  const auto last = row_count * (slice + 1) / writers.size();
  ASSERT_EQ(owned.runs.size(), 1U);
  EXPECT_EQ(owned.runs.front(), std::make_pair(first, last - first));
  ASSERT_EQ(owned.data.size(), (last - first) * 3);
  for (auto row = first; row < last; ++row) {
    const auto expected = row_bytes_of(row);
    EXPECT_EQ(std::memcmp(owned.data.bytes().data() + (row - first) * 3, expected.data(), 3), 0)
        << row;
  }
}

TEST(ExchangeRows, EveryRankWritingEndsWithItsContiguousSliceInOrder) {
  expect_slices_in_order(all_ranks(mpi::Comm::world().size()));
}

TEST(ExchangeRows, OneWriterEndsWithEveryRowInOrder) { expect_slices_in_order({0}); }

// Writers named out of rank order own the slices in the order named: the last rank first.
TEST(ExchangeRows, WritersOwnSlicesInTheOrderNamed) {
  auto writers = all_ranks(mpi::Comm::world().size());
  std::reverse(writers.begin(), writers.end());
  writers.pop_back();  // rank 0 holds nothing, unless it is the only rank
  if (writers.empty()) writers = {0};
  expect_slices_in_order(writers);
}

TEST(ExchangeRows, MissingRowsSplitTheRuns) {
  const auto world = mpi::Comm::world();
  constexpr std::uint64_t row_count = 30;
  // Only rank 0 holds rows, and rows 5 and 6 exist nowhere.
  std::vector<std::uint64_t> rows;
  std::vector<std::byte> data;
  if (world.rank() == 0) {
    for (std::uint64_t row = 0; row < row_count; ++row) {
      if (row == 5 || row == 6) continue;
      rows.push_back(row);
      data.push_back(std::byte(row));
    }
  }
  const auto owned = exchange_rows(world, all_ranks(world.size()), row_count, 1, rows, data);
  std::uint64_t held = 0;
  for (const auto& [first, count] : owned.runs) {
    for (auto row = first; row < first + count; ++row) {
      EXPECT_NE(row, 5U);
      EXPECT_NE(row, 6U);
      EXPECT_EQ(owned.data.bytes()[held], std::byte(row));
      ++held;
    }
  }
  EXPECT_EQ(held, owned.data.size());
  std::vector<std::int64_t> total{static_cast<std::int64_t>(held)};
  world.all_reduce_sum(total);
  EXPECT_EQ(total.front(), 28);
}

}  // namespace
}  // namespace levelforge
