#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "kernels/testing/collatz.hpp"
#include "kernels/testing/faulty.hpp"
#include "kernels/testing/onemax.hpp"
#include "kernels/testing/sphere.hpp"
#include "tests/error_message.hpp"
#include "tests/random_cases.hpp"
#include "tests/sphere_kernel.hpp"

namespace levelforge {
namespace {

using kernels::Collatz;
using kernels::collatz_orbit;
using kernels::Faulty;
using kernels::OneMax;
using kernels::Sphere;

template <class K>
ParamSet params_with(const std::vector<std::pair<std::string, std::int64_t>>& overrides) {
  auto params = ParamSet::defaults(K::parameters());
  for (const auto& [name, value] : overrides) params.set(name, ParamValue{value});
  return params;
}

std::int64_t ones(const OneMax::Genome& genome) {
  return std::count(genome.begin(), genome.end(), std::uint8_t{1});
}

// ---------------------------------------------------------------- Collatz

TEST(CollatzOrbit, HandComputedValues) {
  const std::vector<std::tuple<std::uint64_t, std::int64_t, std::int64_t>> cases{
      {1, 0, 1}, {2, 1, 2}, {3, 7, 16}, {6, 8, 16}, {7, 16, 52}, {27, 111, 9232}};
  for (const auto& [n, steps, peak] : cases) {
    const auto orbit = collatz_orbit(n);
    EXPECT_EQ(orbit.steps, steps) << "n = " << n;
    EXPECT_EQ(orbit.peak, peak) << "n = " << n;
  }
}

TEST(CollatzOrbit, ZeroThrows) { EXPECT_THROW(collatz_orbit(0), KernelError); }

TEST(CollatzOrbit, OverflowingOrbitThrowsInsteadOfWrapping) {
  // An odd start above (2^64 - 2) / 3: 3n + 1 does not fit in 64 bits.
  EXPECT_THROW(collatz_orbit(std::numeric_limits<std::uint64_t>::max()), KernelError);
}

// The orbit of 8'528'817'511 peaks at 18'144'594'937'356'598'024: above INT64_MAX, below
// UINT64_MAX. The peak field is int64, so the kernel must refuse it rather than wrap it.
TEST(CollatzOrbit, PeakAboveInt64MaxThrowsInsteadOfWrapping) {
  try {
    (void)collatz_orbit(8'528'817'511);
    FAIL() << "expected KernelError";
  } catch (const KernelError& error) {
    EXPECT_NE(std::string(error.what()).find("8528817511 exceeds the int64 peak"),
              std::string::npos)
        << error.what();
  }
}

// A peak just below INT64_MAX is still reported exactly.
TEST(CollatzOrbit, LargePeakBelowInt64MaxIsExact) {
  const auto orbit = collatz_orbit(1'410'123'943);
  EXPECT_EQ(orbit.steps, 770);
  EXPECT_EQ(orbit.peak, 7'125'885'122'794'452'160);
}

// Independent of the kernel: the plain definition.
std::pair<std::int64_t, std::int64_t> brute_orbit(std::uint64_t n) {
  std::int64_t steps = 0;
  std::uint64_t peak = n;
  while (n != 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    peak = std::max(peak, n);
    ++steps;
  }
  return {steps, static_cast<std::int64_t>(peak)};
}

TEST(Collatz, VisitOverAThousandStartsMatchesBruteForce) {
  constexpr std::int64_t solution_steps = 100;
  const Collatz kernel(
      params_with<Collatz>({{"start", 1}, {"count", 1000}, {"solution_steps", solution_steps}}));
  ASSERT_EQ(kernel.index_count(), 1000U);
  const auto specs = Collatz::reductions();
  const RecordLayout layout(Collatz::solution_fields());
  Reductions out(specs, &layout);
  for (std::uint64_t index = 0; index < 1000; ++index) {
    out.begin_index(index);
    kernel.visit(index, out);
  }

  // Brute force over n = 1..1000.
  std::vector<std::int64_t> bins(1002, 0);
  struct Entry {
    std::int64_t steps;
    std::uint64_t n;
    std::int64_t peak;
  };
  std::vector<Entry> all;
  std::vector<std::pair<std::uint64_t, std::int64_t>> solutions;  // (index, steps)
  for (std::uint64_t n = 1; n <= 1000; ++n) {
    const auto [steps, peak] = brute_orbit(n);
    ++bins[steps >= 1000 ? 1001 : static_cast<std::size_t>(steps) + 1];
    all.push_back({steps, n, peak});
    if (steps >= solution_steps) solutions.emplace_back(n - 1, steps);
  }
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
    return a.steps != b.steps ? a.steps > b.steps : a.n < b.n;
  });

  EXPECT_EQ(out.counts()[Collatz::visited], 1000);
  EXPECT_EQ(out.histograms()[Collatz::steps_histogram], bins);

  const auto top = out.sorted_top(Collatz::longest);
  ASSERT_EQ(top.size(), 10U);
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(top[i].score, static_cast<double>(all[i].steps)) << "rank " << i;
    EXPECT_EQ(top[i].index, all[i].n - 1) << "rank " << i;
    EXPECT_EQ(top[i].record,
              (Record{static_cast<std::int64_t>(all[i].n), all[i].steps, all[i].peak}))
        << "rank " << i;
  }
  // n = 871 has the longest orbit below 1000 (178 steps).
  EXPECT_EQ(top[0].record[0], FieldValue{std::int64_t{871}});
  EXPECT_EQ(top[0].record[1], FieldValue{std::int64_t{178}});

