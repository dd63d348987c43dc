// JSwing's formulas on hand-built situations (docs/monsters.md works each one out), and
// the structure-of-arrays scoring held equal to the scalar reference on random worlds.

#include <gtest/gtest.h>

#include <ostream>
#include <tuple>
#include <vector>

#include "kernels/monsters/decision.hpp"
#include "kernels/monsters/simulation.hpp"

namespace levelforge::monsters {

void PrintTo(const Perception& p, std::ostream* out) {
  for (std::size_t k = 0; k < motive_count; ++k) {
    *out << "motive " << k << ": [";
    for (const auto score : p.scores[k]) *out << score << ' ';
    *out << "] here " << p.here[k] << "; ";
  }
  *out << "enemy " << p.nearest_enemy << " at " << p.nearest_enemy_distance << ", item "
       << p.best_item << " at " << p.best_item_distance;
}

namespace {

constexpr int east = 0;
constexpr int west = 4;

Map open_room(int width = 16, int height = 12) {
  Rng rng({1, Stream::sweep_run, 0, 0, 0});
  return make_map(width, height, Layout::room, rng);
}

// A species with every motive off, friend to itself (kind 1), enemy of the hero and kind 2.
Species plain(int strength = 2, int hp = 6) {
  Species species;
  species.name = "test";
  species.strength = strength;
  species.hp = hp;
  species.perception = 6;
  species.relation[hero_kind] = -1;
  species.relation[1] = 1;
  species.relation[2] = -1;
  return species;
}

World with_hero(int x, int y, int strength = 3) {
  World world;
  world.hero_x = x;
  world.hero_y = y;
  world.hero_hp = world.hero_max_hp = 20;
  world.hero_strength = strength;
  return world;
}

World without_hero() {
  World world = with_hero(0, 0);
  world.hero_alive = false;
  return world;
}

std::vector<Perception> reference(const World& world, const Map& map) {
  std::vector<Perception> out(static_cast<std::size_t>(world.monster_count));
  score_reference(world, map, out);
  return out;
}

std::vector<Perception> fast(const World& world, const Map& map) {
  std::vector<Perception> out(static_cast<std::size_t>(world.monster_count));
  score_fast(world, map, out);
  return out;
}

std::vector<Decision> decisions_of(const World& world, const Map& map, Scoring scoring) {
  FastScorer scorer;
  std::vector<Decision> out(static_cast<std::size_t>(world.monster_count));
  decide_all(world, map, scoring, scorer, out);
  return out;
}

// Both implementations, checked equal, then the reference's answer.
Perception scored(const World& world, const Map& map, int monster) {
  const auto ours = reference(world, map);
  EXPECT_EQ(ours, fast(world, map));
  return ours[static_cast<std::size_t>(monster)];
}

TEST(Octant, NearestOfEightDirections) {
  EXPECT_EQ(octant(3, 0), 0);
  EXPECT_EQ(octant(3, -1), 0);  // 18 degrees: east
  EXPECT_EQ(octant(2, -1), 1);  // 27 degrees: north-east
  EXPECT_EQ(octant(0, -5), 2);
  EXPECT_EQ(octant(-1, -1), 3);
  EXPECT_EQ(octant(-4, 1), 4);
  EXPECT_EQ(octant(-2, 2), 5);
  EXPECT_EQ(octant(1, 3), 6);  // 72 degrees below the axis: south
  EXPECT_EQ(octant(2, 2), 7);
  EXPECT_EQ(chebyshev(-3, 2), 3);
}

TEST(Strength, WoundedUnderHalfLosesOne) {
  EXPECT_EQ(combat_strength(3, 6, 6), 3);
  EXPECT_EQ(combat_strength(3, 3, 6), 3);  // half is not under half
  EXPECT_EQ(combat_strength(3, 2, 6), 2);
  EXPECT_EQ(combat_strength(3, 2, 5), 2);  // 2 < 2.5
  EXPECT_EQ(combat_strength(3, 3, 5), 3);
}

TEST(Aggression, MyStrengthPlusBuddiesTimesSixMinusDistance) {
  const Map map = open_room();
  World world = with_hero(8, 5);
  Species goblin = plain(2);
  goblin.aggression = 3;
  add_monster(world, goblin, {}, 1, 0, 5, 5);  // hero 3 cells east
  add_monster(world, goblin, {}, 1, 0, 5, 6);  // an ally 1 cell away: adds 2 + 1 - 1 = 2
  // (2 + 2) * (6 - 3) + 2 * (3 + 0 hates + 0 hostility) = 18, toward the hero.
  const Perception p = scored(world, map, 0);
  EXPECT_EQ(p.scores[aggression_row][east], 18);
  EXPECT_EQ(p.nearest_enemy, 0);
  EXPECT_EQ(p.nearest_enemy_distance, 3);
  for (int d = 1; d < 8; ++d) EXPECT_EQ(p.scores[aggression_row][static_cast<std::size_t>(d)], 0);
}

TEST(Aggression, SpecialHatesAndHatredAddTwiceEach) {
  const Map map = open_room();
  World world = with_hero(8, 5);
  Species goblin = plain(2);
  goblin.aggression = 3;
  goblin.hates[hero_kind] = 2;
  goblin.relation[hero_kind] = -3;  // "hates": 2 more than a plain enemy
  add_monster(world, goblin, {}, 1, 0, 5, 5);
  // 2 * (6 - 3) + 2 * (3 + 2 + 2) = 20.
  EXPECT_EQ(scored(world, map, 0).scores[aggression_row][east], 20);
}

TEST(Aggression, WoundedMonsterHitsWithOneLess) {
  const Map map = open_room();
  World world = with_hero(7, 5);
  Species goblin = plain(4, 10);
  goblin.aggression = 1;
  add_monster(world, goblin, {}, 1, 0, 5, 5);
  world.hp[0] = 4;  // 4 < 10 / 2: combat strength 3
  // 3 * (6 - 2) + 2 * 1 = 14 (it would be 18 unwounded).
  EXPECT_EQ(scored(world, map, 0).scores[aggression_row][east], 14);
}

TEST(Aggression, ZeroWeightSwitchesItOff) {
  const Map map = open_room();
  World world = with_hero(7, 5);
  add_monster(world, plain(), {}, 1, 0, 5, 5);
  const Perception p = scored(world, map, 0);
  EXPECT_EQ(motive_strengths(p)[aggression_row], 0);
  EXPECT_EQ(p.nearest_enemy, 0);  // it still sees the hero
}

TEST(Fear, GoesToTheOppositeDirection) {
  const Map map = open_room();
  World world = with_hero(7, 5, 3);
  Species coward = plain(1);
  coward.fear = 2;
  coward.fears[hero_kind] = 1;
  add_monster(world, coward, {}, 1, 0, 5, 5);
  // 3 * (6 - 2) + 2 * 1 = 14 away from the hero (west), plus 2 * base fear = 4 because a
  // member of its group (itself) is afraid: 18.
  const Perception p = scored(world, map, 0);
  EXPECT_EQ(p.scores[fear_row][west], 18);
  EXPECT_EQ(motive_strengths(p)[fear_row], 18);
  const Decision decision = decide(world, 0, p);
  EXPECT_EQ(decision.motive, Motive::fear);
  EXPECT_EQ(decision.action, Action::move);
  EXPECT_EQ(decision.direction, west);
}

TEST(Fear, DumbMonstersSeeEveryEnemyAtStrengthOne) {
  const Map map = open_room();
  World world = with_hero(7, 5, 5);
  Species coward = plain(1);
  coward.fear = 2;
  coward.smart = false;
  add_monster(world, coward, {}, 1, 0, 5, 5);
  // 1 * (6 - 2) + 0 + group 4 = 8 (a smart one: 5 * 4 + 4 = 24).
  EXPECT_EQ(scored(world, map, 0).scores[fear_row][west], 8);
}

// Three orcs east of a goblin: at 2, 3 and 3 cells (all in the east octant).
World goblin_and_three_orcs(bool one_group) {
  World world = without_hero();
  Species goblin = plain(1);
  goblin.fear = 1;
  goblin.fears[2] = 2;
  Species orc = plain(3);
  orc.relation[1] = -1;
  orc.relation[2] = 1;
  add_monster(world, goblin, {}, 1, 0, 5, 5);
  add_monster(world, orc, {}, 2, 1, 7, 5);
  add_monster(world, orc, {}, 2, one_group ? 1 : 2, 8, 5);
  add_monster(world, orc, {}, 2, one_group ? 1 : 3, 8, 4);
  return world;
}

TEST(Fear, AGroupCountsAsOneMonster) {
  const Map map = open_room();
  // One group: (3 + 3 + 3) * (6 - 2) + 2 * 2 = 40, plus 2 * 1 for the group = 42.
  EXPECT_EQ(scored(goblin_and_three_orcs(true), map, 0).scores[fear_row][west], 42);
  // Three groups: 3 * 4 + 4, 3 * 3 + 4, 3 * 3 + 4 = 42, plus 2 = 44: the special fear
  // counts once per group, the distance of each.
  EXPECT_EQ(scored(goblin_and_three_orcs(false), map, 0).scores[fear_row][west], 44);
}

TEST(Fear, AMemberOfAnAfraidGroupAddsTwiceItsBaseFear) {
  const Map map = open_room(24, 12);
  World world = with_hero(4, 5);
  Species goblin = plain(1);
  goblin.fear = 3;
  goblin.perception = 4;
  add_monster(world, goblin, {}, 1, 0, 7, 5);   // sees the hero 3 cells west: afraid, flees east
  add_monster(world, goblin, {}, 1, 0, 11, 5);  // its group mate, 4 cells further: no hero
  add_monster(world, goblin, {}, 1, 1, 11, 6);  // another group: no bonus
  const Perception first = scored(world, map, 0);
  EXPECT_EQ(first.scores[fear_row][east], 3 * 3 + 6);
  const Perception mate = scored(world, map, 1);
  EXPECT_EQ(mate.scores[fear_row][east], 6);  // 2 * 3 the way its mate's fear points
  EXPECT_EQ(motive_strengths(mate)[fear_row], 6);
  EXPECT_EQ(motive_strengths(scored(world, map, 2))[fear_row], 0);
}

TEST(Desire, ValuesAreAddedNeverMultiplied) {
  const Map map = open_room();
  World world = without_hero();
  Species greedy = plain();
  greedy.desire = 2;
  greedy.wants = {3, 1, -1};  // gold 3, food 1, weapons not wanted
  add_monster(world, greedy, {}, 1, 0, 5, 5);
  const auto put = [&](int x, int y, ItemKind kind, int value) {
    const auto k = static_cast<std::size_t>(world.item_count++);
    world.item_x[k] = x;
    world.item_y[k] = y;
    world.item_kind[k] = static_cast<int>(kind);
    world.item_value[k] = value;
    world.present[k] = 1;
  };
  put(7, 5, ItemKind::gold, 5);    // 5 + (6 - 2) + 2 + 3 = 14
  put(8, 5, ItemKind::food, 4);    // 4 + (6 - 3) + 2 + 1 = 10
  put(5, 3, ItemKind::weapon, 6);  // not wanted
  put(5, 5, ItemKind::gold, 1);    // underfoot: 1 + 6 + 2 + 3 = 12, here
  const Perception p = scored(world, map, 0);
  EXPECT_EQ(p.scores[desire_row][east], 24);
  EXPECT_EQ(p.scores[desire_row][2], 0);
  EXPECT_EQ(p.here[desire_row], 12);
  EXPECT_EQ(p.best_item, 0);  // 14 is the largest term
  EXPECT_EQ(p.best_item_distance, 2);
}

TEST(Misc, GuardsItsPost) {
  const Map map = open_room();
  World world = without_hero();
  Species guard = plain();
  guard.misc = 4;
  add_monster(world, guard, {}, 1, 0, 5, 5);
  Perception p = scored(world, map, 0);
  EXPECT_EQ(p.here[misc_row], 8);
  EXPECT_EQ(decide(world, 0, p).action, Action::stay);
  world.x[0] = 8;  // 3 cells east of the post: pulled back west, 2 * 4 + 3
  p = scored(world, map, 0);
  EXPECT_EQ(p.scores[misc_row][west], 11);
  EXPECT_EQ(decide(world, 0, p).direction, west);
}

TEST(Wander, OneShiftedByTheLevelTwiceWhenConfused) {
  const Map map = open_room();
  World world = without_hero();
  Species wanderer = plain();
  wanderer.wander = 2;
  add_monster(world, wanderer, {}, 1, 0, 5, 5);
  world.wander_direction[0] = 6;
  EXPECT_EQ(scored(world, map, 0).scores[wander_row][6], 1 << 2);
  world.confused[0] = 1;
  EXPECT_EQ(scored(world, map, 0).scores[wander_row][6], 1 << 4);
}

TEST(Wander, RisesWhenStuckOrBackDecaysOtherwise) {
  World world = without_hero();
  Species wanderer = plain();
  wanderer.wander = 1;
  add_monster(world, wanderer, {}, 1, 0, 5, 5);
  update_wander(world, 0);  // stood still: 2
  EXPECT_EQ(world.wander[0], 2);
  world.x[0] = 6;
  update_wander(world, 0);  // moved on: 1
  EXPECT_EQ(world.wander[0], 1);
  world.x[0] = 5;
  update_wander(world, 0);  // came back: 2
  EXPECT_EQ(world.wander[0], 2);
  for (int turn = 0; turn < 10; ++turn) update_wander(world, 0);  // stuck: capped at 1 + 4
  EXPECT_EQ(world.wander[0], 5);
  for (int step = 1; step <= 10; ++step) {
    world.x[0] = 5 + step;
    update_wander(world, 0);
  }
  EXPECT_EQ(world.wander[0], 1);  // never under the base level
}

TEST(Wander, LongActionsDecideNothingAndKeepTheLevel) {
  const Map map = open_room();
  World world = without_hero();
  Species wanderer = plain();
  wanderer.wander = 3;
  add_monster(world, wanderer, {}, 1, 0, 5, 5);
  world.busy[0] = 1;
  EXPECT_EQ(decisions_of(world, map, Scoring::fast)[0], Decision{});
  EXPECT_EQ(reference(world, map)[0], Perception{});
}

TEST(Decision, MotiveVectorSumsTheDirectionsUnitVectors) {
  // East 3 and north 4 (y downward).
  const auto axes = motive_vector(3, 0, 4, 0, 0, 0, 0, 0);
  EXPECT_EQ(axes.x, 3.0);
  EXPECT_EQ(axes.y, -4.0);
  const auto north_east = motive_vector(0, 1, 0, 0, 0, 0, 0, 0);
  EXPECT_EQ(north_east.x, diagonal);
  EXPECT_EQ(north_east.y, -diagonal);
  // South 1 and south-east 2: (2 d, 1 + 2 d).
  const auto south = motive_vector(0, 0, 0, 0, 0, 0, 1, 2);
  EXPECT_EQ(south.x, 2 * diagonal);
  EXPECT_EQ(south.y, 1 + 2 * diagonal);
  // Opposite scores cancel exactly, diagonals included: no rounding residue.
  const auto cancelled = motive_vector(5, 2, 7, 3, 5, 2, 7, 3);
  EXPECT_EQ(cancelled.x, 0.0);
  EXPECT_EQ(cancelled.y, 0.0);
}

TEST(Decision, StrongestMotivePicksTheActionTheSumPicksTheWay) {
  const Map map = open_room();
  World world = with_hero(6, 5, 1);
  Species brave = plain(3);
  brave.aggression = 1;
  brave.fear = 1;
  add_monster(world, brave, {}, 1, 0, 5, 5);
  const Perception p = scored(world, map, 0);
  // aggression 3 * 5 + 2 = 17 east; fear 1 * 5 + 2 (group) = 7 west.
  EXPECT_EQ(motive_strengths(p)[aggression_row], 17);
  EXPECT_EQ(motive_strengths(p)[fear_row], 7);
  const Decision decision = decide(world, 0, p);
  EXPECT_EQ(decision.motive, Motive::aggression);
  EXPECT_EQ(decision.action, Action::attack);  // adjacent
  EXPECT_EQ(decision.target, 0);
  EXPECT_EQ(decision.direction, east);
}

TEST(Decision, RangedWeaponShootsAnEnemyInLine) {
  const Map map = open_room();
  World world = with_hero(9, 1);
  Species archer = plain(2);
  archer.aggression = 2;
  archer.ranged = 4;
  add_monster(world, archer, {}, 1, 0, 5, 5);  // hero 4 up-right, on the diagonal
  Decision decision = decide(world, 0, scored(world, map, 0));
  EXPECT_EQ(decision.action, Action::shoot);
  EXPECT_EQ(decision.direction, 1);
  world.hero_x = 8;  // off the line: it walks instead
  decision = decide(world, 0, scored(world, map, 0));
  EXPECT_EQ(decision.action, Action::move);
}

TEST(Decision, WallsBlockSight) {
  Map map = open_room();
  for (int y = 1; y < 11; ++y) map.set_wall(7, y, true);
  map.build_sight_table();
  World world = with_hero(9, 5);
  Species goblin = plain();
  goblin.aggression = 3;
  add_monster(world, goblin, {}, 1, 0, 5, 5);
  const Perception p = scored(world, map, 0);
  EXPECT_EQ(p.nearest_enemy, no_entity);
  EXPECT_EQ(motive_strengths(p)[aggression_row], 0);
}

// Two goblins of one group, side by side, afraid of an orc: both decide on the snapshot, so
// both flee the same way, though the first one's move would change what the second sees.
TEST(Decision, EveryMonsterDecidesFromTheSameSnapshot) {
  const Map map = open_room(24, 12);
  World world = without_hero();
  Species goblin = plain(1);
  goblin.fear = 2;
  goblin.aggression = 1;  // weaker than its fear, but it counts its buddies
  Species orc = plain(5);
  orc.relation[1] = -1;
  orc.relation[2] = 1;
  add_monster(world, goblin, {}, 1, 0, 10, 5);
  add_monster(world, goblin, {}, 1, 0, 10, 6);
  add_monster(world, orc, {}, 2, 1, 12, 5);
  const auto decisions = decisions_of(world, map, Scoring::fast);
  EXPECT_EQ(decisions[0].motive, Motive::fear);
  EXPECT_EQ(decisions[1].motive, Motive::fear);
  EXPECT_EQ(decisions[0].direction, west);
  // Resolving the first goblin's move first would change what the second one scores (its
  // buddy 2 cells away adds nothing), but its decision was made on the snapshot.
  World moved = world;
  moved.x[0] = 8;
  EXPECT_EQ(decisions_of(world, map, Scoring::reference), decisions);
  EXPECT_NE(reference(moved, map)[1], reference(world, map)[1]);
}

// ---- fast == reference ----------------------------------------------------------------

Species random_species(Rng& rng) {
  Species species;
  species.name = "random";
  species.strength = static_cast<int>(rng.below(6));
  species.hp = 1 + static_cast<int>(rng.below(12));
  species.perception = 1 + static_cast<int>(rng.below(max_perception));
  species.smart = rng.bernoulli(0.5);
  species.ranged = rng.bernoulli(0.3) ? static_cast<int>(rng.below(5)) : 0;
  const auto weight = [&] { return rng.bernoulli(0.2) ? 0 : static_cast<int>(rng.below(8)); };
  species.aggression = weight();
  species.fear = weight();
  species.desire = weight();
  species.misc = weight();
  species.wander = static_cast<int>(rng.below(5));
  for (auto& want : species.wants) want = static_cast<int>(rng.below(5)) - 1;
  for (int k = 0; k < 4; ++k) {
    const auto kind = static_cast<std::size_t>(k);
    species.relation[kind] = static_cast<int>(rng.below(7)) - 3;
    species.hates[kind] = static_cast<int>(rng.below(4));
    species.fears[kind] = static_cast<int>(rng.below(4));
  }
  return species;
}

World random_world(const Map& map, Rng& rng) {
  World world;
  const auto open_cell = [&] {
    while (true) {
      const int x = static_cast<int>(rng.below(static_cast<std::uint64_t>(map.width())));
      const int y = static_cast<int>(rng.below(static_cast<std::uint64_t>(map.height())));
      if (!map.wall(x, y)) return std::pair{x, y};
    }
  };
  const auto [hx, hy] = open_cell();
  world.hero_x = hx;
  world.hero_y = hy;
  world.hero_max_hp = 10;
  world.hero_hp = 1 + static_cast<int>(rng.below(10));
  world.hero_strength = 1 + static_cast<int>(rng.below(5));
  world.hero_alive = rng.bernoulli(0.8);
  const std::array<Species, 3> kinds = {random_species(rng), random_species(rng),
                                        random_species(rng)};
  const int count = 1 + static_cast<int>(rng.below(40));
  for (int i = 0; i < count; ++i) {
    // Creatures never share a cell in a world (placement and moves keep them apart).
    auto [x, y] = open_cell();
    const auto taken = [&](int cx, int cy) {
      if (cx == world.hero_x && cy == world.hero_y) return true;
      for (int j = 0; j < world.monster_count; ++j) {
        const auto other = static_cast<std::size_t>(j);
        if (world.x[other] == cx && world.y[other] == cy) return true;
      }
      return false;
    };
    while (taken(x, y)) std::tie(x, y) = open_cell();
    const int kind = 1 + static_cast<int>(rng.below(3));
    add_monster(world, kinds[static_cast<std::size_t>(kind - 1)], {}, kind,
                static_cast<int>(rng.below(6)), x, y);
    const auto lane = static_cast<std::size_t>(i);
    world.hp[lane] =
        1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(world.max_hp[lane])));
    world.alive[lane] = rng.bernoulli(0.9) ? 1 : 0;
    world.busy[lane] = rng.bernoulli(0.1) ? 1 : 0;
    world.confused[lane] = rng.bernoulli(0.2) ? 1 : 0;
    world.wander[lane] += static_cast<int>(rng.below(3));
    world.wander_direction[lane] = static_cast<int>(rng.below(8));
    const auto [px, py] = open_cell();
    if (rng.bernoulli(0.5)) {
      world.post_x[lane] = px;
      world.post_y[lane] = py;
    }
  }
  world.item_count = static_cast<int>(rng.below(20));
  for (int k = 0; k < world.item_count; ++k) {
    const auto [x, y] = open_cell();
    const auto item = static_cast<std::size_t>(k);
    world.item_x[item] = x;
    world.item_y[item] = y;
    world.item_kind[item] = static_cast<int>(rng.below(item_kind_count));
    world.item_value[item] = static_cast<int>(rng.below(10));
    world.present[item] = rng.bernoulli(0.85) ? 1 : 0;
  }
  return world;
}

