#include "runner/engine/cma_breeding.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/testing/sphere.hpp"
#include "runner/drivers/ga/ga_spec.hpp"
#include "tests/error_message.hpp"
#include "tests/solo_group.hpp"
#include "tests/sphere_kernel.hpp"

namespace levelforge::cma_breeding_test {
namespace {

using kernels::Sphere;

using testing::sphere_of;

GaSettings cma_es(std::int64_t population, std::int64_t generations, double sigma0) {
  auto section = ParamSet::defaults(GaSpec::settings());
  section.set("breeding", ParamValue{std::string("cma_es")});
  section.set("population", ParamValue{population});
  section.set("generations", ParamValue{generations});
  section.set("sigma0", ParamValue{sigma0});
  section.set("keep_best", ParamValue{std::int64_t{1}});
  return GaSettings::from(section);
}

// The sphere in 10 dimensions (its optimum x_i = 2.048, fitness 100): CMA-ES with Hansen's
// population of 10 (9 candidates and the elite) gets within 1e-8 of it in about 1,300
// evaluations; the tutorial's figure is about 1,500 from a start of similar distance.
TEST(CmaBreeding, AGaTaskOfCmaEsReachesTheSpheresOptimum) {
  const auto kernel = sphere_of(10);
  auto settings = cma_es(10, 400, 0.1);
  settings.stop_fitness = 100 * (1 - 1e-8 / (10 * 7.168 * 7.168));
  for (const std::uint64_t task : {0U, 1U, 2U}) {
    testing::SoloGroup group;
    const auto outcome = GaRun<Sphere>(kernel, settings, 1, task, group).run();
    const auto best = ga_best_layout(Sphere::evaluation_fields());
    const auto row = std::span(outcome.best).first(best.row_size());
    EXPECT_LT(best.get_real(row, 2), 1e-8) << "task " << task;  // the raw sphere value
    EXPECT_LT(outcome.evaluations, 2000U) << "task " << task;
  }
}

// A task stopped after any generation and resumed from its snapshot ends as the
// uninterrupted one: the search travels in the snapshot.
TEST(CmaBreeding, ATaskResumedFromItsSnapshotEqualsTheUninterruptedOne) {
  const auto kernel = sphere_of(5);
  const auto settings = cma_es(8, 30, 0.2);
  testing::SoloGroup whole_group;
  const auto whole = GaRun<Sphere>(kernel, settings, 3, 4, whole_group).run();
  for (const std::int64_t stop_after : {1, 2, 17}) {
    testing::StoppingGroupOf<GaSnapshot> stopping(stop_after);
    ASSERT_TRUE(GaRun<Sphere>(kernel, settings, 3, 4, stopping).run().stopped);
    testing::SoloGroup solo;
    const auto rest = GaRun<Sphere>(kernel, settings, 3, 4, solo).run(&stopping.saved);
    EXPECT_EQ(rest.history, whole.history) << stop_after;
    EXPECT_EQ(rest.best_genomes, whole.best_genomes) << stop_after;
  }
}

// A search whose step is below CMA-ES's floor stalls at once: the next generation restarts
// it at a random genome, and the restart counts.
TEST(CmaBreeding, AStalledSearchRestartsAtARandomGenome) {
  const auto kernel = sphere_of(4);
  auto settings = cma_es(6, 5, 0.1);
  settings.sigma0 = 1e-13;
  CmaBreeding breeding(kernel, settings);
  const std::vector<Sphere::Genome> start(6, Sphere::Genome(4, 1.0));
  const auto random = [&](Rng& rng) { return kernel.random_genome(rng); };
  const auto first = breeding.next(1, 0, 1, start, random);
  ASSERT_EQ(first.size(), 5U);
  EXPECT_EQ(breeding.restarts(), 0);
  (void)breeding.next(1, 0, 2, first, random);
  EXPECT_EQ(breeding.restarts(), 1);
  CmaBreeding restored(kernel, settings);
  restored.restore(breeding.state());
  EXPECT_EQ(restored.state(), breeding.state());
  EXPECT_THROW(restored.restore(std::vector<double>{0, 1, 2}), std::invalid_argument);
}

TEST(CmaBreeding, SettingsThatCannotWorkAreRefused) {
  auto section = ParamSet::defaults(GaSpec::settings());
  section.set("breeding", ParamValue{std::string("cma_es")});
  section.set("islands", ParamValue{std::int64_t{2}});
  EXPECT_EQ(testing::error_message<KernelError>([&] { (void)GaSettings::from(section); }),
            "ga.breeding: cma_es samples one population; ga.islands must be 1");
  section.set("islands", ParamValue{std::int64_t{1}});
  section.set("population", ParamValue{std::int64_t{3}});
  section.set("elitism", ParamValue{std::int64_t{2}});
  EXPECT_EQ(testing::error_message<KernelError>([&] { (void)GaSettings::from(section); }),
            "ga.breeding: cma_es samples ga.population - ga.elitism (1) candidates a "
            "generation; at least 2");
}

}  // namespace
}  // namespace levelforge::cma_breeding_test
