// The monsters kernel: its species catalogue, its parameters, and the behaviour the
// document intends emerging from small batches of worlds.

#include <gtest/gtest.h>

#include <cmath>

#include <string>
#include <utility>
#include <vector>

#include "kernels/monsters/monsters.hpp"
#include "tests/error_message.hpp"

namespace levelforge {
namespace {

using kernels::Monsters;
using testing::error_message;

DataNode scalar(std::string text) { return DataNode::scalar(std::move(text)); }

DataNode entry(std::vector<std::pair<std::string, DataNode>> members, std::string where = "") {
  return DataNode::map(std::move(members), std::move(where));
}

DataNode goblin() {
  return entry({{"name", scalar("goblin")},
                {"strength", scalar("2")},
                {"hp", scalar("6")},
                {"motives", entry({{"aggression", scalar("3")},
                                   {"fear", scalar("3")},
                                   {"desire", scalar("2")},
                                   {"wander", scalar("1")}})},
                {"wants", entry({{"gold", scalar("3")}})},
                {"relations", entry({{"orc", scalar("-2")}})},
                {"fears", entry({{"orc", scalar("2")}})}},
               "goblin.yaml:1:1");
}

DataNode orc() {
  return entry({{"name", scalar("orc")},
                {"strength", scalar("4")},
                {"hp", scalar("12")},
                {"smart", scalar("false")},
                {"motives", entry({{"aggression", scalar("5")}, {"wander", scalar("2")}})},
                {"relations", entry({{"hero", scalar("-3")}})}});
}

ParamTable catalogue(std::vector<DataNode> species) {
  return {std::make_shared<const DataNode>(DataNode::list(std::move(species)))};
}

ParamSet params(const std::vector<std::pair<std::string, ParamValue>>& changes = {}) {
  ParamSet set = ParamSet::defaults(Monsters::parameters());
  set.set("species", catalogue({goblin(), orc()}));
  set.set("worlds", std::int64_t{60});
  set.set("turns", std::int64_t{80});
  for (const auto& [name, value] : changes) set.set(name, value);
  return set;
}

double field(const Record& record, std::string_view name) {
  const auto fields = Monsters::record_fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) {
      if (const auto* real = std::get_if<double>(&record[i])) return *real;
      return static_cast<double>(std::get<std::int64_t>(record[i]));
    }
  }
  ADD_FAILURE() << "no field " << name;
  return 0;
}

Record run(const ParamSet& set, std::uint64_t task = 0) {
  Rng rng({99, Stream::sweep_run, task, 0, 0});
  return Monsters(set).run(rng);
}

TEST(Species, ReadsTheCatalogue) {
  const auto species = monsters::read_species(*catalogue({goblin(), orc()}).root);
  ASSERT_EQ(species.size(), 2U);
  EXPECT_EQ(species[0].name, "goblin");
  EXPECT_EQ(species[0].fear, 3);
  EXPECT_EQ(species[0].wants[0], 3);                        // gold
  EXPECT_EQ(species[0].wants[1], -1);                       // food: not wanted
  EXPECT_EQ(species[0].relation[monsters::hero_kind], -1);  // the default
  EXPECT_EQ(species[0].relation[1], 1);                     // itself
  EXPECT_EQ(species[0].relation[2], -2);                    // orcs, as written
  EXPECT_EQ(species[0].fears[2], 2);
  EXPECT_FALSE(species[1].smart);
  EXPECT_EQ(species[1].relation[monsters::hero_kind], -3);
  EXPECT_EQ(species[1].perception, 5);  // the default
}

TEST(Species, RefusalsNameThePlace) {
  const DataNode typo =
      entry({{"name", scalar("goblin")}, {"strenght", scalar("2")}}, "goblin.yaml:1:1");
  EXPECT_PRED_FORMAT2(
      ::testing::IsSubstring, "unknown key 'strenght'",
      error_message<KernelError>([&] { (void)monsters::read_species(*catalogue({typo}).root); }));
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "'orc' is neither the hero nor a species of the catalogue (hero, goblin)",
                      error_message<KernelError>(
                          [&] { (void)monsters::read_species(*catalogue({goblin()}).root); }));
  EXPECT_PRED_FORMAT2(::testing::IsSubstring, "species 'orc' is defined twice",
                      error_message<KernelError>([&] {
                        (void)monsters::read_species(*catalogue({goblin(), orc(), orc()}).root);
                      }));
  EXPECT_PRED_FORMAT2(
      ::testing::IsSubstring, "the species catalogue is empty",
      error_message<KernelError>([&] { (void)monsters::read_species(*catalogue({}).root); }));
  const DataNode hero = entry({{"name", scalar("hero")}});
  EXPECT_PRED_FORMAT2(::testing::IsSubstring, "'hero' is reserved", error_message<KernelError>([&] {
                        (void)monsters::read_species(*catalogue({hero}).root);
                      }));
  const DataNode strong = entry({{"name", scalar("orc")}, {"strength", scalar("1000")}});
  EXPECT_PRED_FORMAT2(
      ::testing::IsSubstring, "1000 is out of range [0, 100]",
      error_message<KernelError>([&] { (void)monsters::read_species(*catalogue({strong}).root); }));
}

