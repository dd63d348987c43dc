#include "runner/engine/novelty_archive.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/testing/sphere.hpp"
#include "runner/drivers/qd/qd_spec.hpp"
#include "tests/random_cases.hpp"
#include "tests/solo_group.hpp"
#include "tests/sphere_kernel.hpp"

namespace levelforge::novelty_archive_test {
namespace {

QdSettings novelty(std::int64_t entries, std::int64_t k, double threshold, bool competition) {
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("archive", ParamValue{std::string("novelty")});
  section.set("cells", ParamValue{entries});
  section.set("k_neighbors", ParamValue{k});
  section.set("novelty_threshold", ParamValue{threshold});
  section.set("local_competition", ParamValue{competition});
  return QdSettings::from(section);
}

const std::vector<MeasureAxis> box{{"a", 0, 10, 1}, {"b", -1, 1, 1}};

// By hand, with the ranges scaled to [0, 1]: entries (0, -1) and (10, -1) are (0, 0) and
// (1, 0); (5, -1) is 0.5 from each; (0, 1) is 1 from the first, sqrt(2) from the second.
TEST(NoveltyArchive, NoveltyIsTheMeanDistanceToTheNearestEntriesInScaledMeasures) {
  NoveltyArchive archive(box, novelty(10, 2, 0.1, true));
  EXPECT_TRUE(std::isinf(archive.novelty(std::vector<double>{3, 0})));
  archive.put(0, std::vector<double>{0, -1});
  EXPECT_DOUBLE_EQ(archive.novelty(std::vector<double>{0, 1}), 1);  // fewer than k: all
  archive.put(1, std::vector<double>{10, -1});
  EXPECT_EQ(archive.size(), 2U);
  EXPECT_DOUBLE_EQ(archive.novelty(std::vector<double>{5, -1}), 0.5);
  EXPECT_DOUBLE_EQ(archive.novelty(std::vector<double>{0, 1}), (1 + std::sqrt(2.0)) / 2);
  NoveltyArchive nearest(box, novelty(10, 1, 0.1, true));
  nearest.put(0, std::vector<double>{0, -1});
  nearest.put(1, std::vector<double>{10, -1});
  EXPECT_DOUBLE_EQ(nearest.novelty(std::vector<double>{0, 1}), 1);
}

TEST(NoveltyArchive, PlacesNewEntriesWhileThereIsRoomAndLetsTheFitterReplaceTheNearest) {
  NoveltyArchive archive(box, novelty(2, 1, 0.2, true));
  const std::vector<double> fitness{5, 7};
  EXPECT_EQ(archive.place(std::vector<double>{1, 0}, 0, fitness), 0U);  // empty: a new entry
  archive.put(0, std::vector<double>{1, 0});
  EXPECT_EQ(archive.place(std::vector<double>{9, 0}, 0, fitness), 1U);  // 0.8 away
  archive.put(1, std::vector<double>{9, 0});
  // Full: a novel candidate goes nowhere.
  EXPECT_EQ(archive.place(std::vector<double>{5, 1}, 100, fitness), std::nullopt);
  // Near entry 1 (fitness 7): fitter replaces it, not fitter goes nowhere.
  EXPECT_EQ(archive.place(std::vector<double>{8.5, 0}, 8, fitness), 1U);
  EXPECT_EQ(archive.place(std::vector<double>{8.5, 0}, 7, fitness), std::nullopt);
  NoveltyArchive alone(box, novelty(2, 1, 0.2, false));
  alone.put(0, std::vector<double>{1, 0});
  EXPECT_EQ(alone.place(std::vector<double>{1.5, 0}, 100, fitness), std::nullopt);
}

// Against a k-NN written out here: every distance, sorted, the first k averaged.
TEST(NoveltyArchive, EqualsABruteForceKNearestNeighboursMeanOnRandomCases) {
  for (int c = 0; c < testing::random_cases(300); ++c) {
    Rng rng({3, Stream::cvt, 7, 0, static_cast<std::uint64_t>(c)});
    const auto k = 1 + rng.below(8);
    const auto entries = 1 + rng.below(40);
    NoveltyArchive archive(box, novelty(100, static_cast<std::int64_t>(k), 0.1, true));
    std::vector<std::vector<double>> points;
    for (std::size_t e = 0; e < entries; ++e) {
      points.push_back({rng.uniform() * 10, rng.uniform() * 2 - 1});
      archive.put(e, points.back());
    }
    const std::vector<double> query{rng.uniform() * 12 - 1, rng.uniform() * 2 - 1};
    std::vector<double> distances(points.size());
    std::transform(points.begin(), points.end(), distances.begin(), [&](const auto& p) {
      return std::hypot((p[0] - query[0]) / 10, (p[1] - query[1]) / 2);
    });
    std::sort(distances.begin(), distances.end());
    const auto used = std::min<std::size_t>(k, entries);
    double sum = 0;
    for (std::size_t i = 0; i < used; ++i) sum += distances[i];
    ASSERT_NEAR(archive.novelty(query), sum / static_cast<double>(used), 1e-12) << "case " << c;
  }
}

// A novelty archive's task stopped and resumed from its snapshot ends as the uninterrupted
// one: the entries' measures come back from the saved rows.
TEST(NoveltyArchive, ATaskResumedFromItsSnapshotEqualsTheUninterruptedOne) {
  const auto kernel = testing::sphere_of(6);
  auto settings = novelty(300, 5, 0.03, true);
  settings.init = 30;
  settings.iterations = 10;
  settings.batch = 20;
  testing::SoloGroupOf<QdSnapshot> whole_group;
  const auto whole = QdRun<kernels::Sphere>(kernel, settings, 5, 1, whole_group).run();
  for (const std::int64_t stop_after : {1, 6}) {
    testing::StoppingGroupOf<QdSnapshot> stopping(stop_after);
    ASSERT_TRUE(QdRun<kernels::Sphere>(kernel, settings, 5, 1, stopping).run().stopped);
    testing::SoloGroupOf<QdSnapshot> solo;
    const auto rest = QdRun<kernels::Sphere>(kernel, settings, 5, 1, solo).run(&stopping.saved);
    EXPECT_EQ(rest.history, whole.history) << stop_after;
    EXPECT_EQ(rest.archive, whole.archive) << stop_after;
  }
}

}  // namespace
}  // namespace levelforge::novelty_archive_test
