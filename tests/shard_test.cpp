#include "runner/checkpoint/shard.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace levelforge {
namespace {

TEST(ShardSpec, ParsesIndexOverCount) {
  const auto shard = ShardSpec::parse("2/5");
  EXPECT_EQ(shard.index, 2U);
  EXPECT_EQ(shard.count, 5U);
  EXPECT_TRUE(shard.sharded());
  EXPECT_EQ(shard.text(), "2/5");
  EXPECT_FALSE(ShardSpec::parse("0/1").sharded());
}

TEST(ShardSpec, RefusesMalformedAndOutOfRange) {
  for (const char* text :
       {"", "3", "/3", "1/", "a/3", "1/b", "-1/3", "3/3", "0/0", "1/2/3", " 1/3"}) {
    EXPECT_THROW((void)ShardSpec::parse(text), std::invalid_argument) << text;
  }
}

TEST(ShardSpec, EveryUnitBelongsToExactlyOneShard) {
  for (std::uint64_t count = 1; count <= 5; ++count) {
    for (std::uint64_t unit = 0; unit < 40; ++unit) {
      int owners = 0;
      for (std::uint64_t index = 0; index < count; ++index)
        owners += ShardSpec{index, count}.owns(unit) ? 1 : 0;
      EXPECT_EQ(owners, 1) << unit << " of " << count;
    }
  }
  // Round robin: shard 1 of 3 does 1, 4, 7, ...
  const ShardSpec shard{1, 3};
  EXPECT_TRUE(shard.owns(1));
  EXPECT_TRUE(shard.owns(7));
  EXPECT_FALSE(shard.owns(3));
}

TEST(ShardSpec, OutputNameGetsTheShardBeforeTheExtension) {
  EXPECT_EQ((ShardSpec{0, 3}.output_for("results/demo.h5")), "results/demo.shard-0-of-3.h5");
  EXPECT_EQ((ShardSpec{2, 3}.output_for("out")), "out.shard-2-of-3");
  EXPECT_EQ((ShardSpec{}.output_for("results/demo.h5")), "results/demo.h5");
}

}  // namespace
}  // namespace levelforge