TEST(FastScoring, EqualsTheReferenceOnRandomWorlds) {
  FastScorer scorer;  // reused, as the simulation does: no state may leak between worlds
  int compared = 0;
  for (std::uint64_t m = 0; m < 40; ++m) {
    Rng rng({2026, Stream::sweep_run, m, 0, 0});
    const auto layout = m % 2 == 0 ? Layout::dungeon : Layout::room;
    const Map map = make_map(12 + static_cast<int>(rng.below(30)),
                             10 + static_cast<int>(rng.below(20)), layout, rng);
    for (int w = 0; w < 50; ++w) {
      const World world = random_world(map, rng);
      std::vector<Perception> ours(static_cast<std::size_t>(world.monster_count));
      scorer.score(world, map, ours);
      const auto theirs = reference(world, map);
      std::vector<Decision> decided(ours.size());
      scorer.decide(world, map, decided);
      for (int i = 0; i < world.monster_count; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        ASSERT_EQ(ours[lane], theirs[lane]) << "map " << m << " world " << w << " monster " << i;
        if (world.alive[lane] == 0 || world.busy[lane] != 0) {
          EXPECT_EQ(decided[lane], Decision{});
          continue;
        }
        // The lanes' decisions against decide() on the reference's perception.
        ASSERT_EQ(decided[lane], decide(world, i, theirs[lane]))
            << "map " << m << " world " << w << " monster " << i;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 20'000);
}

TEST(FastScoring, WholeWorldsPlayTheSame) {
  Scenario scenario;
  Species goblin = plain(2);
  goblin.name = "goblin";
  goblin.aggression = 3;
  goblin.fear = 3;
  goblin.desire = 2;
  goblin.wander = 1;
  goblin.wants = {3, -1, 1};
  goblin.confusion = 0.1;
  Species orc = plain(4, 12);
  orc.name = "orc";
  orc.aggression = 5;
  orc.fear = 1;
  orc.wander = 2;
  orc.ranged = 2;
  orc.relation[1] = -1;
  orc.relation[2] = 1;
  scenario.catalogue = {goblin, orc};
  scenario.placed = {1, 2};
  scenario.turns = 120;
  FastScorer scorer;
  for (std::uint64_t w = 0; w < 30; ++w) {
    Rng map_rng({7, Stream::sweep_run, w, 0, 0});
    const Map map = make_map(24, 16, w % 2 == 0 ? Layout::room : Layout::dungeon, map_rng);
    Rng fast_rng({7, Stream::sweep_run, w, 1, 0});
    Rng reference_rng({7, Stream::sweep_run, w, 1, 0});
    const WorldOutcome a = play_world(scenario, map, fast_rng, Scoring::fast, scorer);
    const WorldOutcome b = play_world(scenario, map, reference_rng, Scoring::reference, scorer);
    EXPECT_EQ(a.turns_survived, b.turns_survived);
    EXPECT_EQ(a.damage_taken, b.damage_taken);
    EXPECT_EQ(a.flee_events, b.flee_events);
    EXPECT_EQ(a.motive_turns, b.motive_turns);
    EXPECT_EQ(a.cohesion, b.cohesion);
  }
}

}  // namespace
}  // namespace levelforge::monsters
