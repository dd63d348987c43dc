#include "kernels/api/rng.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>

namespace levelforge {
namespace {

// Random123's known-answer vector for Philox4x64-10 with zero counter and key.
TEST(Rng, MatchesPhiloxKnownAnswer) {
  Rng rng({0, static_cast<Stream>(0), 0, 0, 0});
  EXPECT_EQ(rng(), 0x16554d9eca36314cULL);
  EXPECT_EQ(rng(), 0xdb20fe9d672d0fdcULL);
  EXPECT_EQ(rng(), 0xd7e772cee186176bULL);
  EXPECT_EQ(rng(), 0x7e68b68aec7ba23bULL);
}

TEST(Rng, SameCoordinatesSameDraws) {
  Rng a({7, Stream::mutation, 3, 4, 5});
  Rng b({7, Stream::mutation, 3, 4, 5});
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a(), b());
}

TEST(Rng, EveryCoordinateSeparatesStreams) {
  const std::array<StreamId, 6> ids{{{7, Stream::mutation, 3, 4, 5},
                                     {8, Stream::mutation, 3, 4, 5},
                                     {7, Stream::selection, 3, 4, 5},
                                     {7, Stream::mutation, 2, 4, 5},
                                     {7, Stream::mutation, 3, 5, 5},
                                     {7, Stream::mutation, 3, 4, 6}}};
  std::set<std::uint64_t> first_draws;
  for (const auto& id : ids) first_draws.insert(Rng(id)());
  EXPECT_EQ(first_draws.size(), ids.size());
}

TEST(Rng, LongStreamsDoNotRepeatBlocks) {
  Rng rng({1, Stream::init, 0, 0, 0});
  std::set<std::uint64_t> draws;
  for (int i = 0; i < 10000; ++i) draws.insert(rng());
  EXPECT_EQ(draws.size(), 10000U);
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng rng({1, Stream::init, 0, 0, 0});
  std::array<int, 7> counts{};
  for (int i = 0; i < 70000; ++i) {
    const auto value = rng.below(7);
    ASSERT_LT(value, 7U);
    ++counts[value];
  }
  // Each bin expects 10000; 5 standard deviations is about 480.
  for (int count : counts) EXPECT_NEAR(count, 10000, 500);
}

TEST(Rng, UniformInUnitInterval) {
  Rng rng({2, Stream::init, 0, 0, 0});
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 100000, 0.5, 0.005);
}

// Moments of 100,000 draws: mean 0 (standard error 0.003), variance 1 (0.0045), and the
// share beyond 1.96 standard deviations 5% (0.0007).
TEST(Rng, NormalHasTheStandardMoments) {
  Rng rng({3, Stream::mutation, 0, 0, 0});
  constexpr int draws = 100000;
  double sum = 0;
  double squares = 0;
  int beyond = 0;
  for (int i = 0; i < draws; ++i) {
    const double x = rng.normal();
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    squares += x * x;
    beyond += std::abs(x) > 1.96 ? 1 : 0;
  }
  EXPECT_NEAR(sum / draws, 0, 0.015);
  EXPECT_NEAR(squares / draws, 1, 0.025);
  EXPECT_NEAR(static_cast<double>(beyond) / draws, 0.05, 0.0035);
}

TEST(Rng, DerivedTaskSeedsDiffer) {
  EXPECT_NE(derived_task_seed(1, 0), derived_task_seed(1, 1));
  EXPECT_NE(derived_task_seed(1, 0), derived_task_seed(2, 0));
  EXPECT_EQ(derived_task_seed(1, 5), derived_task_seed(1, 5));
}

}  // namespace
}  // namespace levelforge
