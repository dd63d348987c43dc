#include "kernels/monsters/decision.hpp"

#include <cmath>
#include <cstdlib>

namespace levelforge::monsters {
namespace {

int strongest_direction(const std::array<std::int32_t, 8>& scores) {
  int best = -1;
  std::int32_t best_score = 0;
  for (int d = 0; d < 8; ++d) {
    if (scores[static_cast<std::size_t>(d)] > best_score) {
      best = d;
      best_score = scores[static_cast<std::size_t>(d)];
    }
  }
  return best;
}

// Step 9 of the document: each motive's vector normalized, the unit vectors summed; the
// move goes the way of the sum (the winner's own strongest direction when they cancel).
int move_direction(const Perception& perception, Motive winner) {
  double sum_x = 0;
  double sum_y = 0;
  for (const auto& s : perception.scores) {
    const auto [vx, vy] = motive_vector(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    const double length = std::sqrt(vx * vx + vy * vy);
    if (length > 0) {
      sum_x += vx / length;
      sum_y += vy / length;
    }
  }
  if (std::sqrt(sum_x * sum_x + sum_y * sum_y) < vanishing) {
    return strongest_direction(perception.scores[static_cast<std::size_t>(winner)]);
  }
  int best = 0;
  double best_dot = -2;
  for (std::size_t d = 0; d < 8; ++d) {
    const double dot = sum_x * unit_x[d] + sum_y * unit_y[d];
    if (dot > best_dot + tie_margin) {
      best = static_cast<int>(d);
      best_dot = dot;
    }
  }
  return best;
}

std::array<int, 2> position_of(const World& world, int entity) {
  if (entity == 0) return {world.hero_x, world.hero_y};
  const auto lane = static_cast<std::size_t>(entity - 1);
  return {world.x[lane], world.y[lane]};
}

}  // namespace

int chebyshev(int dx, int dy) { return std::max(std::abs(dx), std::abs(dy)); }

// Axis-aligned when |dy| / |dx| < tan(22.5 deg) = sqrt(2) - 1, which for integers is
// (|dx| + |dy|)^2 < 2 dx^2; diagonal when neither axis wins. The boundaries are
// irrational, so no integer offset lies on one.
int octant(int dx, int dy) {
  const int ax = std::abs(dx);
  const int ay = std::abs(dy);
  const int sum = ax + ay;
  if (sum * sum < 2 * ax * ax) return dx > 0 ? 0 : 4;
  if (sum * sum < 2 * ay * ay) return dy < 0 ? 2 : 6;
  if (dx > 0) return dy < 0 ? 1 : 7;
  return dy < 0 ? 3 : 5;
}

std::array<std::int64_t, motive_count> motive_strengths(const Perception& perception) {
  std::array<std::int64_t, motive_count> strengths{};
  for (std::size_t k = 0; k < motive_count; ++k) {
    strengths[k] = perception.here[k];
    for (const auto score : perception.scores[k]) strengths[k] += score;
  }
  return strengths;
}

Decision decide(const World& world, int monster, const Perception& perception) {
  const auto strengths = motive_strengths(perception);
  Motive winner = Motive::none;
  std::int64_t best = 0;
  for (std::size_t k = 0; k < motive_count; ++k) {
    if (strengths[k] > best) {
      best = strengths[k];
      winner = static_cast<Motive>(k);
    }
  }
  const int move = winner == Motive::none ? -1 : move_direction(perception, winner);
  return action_for(
      world, monster, winner, move,
      {perception.nearest_enemy, perception.nearest_enemy_distance, perception.best_item,
       perception.best_item_distance, perception.here[static_cast<std::size_t>(Motive::misc)] > 0});
}

Decision action_for(const World& world, int monster, Motive winner, int move,
                    const Targets& targets) {
  Decision decision;
  decision.enemy_in_sight = targets.nearest_enemy != no_entity;
  decision.motive = winner;
  if (winner == Motive::none) return decision;
  const auto lane = static_cast<std::size_t>(monster);
  decision.action = move < 0 ? Action::stay : Action::move;
  decision.direction = move;
  switch (winner) {
    case Motive::aggression: {
      const auto [tx, ty] = position_of(world, targets.nearest_enemy);
      const int dx = tx - world.x[lane];
      const int dy = ty - world.y[lane];
      const int distance = targets.nearest_enemy_distance;
      const bool in_line = dx == 0 || dy == 0 || std::abs(dx) == std::abs(dy);
      if (distance == 1 || (world.ranged[lane] >= distance && in_line)) {
        decision.action = distance == 1 ? Action::attack : Action::shoot;
        decision.direction = octant(dx, dy);
        decision.target = targets.nearest_enemy;
      }
      break;
    }
    case Motive::desire:
      if (targets.best_item >= 0 && targets.best_item_distance <= 1) {
        const auto item = static_cast<std::size_t>(targets.best_item);
        decision.action = Action::pick_up;
        decision.target = targets.best_item;
        decision.direction =
            targets.best_item_distance == 0
                ? -1
                : octant(world.item_x[item] - world.x[lane], world.item_y[item] - world.y[lane]);
      }
      break;
    case Motive::misc:
      if (targets.on_post) {
        decision.action = Action::stay;  // on guard at its post
        decision.direction = -1;
      }
      break;
    case Motive::fear:
    case Motive::wander:
    case Motive::none: break;
  }
  return decision;
}

}  // namespace levelforge::monsters
