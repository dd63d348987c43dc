#pragma once
// The JSwing decision of every monster of a world in one turn, from the same snapshot
// (docs/monsters.md, steps 1-10 of the document): perception in 8 directions, per-direction
// motive scores, then the winning motive and the move. Two implementations of the scoring:
// score_reference, the document's rules written plainly per monster (atan2 octants,
// Bresenham sight, an entity list), and score_fast, the same rules over structure-of-arrays
// lanes with integer octants and a sight table. Tests hold them equal.

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "kernels/monsters/world.hpp"

namespace levelforge::monsters {

// In tie order: the earlier motive wins a tie of strengths.
enum class Motive : std::uint8_t { fear, aggression, desire, misc, wander, none };
constexpr int motive_count = 5;
// Where each motive sits in Perception's arrays.
constexpr auto fear_row = static_cast<std::size_t>(Motive::fear);
constexpr auto aggression_row = static_cast<std::size_t>(Motive::aggression);
constexpr auto desire_row = static_cast<std::size_t>(Motive::desire);
constexpr auto misc_row = static_cast<std::size_t>(Motive::misc);
constexpr auto wander_row = static_cast<std::size_t>(Motive::wander);

enum class Action : std::uint8_t { stay, move, attack, shoot, pick_up };

// Entity ids in perception: 0 is the hero, 1 + i is monster i.
constexpr int no_entity = -1;

struct Perception {
  // Per motive, per direction; `here` holds what lies on the monster's own cell (an item
  // to pick up, the post it guards).
  std::array<std::array<std::int32_t, 8>, motive_count> scores{};
  std::array<std::int32_t, motive_count> here{};
  std::int32_t nearest_enemy = no_entity;  // lowest id among the nearest
  std::int32_t nearest_enemy_distance = 0;
  std::int32_t best_item = -1;  // the wanted item with the largest desire, lowest index first
  std::int32_t best_item_distance = 0;

  friend bool operator==(const Perception&, const Perception&) = default;
};

struct Decision {
  Motive motive = Motive::none;
  Action action = Action::stay;
  std::int32_t direction = -1;      // of a move, an attack or a shot; -1: none
  std::int32_t target = no_entity;  // entity attacked or shot, or item picked up
  bool enemy_in_sight = false;

  friend bool operator==(const Decision&, const Decision&) = default;
};

// Scores every monster of `world` that decides this turn (alive, not busy with a long
// action); the other lanes are left empty.
void score_reference(const World& world, const Map& map, std::span<Perception> out);

struct FastScratch;
// score_fast with its working lanes kept between turns.
class FastScorer {
 public:
  FastScorer();
  ~FastScorer();
  FastScorer(const FastScorer&) = delete;
  FastScorer& operator=(const FastScorer&) = delete;
  FastScorer(FastScorer&&) noexcept;
  FastScorer& operator=(FastScorer&&) noexcept;

  void score(const World& world, const Map& map, std::span<Perception> out);
  // decide() of every monster that decides, computed on the lanes (the others: Decision{}).
  void decide(const World& world, const Map& map, std::span<Decision> out);

 private:
  std::unique_ptr<FastScratch> scratch_;
};
void score_fast(const World& world, const Map& map, std::span<Perception> out);

// Motive strengths (sum of a motive's scores), the winner, and the action it leads to:
// the move follows the sum of the motives' normalized vectors.
std::array<std::int64_t, motive_count> motive_strengths(const Perception& perception);
Decision decide(const World& world, int monster, const Perception& perception);

// What decide() needs of a perception besides the scores, for action_for().
struct Targets {
  std::int32_t nearest_enemy;
  std::int32_t nearest_enemy_distance;
  std::int32_t best_item;
  std::int32_t best_item_distance;
  bool on_post;  // misc scores "here": the monster guards its post
};
// The action of a monster whose strongest motive is `winner` and whose motives' summed
// unit vectors point to `move` (-1: nowhere). Shared by decide() and the fast path.
Decision action_for(const World& world, int monster, Motive winner, int move,
                    const Targets& targets);

// Step 9's geometry, shared so that every implementation computes the same doubles: the
// unit vectors of the 8 directions (diagonals of length 1, y downward), the length under
// which the summed unit vectors count as cancelled, and the margin a direction's dot
// product must beat an earlier one by.
constexpr double diagonal = 0.70710678118654752440;
constexpr std::array<double, 8> unit_x = {1, diagonal, 0, -diagonal, -1, -diagonal, 0, diagonal};
constexpr std::array<double, 8> unit_y = {0, -diagonal, -1, -diagonal, 0, diagonal, 1, diagonal};
constexpr double vanishing = 1e-9;
constexpr double tie_margin = 1e-12;

// A motive's vector, the sum over d of scores[d] * (unit_x[d], unit_y[d]), from its scores
// in direction order. The axis scores and the diagonal scores are combined first, exactly
// (integers far below 2^53), so that only the diagonal's product and the last addition
// round: every implementation computes the same doubles.
struct MotiveVector {
  double x;
  double y;
};
constexpr MotiveVector motive_vector(double east, double north_east, double north,
                                     double north_west, double west, double south_west,
                                     double south, double south_east) {
  return {(east - west) + diagonal * ((north_east + south_east) - (north_west + south_west)),
          (south - north) + diagonal * ((south_west + south_east) - (north_east + north_west))};
}

// The octant of (dx, dy) != (0, 0): the direction nearest to its angle.
int octant(int dx, int dy);
int chebyshev(int dx, int dy);

}  // namespace levelforge::monsters
