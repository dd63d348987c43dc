#include "runner/engine/pareto.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "kernels/api/rng.hpp"
#include "tests/random_cases.hpp"

namespace levelforge::pareto_test {
namespace {

constexpr double infinite = std::numeric_limits<double>::infinity();

// The reference: peel off the points no remaining point dominates, front after front.
std::vector<std::size_t> peeled_fronts(const std::vector<double>& points, std::size_t objectives) {
  const auto count = points.size() / objectives;
  std::vector<std::size_t> fronts(count, count);
  const auto at = [&](std::size_t i) {
    return std::span(points).subspan(i * objectives, objectives);
  };
  for (std::size_t front = 0, placed = 0; placed < count; ++front) {
    std::vector<std::size_t> peeled;
    for (std::size_t i = 0; i < count; ++i) {
      if (fronts[i] != count) continue;
      bool dominated = false;
      for (std::size_t j = 0; j < count && !dominated; ++j) {
        dominated = fronts[j] == count && dominates(at(j), at(i));
      }
      if (!dominated) peeled.push_back(i);
    }
    for (const auto i : peeled) fronts[i] = front;
    placed += peeled.size();
  }
  return fronts;
}

// The reference: unit cells of an integer grid that some point dominates, counted one by one.
double counted_volume(const std::vector<double>& points, std::size_t objectives,
                      const std::vector<double>& reference, int extent) {
  std::size_t cells = 1;
  for (std::size_t m = 0; m < objectives; ++m) cells *= static_cast<std::size_t>(extent);
  double volume = 0;
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::vector<double> centre(objectives);
    auto rest = cell;
    for (std::size_t m = 0; m < objectives; ++m) {
      centre[m] = reference[m] + 0.5 + static_cast<double>(rest % static_cast<std::size_t>(extent));
      rest /= static_cast<std::size_t>(extent);
    }
    for (std::size_t i = 0; i * objectives < points.size(); ++i) {
      bool covers = true;
      for (std::size_t m = 0; m < objectives && covers; ++m) {
        covers = points[i * objectives + m] >= centre[m];
      }
      if (covers) {
        volume += 1;
        break;
      }
    }
  }
  return volume;
}

// Small integer values: many ties and duplicates.
std::vector<double> random_points(Rng& rng, std::size_t count, std::size_t objectives, int extent) {
  std::vector<double> points(count * objectives);
  for (auto& value : points)
    value = static_cast<double>(rng.below(static_cast<std::uint64_t>(extent)));
  return points;
}

TEST(Dominance, NeedsAtLeastAsGoodEverywhereAndBetterSomewhere) {
  EXPECT_TRUE(dominates(std::vector{2.0, 1.0}, std::vector{1.0, 1.0}));
  EXPECT_FALSE(dominates(std::vector{1.0, 1.0}, std::vector{1.0, 1.0}));
  EXPECT_FALSE(dominates(std::vector{2.0, 0.0}, std::vector{1.0, 1.0}));
  EXPECT_TRUE(dominates(std::vector{0.0, 0.0, 1.0}, std::vector{0.0, 0.0, -infinite}));
}

TEST(NondominatedFronts, HandComputed) {
  // (3,1) (1,3) (2,2) trade off; (2,1) is below (2,2) and (3,1); (1,1) below (2,1).
  const std::vector<double> points{3, 1, 1, 3, 2, 2, 2, 1, 1, 1, 2, 2};
  EXPECT_EQ(nondominated_fronts(points, 2), (std::vector<std::size_t>{0, 0, 0, 1, 2, 0}));
}

TEST(NondominatedFronts, EqualToPeelingOnRandomPoints) {
  Rng rng(StreamId{7, Stream::init, 0, 0, 0});
  for (int trial = 0; trial < testing::random_cases(600); ++trial) {
    const auto objectives = 2 + static_cast<std::size_t>(trial % 3);
    const auto count = 1 + static_cast<std::size_t>(rng.below(60));
    const auto points = random_points(rng, count, objectives, 2 + trial % 9);
    ASSERT_EQ(nondominated_fronts(points, objectives), peeled_fronts(points, objectives))
        << "trial " << trial;
  }
}

TEST(CrowdingDistances, HandComputed) {
  // One front of four along a line: ends infinite; (2,3): (3-1)/3 + (4-2)/3; (3,2) likewise.
  const std::vector<double> points{1, 4, 2, 3, 3, 2, 4, 1};
  const std::vector<std::size_t> fronts{0, 0, 0, 0};
  const auto crowding = crowding_distances(points, 2, fronts);
  EXPECT_EQ(crowding[0], infinite);
  EXPECT_DOUBLE_EQ(crowding[1], 4.0 / 3);
  EXPECT_DOUBLE_EQ(crowding[2], 4.0 / 3);
  EXPECT_EQ(crowding[3], infinite);
  // Unevenly spaced: (0,10) (1,9) (5,5) (10,0): 5/10 + 5/10 for the second, 9/10 + 9/10 for the
  // third.
  const auto uneven = crowding_distances(std::vector<double>{0, 10, 1, 9, 5, 5, 10, 0}, 2, fronts);
  EXPECT_DOUBLE_EQ(uneven[1], 1.0);
  EXPECT_DOUBLE_EQ(uneven[2], 1.8);
}

TEST(CrowdedOrder, FrontThenCrowdingThenPosition) {
  const std::vector<std::size_t> fronts{1, 0, 0, 0, 1};
  const std::vector<double> crowding{infinite, 0.5, infinite, 0.5, 2.0};
  EXPECT_EQ(crowded_order(fronts, crowding), (std::vector<std::size_t>{2, 1, 3, 0, 4}));
}

TEST(Hypervolume, HandComputed) {
  // Boxes from (0,0) to (3,1), (2,2), (1,3): 3 + 2 + 1 = 6 unit cells.
  EXPECT_DOUBLE_EQ(hypervolume(std::vector<double>{3, 1, 2, 2, 1, 3}, 2, std::vector{0.0, 0.0}), 6);
  // A point not beyond the reference in every objective adds nothing.
  EXPECT_DOUBLE_EQ(hypervolume(std::vector<double>{5, 0, -infinite, 9}, 2, std::vector{0.0, 0.0}),
                   0);
  // One box in three objectives, seen from a shifted reference.
  EXPECT_DOUBLE_EQ(hypervolume(std::vector<double>{2, 3, 4}, 3, std::vector{1.0, 1.0, 1.0}), 6);
}

TEST(Hypervolume, EqualToCountedCellsOnRandomPoints) {
  Rng rng(StreamId{11, Stream::init, 0, 0, 0});
  for (int trial = 0; trial < testing::random_cases(300); ++trial) {
    const auto objectives = 2 + static_cast<std::size_t>(trial % 3);
    const int extent = objectives == 4 ? 5 : 8;
    const auto count = 1 + static_cast<std::size_t>(rng.below(25));
    // Values from -1 to extent - 1 against the reference -1: some points add nothing.
    auto points = random_points(rng, count, objectives, extent + 1);
    for (auto& value : points) value -= 1;
    const std::vector<double> reference(objectives, -1.0);
    ASSERT_DOUBLE_EQ(hypervolume(points, objectives, reference),
                     counted_volume(points, objectives, reference, extent))
        << "trial " << trial;
  }
}

}  // namespace
}  // namespace levelforge::pareto_test