  ASSERT_EQ(out.solution_count(), solutions.size());
  ASSERT_FALSE(solutions.empty());
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    EXPECT_EQ(out.solution_index(i), solutions[i].first);
    EXPECT_EQ(out.solution_record(i),
              (Record{static_cast<std::int64_t>(solutions[i].first + 1), solutions[i].second}));
  }
}

TEST(Collatz, RecordsMatchTheDeclaredFields) {
  EXPECT_EQ(Collatz::solution_fields().size(), 2U);
  EXPECT_EQ(Collatz::record_fields().size(), 3U);
  EXPECT_EQ(Collatz::reductions()[Collatz::longest].fields.size(), 3U);
  EXPECT_EQ(Collatz::reductions()[Collatz::longest].k, 10U);
}

TEST(Collatz, RunDrawsStartValuesWithinTheRange) {
  const Collatz kernel(params_with<Collatz>({{"start", 100}, {"count", 5}}));
  std::set<std::int64_t> seen;
  for (std::uint64_t i = 0; i < 200; ++i) {
    Rng rng({3, Stream::sweep_run, i, 0, 0});
    const auto record = kernel.run(rng);
    ASSERT_EQ(record.size(), 3U);
    const auto n = std::get<std::int64_t>(record[0]);
    ASSERT_GE(n, 100);
    ASSERT_LT(n, 105);
    const auto orbit = collatz_orbit(static_cast<std::uint64_t>(n));
    EXPECT_EQ(std::get<std::int64_t>(record[1]), orbit.steps);
    EXPECT_EQ(std::get<std::int64_t>(record[2]), orbit.peak);
    seen.insert(n);
  }
  EXPECT_EQ(seen.size(), 5U);
}

TEST(Collatz, RunIsAFunctionOfTheStream) {
  const Collatz kernel(params_with<Collatz>({{"start", 1}, {"count", 1'000'000}}));
  Rng a({3, Stream::sweep_run, 17, 0, 0});
  Rng b({3, Stream::sweep_run, 17, 0, 0});
  EXPECT_EQ(kernel.run(a), kernel.run(b));
}

// ---------------------------------------------------------------- OneMax

TEST(OneMax, RandomGenomeHasTheLengthAndOnlyBits) {
  const OneMax kernel(params_with<OneMax>({{"length", 200}}));
  Rng rng({1, Stream::init, 0, 0, 0});
  const auto genome = kernel.random_genome(rng);
  ASSERT_EQ(genome.size(), 200U);
  EXPECT_TRUE(std::all_of(genome.begin(), genome.end(), [](std::uint8_t b) { return b <= 1; }));
  // 200 fair bits: both values occur.
  EXPECT_GT(ones(genome), 0);
  EXPECT_LT(ones(genome), 200);
}

TEST(OneMax, CrossoverTakesEachPositionFromTheParents) {
  const OneMax kernel(params_with<OneMax>({{"length", 40}}));
  Rng init({1, Stream::init, 0, 0, 0});
  const auto a = kernel.random_genome(init);
  const auto b = kernel.random_genome(init);
  std::set<std::size_t> cuts;
  for (std::uint64_t trial = 0; trial < 200; ++trial) {
    Rng rng({1, Stream::crossover, 0, trial, 0});
    const auto [first, second] = kernel.crossover(a, b, rng);
    ASSERT_EQ(first.size(), 40U);
    ASSERT_EQ(second.size(), 40U);
    for (std::size_t p = 0; p < 40; ++p) {
      // Per position, the children hold the parents' two bits (as a multiset).
      ASSERT_EQ(std::minmax(first[p], second[p]), std::minmax(a[p], b[p])) << "position " << p;
    }
  }
  // One-point: with parents all zeros and all ones, the first child is 0...01...1.
  const OneMax::Genome zeros(40, 0);
  const OneMax::Genome all_ones(40, 1);
  for (std::uint64_t trial = 0; trial < 200; ++trial) {
    Rng rng({1, Stream::crossover, 0, trial, 0});
    const auto [first, second] = kernel.crossover(zeros, all_ones, rng);
    ASSERT_TRUE(std::is_sorted(first.begin(), first.end()));
    const auto cut = static_cast<std::size_t>(40 - ones(first));
    for (std::size_t p = 0; p < 40; ++p) {
      ASSERT_EQ(second[p], p < cut ? 1 : 0) << "position " << p;
    }
    cuts.insert(cut);
  }
  // The cut point varies, including the ends.
  EXPECT_GT(cuts.size(), 20U);
}

