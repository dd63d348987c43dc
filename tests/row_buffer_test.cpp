// kernels/api/row_buffer.hpp: bytes appended keep their values across growth, a rollback
// drops only the end, and a moved-from buffer is empty.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "kernels/api/row_buffer.hpp"

namespace levelforge::row_buffer_test {
namespace {

std::vector<std::byte> counting_bytes(std::size_t size, std::size_t from) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((from + i) % 251);
  return bytes;
}

bool holds(const RowBuffer& buffer, const std::vector<std::byte>& expected) {
  return buffer.size() == expected.size() &&
         std::memcmp(buffer.bytes().data(), expected.data(), expected.size()) == 0;
}

TEST(RowBuffer, GrowsPastItsFirstBlocksKeepingEveryByte) {
  RowBuffer buffer;
  std::vector<std::byte> expected;
  // 120-byte rows, as the matchstick sweep's, well past the first 64 KiB and many doublings.
  for (std::size_t row = 0; row < 20000; ++row) {
    const auto bytes = counting_bytes(120, row);
    const auto added = buffer.extend(bytes.size());
    ASSERT_EQ(added.size(), 120U);
    std::memcpy(added.data(), bytes.data(), bytes.size());
    expected.insert(expected.end(), bytes.begin(), bytes.end());
  }
  EXPECT_TRUE(holds(buffer, expected));
}

TEST(RowBuffer, TruncateDropsOnlyTheEndAndAppendCopies) {
  RowBuffer buffer;
  const auto first = counting_bytes(1000, 3);
  buffer.append(first);
  (void)buffer.extend(500);
  buffer.truncate(1000);
  EXPECT_TRUE(holds(buffer, first));
  buffer.truncate(5000);  // past the end: nothing changes
  EXPECT_EQ(buffer.size(), 1000U);
  buffer.append({});
  EXPECT_EQ(buffer.size(), 1000U);
}

TEST(RowBuffer, MovesLeaveTheSourceEmpty) {
  RowBuffer buffer;
  const auto bytes = counting_bytes(300, 7);
  buffer.append(bytes);
  RowBuffer moved(std::move(buffer));
  EXPECT_TRUE(holds(moved, bytes));
  EXPECT_EQ(buffer.size(), 0U);  // NOLINT(bugprone-use-after-move): the moved-from state
  RowBuffer assigned;
  assigned = std::move(moved);
  EXPECT_TRUE(holds(assigned, bytes));
}

}  // namespace
}  // namespace levelforge::row_buffer_test