TEST(Kernel, RefusesWhatItCannotPlace) {
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "monster: species 'troll' is not in params.species (goblin, orc)",
                      error_message<KernelError>([&] {
                        (void)Monsters(params({{"monster", std::string("troll")}}));
                      }));
  EXPECT_PRED_FORMAT2(
      ::testing::IsSubstring, "groups x group_size = 80 exceeds 64 monsters per world",
      error_message<KernelError>([&] {
        (void)Monsters(params({{"groups", std::int64_t{16}}, {"group_size", std::int64_t{5}}}));
      }));
  EXPECT_NO_THROW(Monsters(params({{"monster", std::string("goblin+orc")}})));
}

TEST(Kernel, RecordsEveryFieldDeterministically) {
  const Record first = run(params());
  ASSERT_EQ(first.size(), Monsters::record_fields().size());
  EXPECT_EQ(first, run(params()));
  EXPECT_NE(first, run(params(), 1));
  EXPECT_EQ(field(first, "worlds"), 60);
  const double p = field(first, "p_survive");
  EXPECT_GE(p, 0.0);
  EXPECT_LE(p, 1.0);
  double shares = 0;
  for (const char* motive : {"fear", "aggression", "desire", "misc", "wander", "none"}) {
    shares += field(first, std::string("share_") + motive);
  }
  EXPECT_NEAR(shares, 1.0, 1e-12);
  EXPECT_GT(field(first, "decisions"), 0);
}

TEST(Kernel, ReferenceScoringGivesTheSameRecord) {
  EXPECT_EQ(run(params({{"worlds", std::int64_t{10}}})),
            run(params({{"worlds", std::int64_t{10}}, {"scoring", std::string("reference")}})));
}

// The document's intent: fear makes monsters flee, which spares the hero.
TEST(Behaviour, MoreFearMoreFleeingAndMoreHeroesSurvive) {
  const auto with_fear = [](std::int64_t fear) {
    return run(
        params({{"fear", fear}, {"worlds", std::int64_t{150}}, {"hero_hp", std::int64_t{30}}}));
  };
  const Record fearless = with_fear(0);
  const Record fearful = with_fear(12);
  EXPECT_EQ(field(fearless, "flee_mean"), 0);
  EXPECT_GT(field(fearful, "flee_mean"), 5);
  EXPECT_GT(field(fearful, "p_survive"), field(fearless, "p_survive") + 0.05);
}

// Buddies add their strength to aggression: in bigger groups, a monster that sees an
// enemy attacks rather than flees more often.
TEST(Behaviour, BiggerGroupsAreMoreAggressive) {
  const auto with_size = [](std::int64_t size) {
    return run(params({{"group_size", size}, {"worlds", std::int64_t{150}}}));
  };
  const Record alone = with_size(1);
  const Record packs = with_size(6);
  EXPECT_GT(field(packs, "aggression_in_sight"), field(alone, "aggression_in_sight") + 0.1);
  EXPECT_LT(field(packs, "fear_in_sight"), field(alone, "fear_in_sight") - 0.1);
}

TEST(Genome, EncodesAndVariesWithinRange) {
  const Monsters kernel(params());
  Rng rng({5, Stream::mutation, 0, 0, 0});
  for (int trial = 0; trial < 200; ++trial) {
    Monsters::Genome genome = kernel.random_genome(rng);
    kernel.mutate(genome, 0.5, rng);
    std::vector<std::int64_t> stored(kernel.genome_length());
    kernel.encode(genome, stored);
    EXPECT_EQ(kernel.decode(stored), genome);
    EXPECT_GE(genome[5], 1);  // strength
    EXPECT_LE(genome[3], 6);  // wander level
    for (const auto gene : genome) {
      EXPECT_GE(gene, 0);
      EXPECT_LE(gene, 20);
      EXPECT_EQ(gene, std::round(gene));  // the GA's own operators keep the genes whole
    }
  }
  std::vector<std::int64_t> stored(kernel.genome_length());
  kernel.encode({3, 3, 2, 7, 0, 2}, stored);  // wander 7 > 6
  EXPECT_THROW((void)kernel.decode(stored), KernelError);
}

// A real gene (a CMA-ES or line emitter's) plays as its whole stat, rounded to the nearest.
TEST(Genome, RealGenesPlayAsTheirRoundedStats) {
  const Monsters kernel(params({{"worlds", std::int64_t{30}}}));
  Rng whole({5, Stream::evaluation, 2, 0, 0});
  Rng real({5, Stream::evaluation, 2, 0, 0});
  EXPECT_EQ(kernel.evaluate({3, 3, 2, 1, 0, 2}, whole).record,
            kernel.evaluate({2.6, 3.4, 1.5, 1.2, 0.3, 2.49}, real).record);
}