TEST(OneMax, MutateWithRateZeroChangesNothingAndRateOneFlipsAll) {
  const OneMax kernel(params_with<OneMax>({{"length", 64}}));
  Rng init({1, Stream::init, 0, 0, 0});
  const auto original = kernel.random_genome(init);
  auto genome = original;
  Rng none({1, Stream::mutation, 0, 0, 0});
  kernel.mutate(genome, 0.0, none);
  EXPECT_EQ(genome, original);
  Rng all({1, Stream::mutation, 0, 0, 1});
  kernel.mutate(genome, 1.0, all);
  for (std::size_t p = 0; p < genome.size(); ++p) {
    ASSERT_EQ(genome[p], original[p] ^ 1U) << "position " << p;
  }
}

TEST(OneMax, EncodeDecodeRoundTrip) {
  const OneMax kernel(params_with<OneMax>({{"length", 33}}));
  Rng init({1, Stream::init, 0, 0, 0});
  const auto genome = kernel.random_genome(init);
  std::vector<std::int64_t> stored(33, -7);
  kernel.encode(genome, stored);
  for (std::size_t p = 0; p < 33; ++p) EXPECT_EQ(stored[p], genome[p]);
  EXPECT_EQ(kernel.decode(stored), genome);
}

TEST(OneMax, EvaluateIsTheFractionOfOnes) {
  const OneMax kernel(params_with<OneMax>({{"length", 8}}));
  Rng rng({1, Stream::evaluation, 0, 0, 0});
  const OneMax::Genome genome{1, 0, 1, 1, 0, 0, 0, 1};
  const auto evaluation = kernel.evaluate(genome, rng);
  EXPECT_EQ(evaluation.fitness, 0.5);
  EXPECT_EQ(evaluation.record, (Record{std::int64_t{4}}));
  const auto best = kernel.evaluate(OneMax::Genome(8, 1), rng);
  EXPECT_EQ(best.fitness, 1.0);
  EXPECT_EQ(kernel.evaluate(OneMax::Genome(8, 0), rng).fitness, 0.0);
  EXPECT_EQ(OneMax::evaluation_fields().size(), evaluation.record.size());
}

TEST(OneMax, RunClimbsWithConsistentCounts) {
  const OneMax kernel(params_with<OneMax>({{"length", 50}, {"climb_steps", 300}}));
  Rng rng({1, Stream::sweep_run, 0, 0, 0});
  const auto record = kernel.run(rng);
  ASSERT_EQ(record.size(), OneMax::record_fields().size());
  const auto initial = std::get<std::int64_t>(record[0]);
  const auto final_ones = std::get<std::int64_t>(record[1]);
  const auto accepted = std::get<std::int64_t>(record[2]);
  EXPECT_EQ(final_ones, initial + accepted);
  EXPECT_LE(final_ones, 50);
  EXPECT_GT(accepted, 0);
}

// ---------------------------------------------------------------- Faulty

TEST(Faulty, RunThrowsAtFailValueWithTheValueInTheMessage) {
  const Faulty failing(params_with<Faulty>({{"value", 5}, {"fail_value", 5}}));
  Rng rng({1, Stream::sweep_run, 0, 0, 0});
  const auto message = testing::error_message<KernelError>([&] { (void)failing.run(rng); });
  EXPECT_NE(message.find("value 5"), std::string::npos) << message;
}

TEST(Faulty, RunReturnsTheValueOtherwise) {
  Rng rng({1, Stream::sweep_run, 0, 0, 0});
  const Faulty other(params_with<Faulty>({{"value", 4}, {"fail_value", 5}}));
  EXPECT_EQ(other.run(rng), (Record{std::int64_t{4}}));
  // Default fail_value -1 never matches a value (values are >= 0).
  const Faulty defaults(params_with<Faulty>({{"value", 0}}));
  EXPECT_EQ(defaults.run(rng), (Record{std::int64_t{0}}));
}

