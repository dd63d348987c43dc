#include "runner/engine/island_migration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "kernels/api/rng.hpp"

namespace levelforge::island_migration_test {
namespace {

GaSettings islands(std::int64_t population, std::int64_t count, std::int64_t migrants,
                   MigrationTopology topology, MigrationPolicy policy) {
  GaSettings settings{population, 20, 3, 0.9, 0.02, 0, false, 1e300, 1, 0};
  settings.islands = count;
  settings.migration_every = 5;
  settings.migration_count = migrants;
  settings.migration_topology = topology;
  settings.migration_policy = policy;
  return settings;
}

struct Move {
  std::int64_t from, to, source, target;
  bool operator==(const Move&) const = default;
};

std::vector<Move> moves(const std::vector<MigrationEvent>& events) {
  std::vector<Move> result;
  result.reserve(events.size());
  for (const auto& event : events)
    result.push_back({event.from, event.to, event.source, event.target});
  return result;
}

TEST(IslandBlock, SplitsThePopulationIntoContiguousNearlyEqualBlocks) {
  // 10 individuals on 4 islands: floor(10 i / 4) = 0, 2, 5, 7, 10.
  const std::vector<std::pair<std::size_t, std::size_t>> expected{{0, 2}, {2, 5}, {5, 7}, {7, 10}};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto block = island_block(10, 4, i);
    EXPECT_EQ(block.begin, expected[i].first) << i;
    EXPECT_EQ(block.end, expected[i].second) << i;
  }
  EXPECT_EQ(island_block(7, 1, 0).size(), 7U);
}

TEST(PlanMigration, RingBestReplacesWorstHandComputed) {
  // Islands [0, 2), [2, 4), [4, 6). Best: 1 (5), 2 (3), 4 (9); worst: 0 (1), 3 (2), 5 (0).
  const std::vector<double> fitness{1, 5, 3, 2, 9, 0};
  const auto settings =
      islands(6, 3, 1, MigrationTopology::ring, MigrationPolicy::best_replace_worst);
  const auto events = plan_migration(settings, 1, 0, 5, fitness);
  EXPECT_EQ(moves(events), (std::vector<Move>{{0, 1, 1, 3}, {1, 2, 2, 5}, {2, 0, 4, 0}}));
  for (const auto& event : events) EXPECT_EQ(event.generation, 5);
}

TEST(PlanMigration, AllTopologyArrivalsTakeTheWorstPlacesInSourceOrder) {
  // Islands [0, 3), [3, 6), [6, 9), two migrants to each other island. Island 0 ranks
  // 2 (7) > 0 (4) > 1 (1); island 1: 5 (8) > 4 (6) > 3 (2); island 2: 6 (9) > 8 (5) > 7 (3).
  const std::vector<double> fitness{4, 1, 7, 2, 6, 8, 9, 3, 5};
  const auto settings =
      islands(9, 3, 1, MigrationTopology::all, MigrationPolicy::best_replace_worst);
  const auto events = plan_migration(settings, 1, 0, 5, fitness);
  // Island 0 receives from 1 (5) then 2 (6): worst 1, then 0.
  EXPECT_EQ(
      moves(events),
      (std::vector<Move>{
          {0, 1, 2, 3}, {0, 2, 2, 7}, {1, 0, 5, 1}, {1, 2, 5, 8}, {2, 0, 6, 0}, {2, 1, 6, 4}}));
}

TEST(PlanMigration, EqualFitnessIsBrokenByLowerPosition) {
  const std::vector<double> fitness(8, 1.0);
  const auto settings =
      islands(8, 2, 2, MigrationTopology::ring, MigrationPolicy::best_replace_worst);
  // Best: the lowest positions first; worst: the highest positions first.
  EXPECT_EQ(moves(plan_migration(settings, 1, 0, 5, fitness)),
            (std::vector<Move>{{0, 1, 0, 7}, {0, 1, 1, 6}, {1, 0, 4, 3}, {1, 0, 5, 2}}));
}

TEST(PlanMigration, RandomChoicesAreDistinctInsideTheirIslandsAndKeyedByGeneration) {
  std::vector<double> fitness(40);
  for (std::size_t i = 0; i < fitness.size(); ++i) fitness[i] = static_cast<double>((i * 7) % 11);
  const auto settings =
      islands(40, 5, 3, MigrationTopology::random, MigrationPolicy::random_replace_random);
  std::set<std::vector<std::int64_t>> routes_seen;
  for (std::int64_t generation = 5; generation <= 200; generation += 5) {
    const auto events = plan_migration(settings, 42, 3, generation, fitness);
    ASSERT_EQ(events.size(), 15U);
    EXPECT_EQ(moves(events), moves(plan_migration(settings, 42, 3, generation, fitness)));
    std::set<std::int64_t> targets;
    for (std::size_t e = 0; e < events.size(); ++e) {
      const auto& event = events[e];
      EXPECT_EQ(event.from, static_cast<std::int64_t>(e / 3));
      EXPECT_NE(event.to, event.from);
      EXPECT_EQ(event.source / 8, event.from);
      EXPECT_EQ(event.target / 8, event.to);
      EXPECT_TRUE(targets.insert(event.target).second) << "place taken twice";
    }
    std::set<std::int64_t> sources;
    for (const auto& event : events) sources.insert(event.source);
    EXPECT_EQ(sources.size(), 15U) << "a migrant drawn twice";
    // The destinations form one cycle through the five islands.
    std::vector<std::int64_t> route;
    for (std::size_t e = 0; e < events.size(); e += 3) route.push_back(events[e].to);
    std::int64_t island = 0;
    for (int step = 0; step < 5; ++step) island = route[static_cast<std::size_t>(island)];
    EXPECT_EQ(island, 0);
    EXPECT_EQ(std::set<std::int64_t>(route.begin(), route.end()).size(), 5U)
        << "every island receives from one other";
    routes_seen.insert(route);
  }
  // 4! = 24 cycles through five islands; 40 migrations see several of them.
  EXPECT_GT(routes_seen.size(), 5U);
  EXPECT_NE(moves(plan_migration(settings, 42, 3, 5, fitness)),
            moves(plan_migration(settings, 42, 3, 10, fitness)));
  EXPECT_NE(moves(plan_migration(settings, 42, 3, 5, fitness)),
            moves(plan_migration(settings, 42, 4, 5, fitness)));
}

TEST(ApplyMigration, CopiesAreTakenBeforeAnyPlaceIsOverwritten) {
  // Two islands swap their best into each other's worst; the second move's source was the
  // first move's target.
  std::vector<int> population{10, 11, 12, 13};
  const std::vector<MigrationEvent> events{{5, 0, 1, 0, 2}, {5, 1, 0, 2, 0}};
  apply_migration(std::span(events), population);
  EXPECT_EQ(population, (std::vector<int>{12, 11, 10, 13}));
  std::vector<std::byte> rows{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4},
                              std::byte{5}, std::byte{6}, std::byte{7}, std::byte{8}};
  apply_migration_rows(events, rows, 2);
  EXPECT_EQ(rows, (std::vector<std::byte>{std::byte{5}, std::byte{6}, std::byte{3}, std::byte{4},
                                          std::byte{1}, std::byte{2}, std::byte{7}, std::byte{8}}));
}

