#include "runner/engine/cma_emitters.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/testing/sphere.hpp"
#include "runner/drivers/qd/qd_spec.hpp"
#include "tests/solo_group.hpp"
#include "tests/sphere_kernel.hpp"

namespace levelforge::cma_emitters_test {
namespace {

using kernels::Sphere;

using testing::sphere_of;

QdSettings cma(const std::string& emitter, std::int64_t emitters, std::int64_t batch) {
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("emitter", ParamValue{emitter});
  section.set("emitters", ParamValue{emitters});
  section.set("batch", ParamValue{batch});
  section.set("bins", ParamValue{std::int64_t{10}});
  section.set("init", ParamValue{std::int64_t{20}});
  section.set("iterations", ParamValue{std::int64_t{12}});
  return QdSettings::from(section);
}

// By hand, alpha 0.5 from 0: 10 passes (value 10, threshold 5); 4 does not (value -1, the
// threshold stays); 7 passes (value 2, threshold 6); another cell keeps its own.
TEST(CmaEmitters, AThresholdMovesTowardEachFitnessThatPassesIt) {
  const auto kernel = sphere_of(4);
  auto settings = cma("cma_mae", 1, 4);
  settings.archive_learning_rate = 0.5;
  CmaEmitters emitters(kernel, settings, 3);
  EXPECT_EQ(emitters.pass_threshold(1, 10), 10);
  EXPECT_EQ(emitters.pass_threshold(1, 4), -1);
  EXPECT_EQ(emitters.pass_threshold(1, 7), 2);
  EXPECT_EQ(emitters.pass_threshold(2, 1), 1);
  const auto state = emitters.state();
  EXPECT_EQ(std::vector<double>(state.begin(), state.begin() + 3),
            (std::vector<double>{0, 6, 0.5}));
}

TEST(CmaEmitters, CandidatesStayWithinBoundsAndEachEmitterDrawsItsShare) {
  const auto kernel = sphere_of(6);
  CmaEmitters emitters(kernel, cma("cma_me", 3, 12), 100);
  EXPECT_EQ(emitters.per_emitter(), 4U);
  const Sphere::Genome elite(6, 9.0);
  const auto batch =
      emitters.ask(1, 0, 1, [&](Rng& /*rng*/) -> const Sphere::Genome& { return elite; });
  ASSERT_EQ(batch.size(), 12U);
  for (const auto& genome : batch) {
    for (const double gene : genome) {
      EXPECT_GE(gene, -10.24);
      EXPECT_LE(gene, 10.24);
    }
  }
}

// CMA-ME: an emitter none of whose candidates was added restarts; one with an addition goes on.
TEST(CmaEmitters, ACmaMeEmitterWithNothingAddedRestarts) {
  const auto kernel = sphere_of(4);
  CmaEmitters emitters(kernel, cma("cma_me", 2, 6), 10);
  const Sphere::Genome elite(4, 1.0);
  const auto pick = [&](Rng& /*rng*/) -> const Sphere::Genome& { return elite; };
  (void)emitters.ask(1, 0, 1, pick);
  std::vector<Insertion> insertions(6);
  insertions[4] = {Insertion::new_cell, 50};
  emitters.tell(insertions);
  EXPECT_EQ(emitters.restarts(), (std::vector<std::int64_t>{1, 0}));
}

// A task stopped after any iteration and resumed from its snapshot ends as the uninterrupted
// one: the emitters' searches and thresholds travel in the snapshot.
TEST(CmaEmitters, ATaskResumedFromItsSnapshotEqualsTheUninterruptedOne) {
  const auto kernel = sphere_of(6);
  for (const std::string emitter : {"cma_me", "cma_mae"}) {
    const auto settings = cma(emitter, 3, 12);
    testing::SoloGroupOf<QdSnapshot> whole_group;
    const auto whole = QdRun<Sphere>(kernel, settings, 5, 2, whole_group).run();
    for (const std::int64_t stop_after : {2, 7, 12}) {
      testing::StoppingGroupOf<QdSnapshot> stopping(stop_after);
      ASSERT_TRUE(QdRun<Sphere>(kernel, settings, 5, 2, stopping).run().stopped);
      EXPECT_FALSE(stopping.saved.search.empty());
      testing::SoloGroupOf<QdSnapshot> solo;
      const auto rest = QdRun<Sphere>(kernel, settings, 5, 2, solo).run(&stopping.saved);
      EXPECT_EQ(rest.history, whole.history) << emitter << " " << stop_after;
      EXPECT_EQ(rest.archive, whole.archive) << emitter << " " << stop_after;
      EXPECT_EQ(rest.genomes, whole.genomes) << emitter << " " << stop_after;
    }
    testing::StoppingGroupOf<QdSnapshot> stopping(4);
    (void)QdRun<Sphere>(kernel, settings, 5, 2, stopping).run();
    stopping.saved.search.resize(stopping.saved.search.size() - sizeof(double));
    testing::SoloGroupOf<QdSnapshot> solo;
    EXPECT_THROW((void)QdRun<Sphere>(kernel, settings, 5, 2, solo).run(&stopping.saved),
                 std::invalid_argument)
        << emitter;
  }
}

// The emitters differ from MAP-Elites and from each other, and a CMA-MAE with alpha 1 is not
// a plain CMA-ES: the settings reach the search.
TEST(CmaEmitters, EachEmitterSearchesItsOwnWay) {
  const auto kernel = sphere_of(6);
  std::vector<std::vector<std::int64_t>> archives;
  for (const std::string emitter : {"kernel", "cma_me", "cma_mae"}) {
    testing::SoloGroupOf<QdSnapshot> group;
    archives.push_back(QdRun<Sphere>(kernel, cma(emitter, 3, 12), 5, 2, group).run().genomes);
  }
  EXPECT_NE(archives[0], archives[1]);
  EXPECT_NE(archives[1], archives[2]);
  auto annealing = cma("cma_mae", 3, 12);
  annealing.archive_learning_rate = 0;
  testing::SoloGroupOf<QdSnapshot> group;
  EXPECT_NE(QdRun<Sphere>(kernel, annealing, 5, 2, group).run().genomes, archives[2]);
}

// qd.line_emitters: 3 CMA-ES emitters and 2 Iso+LineDD emitters share a batch of 20, 4 each:
// the CMA-ES emitters' 12 candidates first, the line emitters' 8 after them. Every round
// evaluates the whole batch, the schedule changes the search, and a task resumed from its
// snapshot ends as the uninterrupted one.
TEST(CmaEmitters, AScheduleOfCmaAndLineEmittersBreedsEachItsShare) {
  const auto kernel = sphere_of(6);
  auto mixed = cma("cma_mae", 3, 20);
  mixed.line_emitters = 2;
  EXPECT_EQ(mixed.per_emitter(), 4);
  EXPECT_EQ(mixed.cma_candidates(), 12);
  testing::SoloGroupOf<QdSnapshot> group;
  const auto whole = QdRun<Sphere>(kernel, mixed, 5, 2, group).run();
  ASSERT_EQ(group.reported.size(), 13U);  // the first 20 random genomes, then 12 rounds
  for (std::size_t round = 1; round < group.reported.size(); ++round)
    EXPECT_EQ(group.reported[round], 20U) << round;
  auto alone = mixed;
  alone.line_emitters = 0;
  testing::SoloGroupOf<QdSnapshot> alone_group;
  EXPECT_NE(QdRun<Sphere>(kernel, alone, 5, 2, alone_group).run().genomes, whole.genomes);
  for (const std::int64_t stop_after : {3, 9}) {
    testing::StoppingGroupOf<QdSnapshot> stopping(stop_after);
    ASSERT_TRUE(QdRun<Sphere>(kernel, mixed, 5, 2, stopping).run().stopped);
    testing::SoloGroupOf<QdSnapshot> solo;
    const auto rest = QdRun<Sphere>(kernel, mixed, 5, 2, solo).run(&stopping.saved);
    EXPECT_EQ(rest.archive, whole.archive) << stop_after;
    EXPECT_EQ(rest.genomes, whole.genomes) << stop_after;
  }
}

}  // namespace
}  // namespace levelforge::cma_emitters_test
