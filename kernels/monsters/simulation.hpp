#pragma once
// A world played out turn by turn: every monster decides from the same snapshot, then the
// hero and the monsters act in a fixed order (docs/monsters.md, "A turn").

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/monsters/decision.hpp"
#include "kernels/monsters/species.hpp"
#include "kernels/monsters/world.hpp"

namespace levelforge::monsters {

enum class HeroPolicy { cautious, aggressive };
enum class Scoring { fast, reference };

// A motive weight or strength given in the config instead of the species' own; -1: keep.
struct Overrides {
  int aggression = -1, fear = -1, desire = -1, wander = -1, misc = -1, strength = -1;
};

struct Scenario {
  std::vector<Species> catalogue;
  std::vector<int> placed;  // kinds of the groups, in turn: group g is placed[g % size]
  Overrides overrides;      // applied to every placed species
  int groups = 4;
  int group_size = 5;
  std::array<int, item_kind_count> items = {6, 3, 2};  // gold, food, weapons on the floor
  HeroPolicy hero = HeroPolicy::cautious;
  int hero_hp = 40;
  int hero_strength = 3;
  double hit_chance = 0.7;
  int pick_up_turns = 2;
  int turns = 200;
};

struct WorldOutcome {
  int turns_survived = 0;
  bool survived = false;
  int damage_dealt = 0;  // by the hero
  int damage_taken = 0;  // by the hero
  int monsters_killed = 0;
  int flee_events = 0;                                        // monster-turns won by fear
  int items_taken = 0;                                        // by monsters
  std::array<std::int64_t, motive_count + 1> motive_turns{};  // by winning motive, none last
  // Of the monster-turns with an enemy in sight: how many, and how many each motive won.
  std::int64_t turns_in_sight = 0;
  std::array<std::int64_t, motive_count + 1> motive_turns_in_sight{};
  double cohesion = 0;  // mean distance within groups, over the turns it is defined
};

// One world played turn by turn, each turn in two phases: decide(), where every monster
// decides from the same snapshot, then act(). `scorer` is used for Scoring::fast.
class WorldPlay {
 public:
  WorldPlay(const Scenario& scenario, const Map& map, Rng& rng, Scoring scoring,
            FastScorer& scorer);
  ~WorldPlay();
  WorldPlay(const WorldPlay&) = delete;
  WorldPlay& operator=(const WorldPlay&) = delete;

  // Until the last turn, the hero's death or the last monster's.
  [[nodiscard]] bool running() const;
  void decide();
  void act();
  [[nodiscard]] WorldOutcome outcome() const;

 private:
  class Turns;
  std::unique_ptr<Turns> turns_;
};

// Plays one world on `map` with draws from `rng`, to its end.
WorldOutcome play_world(const Scenario& scenario, const Map& map, Rng& rng, Scoring scoring,
                        FastScorer& scorer);

// Puts a monster of `species` (as `kind`, in `group`) on (x, y): its lane gets the
// species' values, `overrides` applied. Requires monster_count < max_monsters.
void add_monster(World& world, const Species& species, const Overrides& overrides, int kind,
                 int group, int x, int y);

// Exposed for tests. The placed world before its first turn:
World place_world(const Scenario& scenario, const Map& map, Rng& rng);
// Step 10: the decision of every monster that decides this turn (alive, not busy), all
// from the same snapshot, into out[0, monster_count); the other entries are Decision{}.
void decide_all(const World& world, const Map& map, Scoring scoring, FastScorer& scorer,
                std::span<Decision> out);
// Step 7 after a monster acted: its wander level rises while it stands still or comes back
// to where it was two turns ago, and decays toward its base level otherwise.
void update_wander(World& world, std::size_t lane);

}  // namespace levelforge::monsters