TEST(Genome, FitnessIsOneMinusTheDistanceToTheTarget) {
  const Monsters kernel(params({{"target", 0.8}, {"worlds", std::int64_t{40}}}));
  Rng rng({5, Stream::evaluation, 0, 0, 0});
  const Evaluation evaluation = kernel.evaluate({3, 3, 2, 1, 0, 2}, rng);
  const double p = std::get<double>(evaluation.record[0]);
  EXPECT_DOUBLE_EQ(evaluation.fitness, 1.0 - std::abs(0.8 - p));
  // A harmless species (no aggression, strength 1) lets every hero live.
  Rng again({5, Stream::evaluation, 1, 0, 0});
  EXPECT_EQ(std::get<double>(kernel.evaluate({0, 0, 0, 1, 0, 1}, again).record[0]), 1.0);
}

// ------------------------------------------------------------------------- qd measures

TEST(MonstersMeasures, HandComputedFromTheEvaluation) {
  const Monsters kernel(params());
  const auto specs = kernel.measures();
  ASSERT_EQ(specs.size(), 2U);
  EXPECT_EQ(specs[0].name, "p_survive");
  EXPECT_EQ(specs[1].name, "flight");
  const Monsters::Genome genome = {3, 3, 2, 1, 0, 2};
  // Record: p_survive, turns_mean, flee_mean, share_aggression, share_fear.
  EXPECT_EQ(kernel.measure(genome, {0.9, {0.4, 70.0, 12.0, 0.125, 0.375}}),
            (std::vector<double>{0.4, 0.75}));  // 0.375 / (0.125 + 0.375)
  EXPECT_EQ(kernel.measure(genome, {0.9, {0.4, 70.0, 0.0, 0.25, 0.0}}),
            (std::vector<double>{0.4, 0}));  // attacks, never flees
  EXPECT_EQ(kernel.measure(genome, {0.9, {1.0, 80.0, 0.0, 0.0, 0.0}}),
            (std::vector<double>{1, 0.5}));  // neither
}

TEST(MonstersMeasures, HandKnownSpecies) {
  const Monsters kernel(params({{"worlds", std::int64_t{20}}, {"turns", std::int64_t{60}}}));
  // Aggression off: no monster ever attacks, so every hero lives; fear at its highest wins
  // every decision that is not wandering or desire: flight 1.
  Rng coward_rng({6, Stream::evaluation, 0, 0, 0});
  const Monsters::Genome coward = {0, 20, 0, 0, 0, 1};
  const auto coward_evaluation = kernel.evaluate(coward, coward_rng);
  EXPECT_EQ(kernel.measure(coward, coward_evaluation), (std::vector<double>{1, 1}));
  EXPECT_GT(std::get<double>(coward_evaluation.record[4]), 0) << "fear won some decisions";
  // Fear off: no monster ever flees: flight 0.
  Rng brute_rng({6, Stream::evaluation, 0, 0, 1});
  const Monsters::Genome brute = {20, 0, 0, 0, 0, 10};
  const auto brute_evaluation = kernel.evaluate(brute, brute_rng);
  const auto brute_values = kernel.measure(brute, brute_evaluation);
  EXPECT_EQ(brute_values[1], 0);
  EXPECT_EQ(brute_values[0], std::get<double>(brute_evaluation.record[0]));
  EXPECT_LT(brute_values[0], 1) << "strong, aggressive goblins kill some heroes";
  // Neither motive on: flight 0.5, and nobody is hurt.
  Rng idle_rng({6, Stream::evaluation, 0, 0, 2});
  const Monsters::Genome idle = {0, 0, 5, 2, 0, 5};
  EXPECT_EQ(kernel.measure(idle, kernel.evaluate(idle, idle_rng)), (std::vector<double>{1, 0.5}));
}

TEST(MonstersMeasures, RandomGenomesMeasureInRange) {
  const Monsters kernel(params({{"worlds", std::int64_t{3}}, {"turns", std::int64_t{40}}}));
  const auto specs = kernel.measures();
  ASSERT_EQ(specs.size(), 2U);
  int fled = 0;
  int attacked = 0;
  for (std::uint64_t i = 0; i < 200; ++i) {
    Rng rng({7, Stream::evaluation, 0, 0, i});
    const auto genome = kernel.random_genome(rng);
    const auto evaluation = kernel.evaluate(genome, rng);
    const auto values = kernel.measure(genome, evaluation);
    ASSERT_EQ(values.size(), specs.size());
    for (std::size_t m = 0; m < specs.size(); ++m) {
      EXPECT_GE(values[m], specs[m].low) << specs[m].name;
      EXPECT_LE(values[m], specs[m].high) << specs[m].name;
    }
    EXPECT_EQ(values[0], std::get<double>(evaluation.record[0]));
    const double aggression = std::get<double>(evaluation.record[3]);
    const double fear = std::get<double>(evaluation.record[4]);
    if (aggression + fear > 0) {
      EXPECT_DOUBLE_EQ(values[1], fear / (aggression + fear));
    }
    fled += values[1] > 0.5 ? 1 : 0;
    attacked += values[1] < 0.5 ? 1 : 0;
  }
  EXPECT_GT(fled, 10);
  EXPECT_GT(attacked, 10);
}

}  // namespace
}  // namespace levelforge
