#include "runner/engine/cvt.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/testing/onemax.hpp"
#include "runner/drivers/qd/qd_spec.hpp"
#include "runner/engine/archive_cells.hpp"
#include "tests/random_cases.hpp"
#include "tests/solo_group.hpp"

namespace levelforge::cvt_test {
namespace {

// The reference: every centroid, the lower index on a tie.
std::size_t brute_force_nearest(std::span<const double> centroids, std::span<const double> point) {
  const auto dimensions = point.size();
  std::size_t nearest = 0;
  double shortest = std::numeric_limits<double>::infinity();
  for (std::size_t cell = 0; cell * dimensions < centroids.size(); ++cell) {
    double distance = 0;
    for (std::size_t d = 0; d < dimensions; ++d) {
      const double difference = centroids[cell * dimensions + d] - point[d];
      distance += difference * difference;
    }
    if (distance < shortest) {
      shortest = distance;
      nearest = cell;
    }
  }
  return nearest;
}

// Mean squared distance of `points` to their nearest centroid: what k-means lowers.
double distortion(std::span<const double> centroids, std::span<const double> points,
                  std::size_t dimensions) {
  double total = 0;
  const auto count = points.size() / dimensions;
  for (std::size_t i = 0; i < count; ++i) {
    const auto point = points.subspan(i * dimensions, dimensions);
    const auto cell = brute_force_nearest(centroids, point);
    for (std::size_t d = 0; d < dimensions; ++d) {
      const double difference = centroids[cell * dimensions + d] - point[d];
      total += difference * difference;
    }
  }
  return total / static_cast<double>(count);
}

// Random centroids, some on a coarse lattice and some repeated, so that ties of distance
// (equal first coordinates, equal points) are common; points on the same lattice.
TEST(CentroidIndex, EqualsTheBruteForceNearestCentroidOnRandomCases) {
  for (int c = 0; c < testing::random_cases(3000); ++c) {
    Rng rng({7, Stream::cvt, 1, 0, static_cast<std::uint64_t>(c)});
    const auto dimensions = 1 + rng.below(4);
    const auto cells = 1 + rng.below(60);
    const bool lattice = rng.bernoulli(0.5);
    const auto draw = [&] {
      return lattice ? static_cast<double>(rng.below(5)) / 4 : rng.uniform();
    };
    std::vector<double> centroids(cells * dimensions);
    for (auto& value : centroids) value = draw();
    if (cells > 2) {  // a repeated centroid
      std::copy_n(centroids.begin(), dimensions,
                  centroids.begin() + static_cast<std::ptrdiff_t>((cells - 1) * dimensions));
    }
    const CentroidIndex index(centroids, dimensions);
    for (int p = 0; p < 20; ++p) {
      std::vector<double> point(dimensions);
      for (auto& value : point) value = rng.bernoulli(0.1) ? draw() * 3 - 1 : draw();
      ASSERT_EQ(index.nearest(point), brute_force_nearest(centroids, point))
          << "case " << c << ", point " << p;
    }
  }
}

TEST(CvtCentroids, LieInTheUnitBoxAreTheSameForASeedAndLowerTheDistortion) {
  constexpr std::size_t dimensions = 2;
  constexpr std::size_t cells = 50;
  constexpr std::size_t samples = 5000;
  const auto fitted = cvt_centroids(dimensions, cells, samples, 20, 11);
  ASSERT_EQ(fitted.size(), cells * dimensions);
  for (const double value : fitted) {
    EXPECT_GE(value, 0);
    EXPECT_LT(value, 1);
  }
  EXPECT_EQ(fitted, cvt_centroids(dimensions, cells, samples, 20, 11));
  EXPECT_NE(fitted, cvt_centroids(dimensions, cells, samples, 20, 12));
  // No rounds: the first samples themselves.
  const auto first = cvt_centroids(dimensions, cells, samples, 0, 11);
  Rng sample({11, Stream::cvt, 0, 0, 3});
  EXPECT_EQ(first[6], sample.uniform());
  EXPECT_EQ(first[7], sample.uniform());
  // Fresh points from the same box: the fit quantizes them at least a third better than the
  // samples it started from (50 uniform cells of area 1/50 give about 0.0032).
  std::vector<double> fresh(20000 * dimensions);
  Rng rng({99, Stream::cvt, 0, 0, 0});
  for (auto& value : fresh) value = rng.uniform();
  const double before = distortion(first, fresh, dimensions);
  const double after = distortion(fitted, fresh, dimensions);
  EXPECT_LT(after, before * 2 / 3);
  EXPECT_LT(after, 0.0036);
}

QdSettings cvt_settings(std::int64_t cells, std::int64_t samples) {
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("archive", ParamValue{std::string("cvt")});
  section.set("cells", ParamValue{cells});
  section.set("cvt_samples", ParamValue{samples});
  return QdSettings::from(section);
}

// Measures of different ranges: the fit and the lookup take each range as [0, 1].
TEST(ArchiveCells, CvtCellsAreTheNearestCentroidWithEachRangeScaled) {
  const std::vector<MeasureSpec> measures{{"wide", -100, 300, ""}, {"narrow", 0, 0.5, ""}};
  const auto archive = archive_cells(cvt_settings(40, 4000), measures, 5);
  ASSERT_EQ(archive.count(), 40U);
  const auto& centroids = archive.centroids();
  ASSERT_EQ(centroids.size(), 80U);
  const auto unit = cvt_centroids(2, 40, 4000, cvt_rounds, 5);
  for (std::size_t cell = 0; cell < 40; ++cell) {
    EXPECT_NEAR(centroids[2 * cell], -100 + 400 * unit[2 * cell], 1e-9);
    EXPECT_NEAR(centroids[2 * cell + 1], 0.5 * unit[2 * cell + 1], 1e-12);
    EXPECT_EQ(archive.cell_of(std::span(centroids).subspan(2 * cell, 2)),
              static_cast<std::int64_t>(cell));
  }
  Rng rng({5, Stream::cvt, 2, 0, 0});
  for (int i = 0; i < testing::random_cases(2000); ++i) {
    const std::vector<double> point{rng.uniform() * 500 - 150, rng.uniform() * 0.7 - 0.1};
    const std::vector<double> scaled{(point[0] + 100) / 400, point[1] / 0.5};
    ASSERT_EQ(archive.cell_of(point), static_cast<std::int64_t>(brute_force_nearest(unit, scaled)))
        << point[0] << ", " << point[1];
  }
}

TEST(ArchiveCells, AGridIsTheGridOfTheAxes) {
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("bins", ParamValue{std::int64_t{4}});
  const std::vector<MeasureSpec> measures{{"a", 0, 1, ""}, {"b", 0, 2, ""}};
  const auto archive = archive_cells(QdSettings::from(section), measures, 5);
  EXPECT_TRUE(archive.centroids().empty());
  EXPECT_EQ(archive.count(), 16U);
  EXPECT_EQ(archive.cell_of(std::vector<double>{0.3, 1.9}), 1 * 4 + 3);
}

TEST(ArchiveCells, FewerSamplesThanCellsAreRefused) {
  const std::vector<MeasureSpec> measures{{"a", 0, 1, ""}};
  try {
    (void)archive_cells(cvt_settings(100, 99), measures, 1);
    FAIL() << "no error";
  } catch (const KernelError& error) {
    EXPECT_STREQ(error.what(),
                 "qd.cvt_samples = 99 is fewer than qd.cells = 100: k-means needs a sample per "
                 "centroid at least");
  }
}

// MAP-Elites over CVT cells: every elite sits in the cell of the centroid nearest its measures
// (found by brute force here), and each cell holds at most one.
TEST(ArchiveCells, QdRunKeepsEachEliteInItsNearestCentroidsCell) {
  auto params = ParamSet::defaults(kernels::OneMax::parameters());
  params.set("length", ParamValue{std::int64_t{30}});
  const kernels::OneMax kernel(params);
  auto settings = cvt_settings(25, 2500);
  settings.init = 50;
  settings.iterations = 10;
  settings.batch = 20;
  testing::SoloGroupOf<QdSnapshot> group;
  QdRun<kernels::OneMax> run(kernel, settings, 3, 0, group);
  const auto outcome = run.run();
  const auto unit = cvt_centroids(2, 25, 2500, cvt_rounds, 3);
  const auto layout = qd_archive_layout(kernels::OneMax::evaluation_fields(), run.axes());
  const auto size = layout.row_size();
  ASSERT_EQ(outcome.archive.size(), 25 * size);
  const auto measures_at = layout.fields().size() - 2;
  std::size_t occupied = 0;
  for (std::size_t cell = 0; cell < 25; ++cell) {
    const auto row = std::span(outcome.archive).subspan(cell * size, size);
    EXPECT_EQ(layout.get_int(row, 0), static_cast<std::int64_t>(cell));
    if (layout.get_int(row, 1) == 0) continue;
    ++occupied;
    // OneMax's measures already span [0, 1].
    const std::vector<double> point{layout.get_real(row, measures_at),
                                    layout.get_real(row, measures_at + 1)};
    EXPECT_EQ(brute_force_nearest(unit, point), cell);
  }
  EXPECT_GT(occupied, 10U);
}

}  // namespace
}  // namespace levelforge::cvt_test
