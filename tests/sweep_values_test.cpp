#include "runner/config/sweep_values.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "runner/config/experiment.hpp"
#include "tests/error_message.hpp"

// Its own namespace: the unit tests share translation units (tests/CMakeLists.txt).
namespace levelforge::config::sweep_values_test {
namespace {

const ParamSpec width = int_param("width", 4, 1, 64, "maze width");
const ParamSpec density = real_param("density", 0.2, 0.0, 1.0, "wall density");
const ParamSpec rate = real_param("rate", 0.01, 0.0, 1e6, "a rate");
const ParamSpec mode = choice_param("mode", {"stop", "pass"}, "collect mode");

std::string here(const YAML::Node& node) {
  return "cfg:" + std::to_string(node.Mark().line + 1) + ":" +
         std::to_string(node.Mark().column + 1);
}

std::vector<ParamValue> sequence(const ParamSpec& spec, const std::string& yaml) {
  return sequence_values(spec, YAML::Load(yaml), "sweep.grid.params." + spec.name, here, 1000);
}

std::string sequence_error(const ParamSpec& spec, const std::string& yaml) {
  return testing::error_message<ConfigError>([&] { sequence(spec, yaml); });
}

std::vector<std::int64_t> integers(const std::vector<ParamValue>& values) {
  std::vector<std::int64_t> out;
  out.reserve(values.size());
  for (const auto& value : values) out.push_back(std::get<std::int64_t>(value));
  return out;
}

std::vector<double> reals(const std::vector<ParamValue>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (const auto& value : values) out.push_back(std::get<double>(value));
  return out;
}

SampleAxis axis(const ParamSpec& spec, const std::string& yaml) {
  return read_sample_axis(spec, YAML::Load(yaml), "sweep.sample.space.params." + spec.name, here);
}

std::string axis_error(const ParamSpec& spec, const std::string& yaml) {
  return testing::error_message<ConfigError>([&] { static_cast<void>(axis(spec, yaml)); });
}

// --- sequences: hand-computed ------------------------------------------------------------

TEST(Sequences, IntegerRangeLeavesOutStop) {
  EXPECT_EQ(integers(sequence(width, "{range: [2, 11, 3]}")), (std::vector<std::int64_t>{2, 5, 8}));
  EXPECT_EQ(integers(sequence(width, "{range: [2, 12, 5]}")), (std::vector<std::int64_t>{2, 7}));
  EXPECT_EQ(integers(sequence(width, "{range: [10, 0, -4]}")),
            (std::vector<std::int64_t>{10, 6, 2}));
}

TEST(Sequences, RealRangeIsNumpysArange) {
  EXPECT_EQ(reals(sequence(density, "{range: [0, 1, 0.25]}")),
            (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(reals(sequence(density, "{range: [0.1, 0.45, 0.1]}")),
            (std::vector<double>{0.1, 0.1 + 0.1, 0.1 + 2 * 0.1, 0.1 + 3 * 0.1}));
}

TEST(Sequences, ARangeNeverReachesStop) {
  // 0.7 + 3 x 0.1 rounds to 1.0 exactly: NumPy's arange would give it, stop is left out.
  const std::vector<double> tenths = reals(sequence(density, "{range: [0.7, 1.0, 0.1]}"));
  ASSERT_EQ(tenths.size(), 3u);
  EXPECT_LT(tenths.back(), 1.0);
  // Steps whose multiples leave int64 although every value lies between start and stop.
  const ParamSpec any = int_param("any", 0, std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max(), "");
  EXPECT_EQ(
      integers(sequence(any,
                        "{range: [-9000000000000000000, 9000000000000000000, "
                        "6000000000000000000]}")),
      (std::vector<std::int64_t>{-9000000000000000000, -3000000000000000000, 3000000000000000000}));
  EXPECT_EQ(integers(sequence(any,
                              "{range: [9223372036854775807, -9223372036854775807, "
                              "-9223372036854775807]}")),
            (std::vector<std::int64_t>{9223372036854775807, 0}));
}

TEST(Sequences, LinspaceEndsOnLastExactly) {
  EXPECT_EQ(reals(sequence(density, "{linspace: [0, 1, 5]}")),
            (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(reals(sequence(density, "{linspace: [0.1, 0.3, 3]}")).back(), 0.3);
  EXPECT_EQ(reals(sequence(density, "{linspace: [0.5, 0.9, 1]}")), (std::vector<double>{0.5}));
  EXPECT_EQ(integers(sequence(width, "{linspace: [1, 10, 4]}")),
            (std::vector<std::int64_t>{1, 4, 7, 10}));
}

TEST(Sequences, LogspaceTakesExponentsOfTen) {
  EXPECT_EQ(integers(sequence(width, "{logspace: [0, 1, 2]}")), (std::vector<std::int64_t>{1, 10}));
  const std::vector<double> rates = reals(sequence(rate, "{logspace: [-3, -1, 3]}"));
  ASSERT_EQ(rates.size(), 3u);
  EXPECT_DOUBLE_EQ(rates[0], 0.001);
  EXPECT_DOUBLE_EQ(rates[1], 0.01);
  EXPECT_DOUBLE_EQ(rates[2], 0.1);
  EXPECT_EQ(integers(sequence(int_param("n", 1, 1, 100000, ""), "{logspace: [0, 3, 4]}")),
            (std::vector<std::int64_t>{1, 10, 100, 1000}));
}

TEST(Sequences, ErrorsNameThePlaceAndTheProblem) {
  EXPECT_EQ(sequence_error(width, "{linspace: [1, 10, 3]}"),
            "cfg:1:1: sweep.grid.params.width: 5.5 is not a whole number, and width is an integer");
  EXPECT_EQ(sequence_error(width, "{range: [1, 5, 0]}"),
            "cfg:1:16: sweep.grid.params.width: range step must not be 0");
  EXPECT_EQ(sequence_error(width, "{range: [5, 1, 1]}"),
            "cfg:1:9: sweep.grid.params.width: the sequence is empty");
  EXPECT_EQ(sequence_error(width, "{range: [1, 100, 10]}"),
            "cfg:1:1: sweep.grid.params.width: 71 is out of range [1, 64]");
  EXPECT_EQ(sequence_error(width, "{range: [1, 1000000, 1]}"),
            "cfg:1:9: sweep.grid.params.width: the sequence has more than 1000 values");
  EXPECT_EQ(sequence_error(width, "{range: [1, 5]}"),
            "cfg:1:9: sweep.grid.params.width: range takes a list of 3: [start, stop, step], stop "
            "left out, got a list");
  EXPECT_EQ(sequence_error(width, "{linspce: [1, 5, 2]}"),
            "cfg:1:2: sweep.grid.params.width: unknown form 'linspce'; did you mean 'linspace'?");
  EXPECT_EQ(sequence_error(width, "{range: [1.5, 5, 1]}"),
            "cfg:1:10: sweep.grid.params.width.range[0]: expected an int, got '1.5'");
  const ParamSpec start = int_param("start", 1, 0, 100'000'000'000'000, "");
  EXPECT_EQ(sequence_error(start, "{linspace: [0, 10000000000001, 3]}"),
            "cfg:1:1: sweep.grid.params.start: 5000000000000.5 is not a whole number, and start "
            "is an integer");
  EXPECT_EQ(sequence_error(int_param("n", 1, 1, std::numeric_limits<std::int64_t>::max(), ""),
                           "{logspace: [15, 16, 2]}"),
            "cfg:1:1: sweep.grid.params.n: 1e+16 is beyond 2^53, where a computed number is no "
            "longer an exact integer: list the values");
  EXPECT_EQ(sequence_error(mode, "{linspace: [0, 1, 2]}"),
            "cfg:1:1: sweep.grid.params.mode: linspace gives numbers; mode is not a number");
}

// --- sample axes: hand-computed ---------------------------------------------------------

TEST(SampleAxes, MapTheUnitIntervalOntoTheirDistribution) {
  EXPECT_EQ(std::get<double>(axis(density, "{uniform: [0.2, 0.6]}").value_at(0.25)),
            0.2 + 0.25 * (0.6 - 0.2));
  EXPECT_DOUBLE_EQ(std::get<double>(axis(rate, "{loguniform: [1, 100]}").value_at(0.5)), 10.0);
  const SampleAxis sides = axis(width, "{int: [1, 3]}");
  EXPECT_EQ(std::get<std::int64_t>(sides.value_at(0.0)), 1);
  EXPECT_EQ(std::get<std::int64_t>(sides.value_at(0.34)), 2);
  EXPECT_EQ(std::get<std::int64_t>(sides.value_at(0.999)), 3);
  const SampleAxis modes = axis(mode, "{choice: [pass, stop]}");
  EXPECT_EQ(std::get<std::string>(modes.value_at(0.49)), "pass");
  EXPECT_EQ(std::get<std::string>(modes.value_at(0.5)), "stop");
}

TEST(SampleAxes, StayInsideTheirHalfOpenRanges) {
  // A Latin hypercube point can round to 1, and low + u (high - low) to high.
  const SampleAxis densities = axis(density, "{uniform: [0.1, 0.4]}");
  for (const double u : {1.0, std::nextafter(1.0, 0.0), 0.9999999999999999}) {
    const double value = std::get<double>(densities.value_at(u));
    EXPECT_GE(value, 0.1);
    EXPECT_LT(value, 0.4) << u;
  }
  const SampleAxis scores =
      axis(real_param("score", 1.5, 1.0, 10.0, ""), "{loguniform: [1.5, 10]}");
  EXPECT_LT(std::get<double>(scores.value_at(1.0)), 10.0);
  EXPECT_GE(std::get<double>(scores.value_at(0.0)), 1.5);
  EXPECT_EQ(std::get<std::int64_t>(axis(width, "{int: [1, 3]}").value_at(1.0)), 3);
  EXPECT_EQ(std::get<std::string>(axis(mode, "{choice: [stop, pass]}").value_at(1.0)), "pass");
}

TEST(SampleAxes, ErrorsNameThePlaceAndTheProblem) {
  EXPECT_EQ(axis_error(width, "{uniform: [1, 3]}"),
            "cfg:1:2: sweep.sample.space.params.width: uniform samples real numbers; width is an "
            "integer key: sample it with {int: [low, high]}");
  EXPECT_EQ(axis_error(density, "{int: [0, 1]}"),
            "cfg:1:2: sweep.sample.space.params.density: int samples integers; density is not an "
            "integer key");
  EXPECT_EQ(
      axis_error(density, "{uniform: [0.5, 2]}"),
      "cfg:1:17: sweep.sample.space.params.density.uniform[1]: 2.0 is out of range [0.0, 1.0]");
  EXPECT_EQ(axis_error(rate, "{loguniform: [0, 1]}"),
            "cfg:1:15: sweep.sample.space.params.rate: loguniform needs low > 0");
  EXPECT_EQ(axis_error(density, "{uniform: [0.5, 0.5]}"),
            "cfg:1:11: sweep.sample.space.params.density: uniform needs finite low < high, and a "
            "finite high - low");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(axis_error(real_param("free", 0, -inf, inf, ""), "{uniform: [-1e308, 1e308]}"),
            "cfg:1:11: sweep.sample.space.params.free: uniform needs finite low < high, and a "
            "finite high - low");
  EXPECT_EQ(axis_error(mode, "{choice: [stop, walk]}"),
            "cfg:1:17: sweep.sample.space.params.mode.choice[1]: 'walk' is not one of: stop, pass");
}

// --- unit samples ------------------------------------------------------------------------

TEST(UnitSamples, SobolIsTheJoeKuoSequenceWithoutItsZeroPoint) {
  // The first points of the two-dimensional Sobol sequence (Joe and Kuo), point 0 left out.
  const std::vector<std::vector<double>> expected = {
      {0.5, 0.5},     {0.75, 0.25},   {0.25, 0.75},   {0.375, 0.375},
      {0.875, 0.875}, {0.625, 0.125}, {0.125, 0.625}, {0.1875, 0.3125}};
  EXPECT_EQ(unit_samples(SampleMethod::sobol, 8, 2, 1), expected);
  EXPECT_EQ(unit_samples(SampleMethod::sobol, 8, 2, 99), expected);
}

TEST(UnitSamples, RandomIsAFunctionOfTheSeed) {
  const auto first = unit_samples(SampleMethod::random, 50, 3, 7);
  EXPECT_EQ(first, unit_samples(SampleMethod::random, 50, 3, 7));
  EXPECT_NE(first, unit_samples(SampleMethod::random, 50, 3, 8));
  // A longer run starts with the shorter one: sample i does not depend on n.
  const auto longer = unit_samples(SampleMethod::random, 80, 3, 7);
  EXPECT_EQ(std::vector(longer.begin(), longer.begin() + 50), first);
  std::set<double> distinct;
  for (const auto& point : first) {
    for (const double u : point) {
      EXPECT_GE(u, 0.0);
      EXPECT_LT(u, 1.0);
      distinct.insert(u);
    }
  }
  EXPECT_EQ(distinct.size(), 150u);
}

TEST(UnitSamples, LatinHypercubeHasOnePointInEveryStratumOfEveryDimension) {
  for (const std::uint64_t seed : {1U, 2U, 3U, 40U}) {
    for (const std::size_t count : {1U, 2U, 7U, 64U, 100U}) {
      const auto points = unit_samples(SampleMethod::lhs, count, 4, seed);
      ASSERT_EQ(points.size(), count);
      for (std::size_t d = 0; d < 4; ++d) {
        std::vector<int> hits(count);
        for (const auto& point : points) {
          ASSERT_GE(point[d], 0.0);
          ASSERT_LT(point[d], 1.0);
          ++hits[static_cast<std::size_t>(point[d] * static_cast<double>(count))];
        }
        EXPECT_EQ(std::set<int>(hits.begin(), hits.end()), std::set<int>{1})
            << "seed " << seed << ", n " << count << ", dimension " << d;
      }
    }
  }
  EXPECT_NE(unit_samples(SampleMethod::lhs, 20, 2, 1), unit_samples(SampleMethod::lhs, 20, 2, 2));
}

}  // namespace
}  // namespace levelforge::config::sweep_values_test
