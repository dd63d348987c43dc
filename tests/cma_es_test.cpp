#include "runner/engine/cma_es.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

namespace levelforge::cma_es_test {
namespace {

using Objective = std::function<double(const std::vector<double>&)>;  // smaller is better

double sphere(const std::vector<double>& x) {
  return std::inner_product(x.begin(), x.end(), x.begin(), 0.0);
}

double rosenbrock(const std::vector<double>& x) {
  double sum = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    sum += 100 * std::pow(x[i + 1] - x[i] * x[i], 2) + std::pow(1 - x[i], 2);
  }
  return sum;
}

struct Minimized {
  double best = 0;
  std::uint64_t evaluations = 0;
};

// Generations of `es` until `objective` falls below `target` or `budget` evaluations are spent.
Minimized minimize(CmaEs es, const Objective& objective, double target, std::uint64_t budget,
                   std::uint64_t seed) {
  Minimized result{objective(es.mean()), 0};
  while (result.evaluations < budget && result.best >= target) {
    std::vector<std::vector<double>> candidates;
    for (std::size_t k = 0; k < es.population(); ++k) {
      Rng rng({seed, Stream::emitter, 0, es.generation(), k});
      candidates.push_back(es.sample(rng));
    }
    std::vector<double> values(candidates.size());
    std::transform(candidates.begin(), candidates.end(), values.begin(), objective);
    result.evaluations += candidates.size();
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<std::vector<double>> ranked(order.size());
    std::transform(order.begin(), order.end(), ranked.begin(),
                   [&](std::size_t k) { return candidates[k]; });
    result.best = std::min(result.best, values[order.front()]);
    es.tell(ranked, es.population() / 2);
  }
  return result;
}

TEST(CmaEs, HansensDefaultPopulation) {
  EXPECT_EQ(CmaEs(std::vector<double>(10, 0.0), 1).population(), 10U);  // 4 + floor(3 ln 10)
  EXPECT_EQ(CmaEs(std::vector<double>(100, 0.0), 1).population(), 17U);
  EXPECT_EQ(CmaEs(std::vector<double>(2, 0.0), 1, 6).population(), 6U);
}

// The sphere in 10 dimensions from (3, ..., 3): CMA-ES needs about 1,500 evaluations to 1e-10
// (Hansen's tutorial, figure 1's setting); 3,000 is the bound.
TEST(CmaEs, ReachesTheSpheresOptimumWithinTheUsualEvaluations) {
  for (const std::uint64_t seed : {1U, 2U, 3U}) {
    const auto found = minimize(CmaEs(std::vector<double>(10, 3.0), 1), sphere, 1e-10, 3000, seed);
    EXPECT_LT(found.best, 1e-10) << "seed " << seed;
    EXPECT_LT(found.evaluations, 3000U) << "seed " << seed;
  }
}

// Rosenbrock in 5 dimensions from 0: the usual run needs 2,000 to 4,000 evaluations to 1e-8;
// a run that falls into the local minimum near (-1, 1, ...) would not get there at all.
TEST(CmaEs, SolvesRosenbrockInFiveDimensions) {
  const auto found = minimize(CmaEs(std::vector<double>(5, 0.0), 0.5), rosenbrock, 1e-8, 10000, 4);
  EXPECT_LT(found.best, 1e-8);
  EXPECT_LT(found.evaluations, 10000U);
}

TEST(CmaEs, OneParentMovesTheMeanOntoIt) {
  CmaEs es({0, 0, 0}, 0.5, 4);
  const std::vector<double> best{0.25, -0.5, 1};
  es.tell({best, {9, 9, 9}}, 1);
  EXPECT_EQ(es.mean(), best);
  EXPECT_EQ(es.generation(), 1U);
}

// A search rebuilt from its state() samples and moves exactly as the original.
TEST(CmaEs, StateRestoresTheSearchExactly) {
  CmaEs original(std::vector<double>(4, 0.5), 0.3, 6);
  const auto step = [](CmaEs& es, std::uint64_t generation) {
    std::vector<std::vector<double>> candidates;
    for (std::size_t k = 0; k < 6; ++k) {
      Rng rng({9, Stream::emitter, 0, generation, k});
      candidates.push_back(es.sample(rng));
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return sphere(a) < sphere(b); });
    es.tell(candidates, 3);
    return candidates.front();
  };
  for (std::uint64_t g = 0; g < 5; ++g) step(original, g);
  const auto saved = original.state();
  ASSERT_EQ(saved.size(), CmaEs::state_size(4));
  auto restored = CmaEs::from_state(saved, 4, 6);
  for (std::uint64_t g = 5; g < 10; ++g) EXPECT_EQ(step(original, g), step(restored, g));
  EXPECT_EQ(original.state(), restored.state());
  EXPECT_THROW((void)CmaEs::from_state(std::span(saved).first(saved.size() - 1), 4, 6),
               std::invalid_argument);
  EXPECT_THROW((void)CmaEs::from_state(saved, 4, 1), std::invalid_argument);
}

TEST(CmaEs, AConvergedSearchStalls) {
  CmaEs es({0.5, 0.5}, 1e-13, 4);
  EXPECT_TRUE(es.stalled());
  EXPECT_FALSE(CmaEs({0.5, 0.5}, 0.1, 4).stalled());
}

}  // namespace
}  // namespace levelforge::cma_es_test