TEST(Faulty, VisitThrowsAtFailIndexOnlyAndCountsTheOthers) {
  const Faulty kernel(params_with<Faulty>({{"fail_index", 1234}, {"count", 2000}}));
  EXPECT_EQ(kernel.index_count(), 2000U);
  const auto specs = Faulty::reductions();
  Reductions out(specs);
  for (std::uint64_t index = 0; index < 2000; ++index) {
    out.begin_index(index);
    if (index == 1234) {
      const auto message = testing::error_message<KernelError>([&] { kernel.visit(index, out); });
      EXPECT_NE(message.find("index 1234"), std::string::npos) << message;
    } else {
      kernel.visit(index, out);
    }
  }
  EXPECT_EQ(out.counts()[0], 1999);
}

TEST(Faulty, DefaultFailIndexNeverThrows) {
  const Faulty kernel(params_with<Faulty>({{"count", 1000}}));
  const auto specs = Faulty::reductions();
  Reductions out(specs);
  for (std::uint64_t index = 0; index < 1000; ++index) {
    out.begin_index(index);
    kernel.visit(index, out);
  }
  EXPECT_EQ(out.counts()[0], 1000);
}

// ---------------------------------------------------------------- Sphere

using testing::sphere_of;

TEST(Sphere, TheOptimumScores100AndTheFarCornerOfTheBox0) {
  const auto sphere = sphere_of(4);
  Rng rng({1, Stream::evaluation, 0, 0, 0});
  const auto best = sphere.evaluate({2.048, 2.048, 2.048, 2.048}, rng);
  EXPECT_DOUBLE_EQ(best.fitness, 100);
  EXPECT_DOUBLE_EQ(std::get<double>(best.record[0]), 0);
  EXPECT_NEAR(sphere.evaluate({-5.12, -5.12, -5.12, -5.12}, rng).fitness, 0, 1e-12);
}

// By hand: f = (1 - 2.048)^2 + (6 - 2.048)^2 + (-10.24 - 2.048)^2 + (2 - 2.048)^2
// = 167.713856 of f(-5.12, ...) = 4 x 7.168^2 = 205.520896; the projections 1 + 5.12 / 6 and
// 5.12 / -10.24 + 2 (6 and -10.24 lie beyond 5.12 and fold back).
TEST(Sphere, HandComputedFitnessAndFoldedProjections) {
  const auto sphere = sphere_of(4);
  Rng rng({1, Stream::evaluation, 0, 0, 0});
  const Sphere::Genome genome{1, 6, -10.24, 2};
  const auto evaluation = sphere.evaluate(genome, rng);
  EXPECT_NEAR(std::get<double>(evaluation.record[0]), 167.713856, 1e-9);
  EXPECT_NEAR(evaluation.fitness, 18.395715830277425, 1e-9);
  const auto measures = sphere.measure(genome, evaluation);
  ASSERT_EQ(measures.size(), 2U);
  EXPECT_NEAR(measures[0], 1.8533333333333335, 1e-12);
  EXPECT_NEAR(measures[1], 1.5, 1e-12);
}

TEST(Sphere, MeasureRangesAreEachHalfsGenesTimes512) {
  const auto measures = sphere_of(5).measures();
  ASSERT_EQ(measures.size(), 2U);
  EXPECT_DOUBLE_EQ(measures[0].low, -2 * 5.12);
  EXPECT_DOUBLE_EQ(measures[0].high, 2 * 5.12);
  EXPECT_DOUBLE_EQ(measures[1].low, -3 * 5.12);
  EXPECT_DOUBLE_EQ(measures[1].high, 3 * 5.12);
  // Every genome's projections lie within them: a folded gene's lies within (-1, 1].
  const auto sphere = sphere_of(5, 1000);
  for (int i = 0; i < testing::random_cases(1000); ++i) {
    Rng rng({2, Stream::init, 0, 0, static_cast<std::uint64_t>(i)});
    const auto genome = sphere.random_genome(rng);
    const auto projections = sphere.measure(genome, sphere.evaluate(genome, rng));
    for (std::size_t m = 0; m < 2; ++m) {
      ASSERT_GE(projections[m], measures[m].low);
      ASSERT_LE(projections[m], measures[m].high);
    }
  }
}

TEST(Sphere, GenomesAreRealAndStoredAsFloat64) {
  EXPECT_EQ(genome_type<Sphere>(), GenomeType::real);
  EXPECT_EQ(genome_type<OneMax>(), GenomeType::encoded);
  EXPECT_TRUE(std::isnan(std::bit_cast<double>(missing_gene<Sphere>())));
  EXPECT_EQ(missing_gene<OneMax>(), -1);
  const auto sphere = sphere_of(3, 2);
  for (const auto& bounds : sphere.bounds()) {
    EXPECT_EQ(bounds.low, -2);
    EXPECT_EQ(bounds.high, 2);
  }
}

}  // namespace
}  // namespace levelforge