// The definition: every pair of individuals compared position by position.
std::vector<IslandDistances> brute_force_distances(const std::vector<std::int64_t>& genomes,
                                                   std::size_t length, std::size_t islands) {
  const std::size_t count = genomes.size() / length;
  const auto distance = [&](std::size_t a, std::size_t b) {
    std::size_t differ = 0;
    for (std::size_t j = 0; j < length; ++j)
      differ += genomes[a * length + j] != genomes[b * length + j] ? 1U : 0U;
    return static_cast<double>(differ) / static_cast<double>(length);
  };
  std::vector<IslandDistances> result(islands);
  for (std::size_t island = 0; island < islands; ++island) {
    const auto block = island_block(count, islands, island);
    double within = 0;
    double across = 0;
    std::size_t pairs_within = 0;
    std::size_t pairs_across = 0;
    for (std::size_t a = block.begin; a < block.end; ++a) {
      for (std::size_t b = 0; b < count; ++b) {
        if (b >= block.begin && b < block.end) {
          if (b > a) {
            within += distance(a, b);
            ++pairs_within;
          }
        } else {
          across += distance(a, b);
          ++pairs_across;
        }
      }
    }
    result[island].within = pairs_within == 0 ? 0.0 : within / static_cast<double>(pairs_within);
    result[island].to_others =
        pairs_across == 0 ? std::nan("") : across / static_cast<double>(pairs_across);
  }
  return result;
}

TEST(IslandDistances, HandComputedCases) {
  // One island [0 0], [0 1], [1 1]: the pairs differ in 1, 2 and 1 of 2 positions.
  const std::vector<std::int64_t> three{0, 0, 0, 1, 1, 1};
  const auto one = island_distances(three, 2, 1);
  EXPECT_DOUBLE_EQ(one[0].within, (0.5 + 1 + 0.5) / 3);
  EXPECT_TRUE(std::isnan(one[0].to_others));
  // Two islands of [0 0], [0 1] | [1 1], [1 1]: within 0.5 and 0; across, [0 0] differs from
  // [1 1] in 2 positions and [0 1] in 1: (1 + 1 + 0.5 + 0.5) / 4 for both islands.
  const std::vector<std::int64_t> four{0, 0, 0, 1, 1, 1, 1, 1};
  const auto two = island_distances(four, 2, 2);
  EXPECT_DOUBLE_EQ(two[0].within, 0.5);
  EXPECT_DOUBLE_EQ(two[1].within, 0.0);
  EXPECT_DOUBLE_EQ(two[0].to_others, 0.75);
  EXPECT_DOUBLE_EQ(two[1].to_others, 0.75);
  // Islands of one individual have no pairs within.
  EXPECT_DOUBLE_EQ(island_distances(std::vector<std::int64_t>{1, 2, 3}, 3, 1)[0].within, 0.0);
}

TEST(IslandDistances, EqualThePairwiseDefinitionOnRandomPopulations) {
  for (std::uint64_t trial = 0; trial < 300; ++trial) {
    Rng rng({7, Stream::init, trial, 0, 0});
    const std::size_t count = 1 + rng.below(30);
    const std::size_t length = 1 + rng.below(12);
    const std::size_t islands = 1 + rng.below(std::min<std::size_t>(count, 5));
    // Few values (counted per value) or values spread far apart (sorted).
    const std::uint64_t values = 1 + rng.below(5);
    const std::int64_t spread = trial % 2 == 0 ? 1 : std::int64_t{1} << 40;
    std::vector<std::int64_t> genomes(count * length);
    for (auto& gene : genomes) gene = (static_cast<std::int64_t>(rng.below(values)) - 2) * spread;
    const auto fast = island_distances(genomes, length, islands);
    const auto slow = brute_force_distances(genomes, length, islands);
    for (std::size_t island = 0; island < islands; ++island) {
      EXPECT_NEAR(fast[island].within, slow[island].within, 1e-12) << trial;
      if (std::isnan(slow[island].to_others)) {
        EXPECT_TRUE(std::isnan(fast[island].to_others)) << trial;
      } else {
        EXPECT_NEAR(fast[island].to_others, slow[island].to_others, 1e-12) << trial;
      }
    }
  }
}

}  // namespace
}  // namespace levelforge::island_migration_test
