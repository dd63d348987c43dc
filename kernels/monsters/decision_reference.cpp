// The scalar reference: the document's rules written out per monster, as plainly as they
// read: a list of what each monster sees, octants from atan2, a Bresenham line walked for
// every sight check.

#include <cmath>
#include <map>
#include <numbers>
#include <vector>

#include "kernels/monsters/decision.hpp"

namespace levelforge::monsters {
namespace {

struct Seen {
  int id;  // entity id, or item index for items
  int kind;
  int group;  // -1 for the hero
  int distance;
  int direction;  // -1 on the monster's own cell
  int strength;   // combat strength (monsters, hero)
};

int reference_octant(int dx, int dy) {
  const double angle = std::atan2(-static_cast<double>(dy), static_cast<double>(dx));
  const auto step = static_cast<int>(std::lround(angle / (std::numbers::pi / 4)));
  return (step + 8) % 8;
}

int term_at_least_zero(int value) { return value < 0 ? 0 : value; }

class MonsterView {
 public:
  MonsterView(const World& world, const Map& map, int lane)
      : world_(world), map_(map), i_(static_cast<std::size_t>(lane)) {}

  [[nodiscard]] bool sees(int tx, int ty) const {
    const int distance = chebyshev(tx - world_.x[i_], ty - world_.y[i_]);
    return distance <= world_.perception[i_] &&
           line_of_sight(map_, world_.x[i_], world_.y[i_], tx, ty);
  }

  [[nodiscard]] Seen seen(int id, int kind, int group, int tx, int ty, int strength) const {
    const int dx = tx - world_.x[i_];
    const int dy = ty - world_.y[i_];
    return {
        id,      kind, group, chebyshev(dx, dy), dx == 0 && dy == 0 ? -1 : reference_octant(dx, dy),
        strength};
  }

  // Step 1: look around; everything alive within the perception range and in sight.
  [[nodiscard]] std::vector<Seen> creatures() const {
    std::vector<Seen> list;
    if (world_.hero_alive && sees(world_.hero_x, world_.hero_y)) {
      list.push_back(
          seen(0, hero_kind, -1, world_.hero_x, world_.hero_y,
               combat_strength(world_.hero_strength, world_.hero_hp, world_.hero_max_hp)));
    }
    for (int j = 0; j < world_.monster_count; ++j) {
      const auto lane = static_cast<std::size_t>(j);
      if (lane == i_ || world_.alive[lane] == 0 || !sees(world_.x[lane], world_.y[lane])) continue;
      list.push_back(
          seen(1 + j, world_.kind[lane], world_.group[lane], world_.x[lane], world_.y[lane],
               combat_strength(world_.strength[lane], world_.hp[lane], world_.max_hp[lane])));
    }
    return list;
  }

  [[nodiscard]] std::vector<Seen> items() const {
    std::vector<Seen> list;
    for (int k = 0; k < world_.item_count; ++k) {
      const auto lane = static_cast<std::size_t>(k);
      if (world_.present[lane] == 0 || !sees(world_.item_x[lane], world_.item_y[lane])) continue;
      list.push_back(
          seen(k, world_.item_kind[lane], -1, world_.item_x[lane], world_.item_y[lane], 0));
    }
    return list;
  }

  [[nodiscard]] int relation(int kind) const {
    return world_.relation[static_cast<std::size_t>(kind)][i_];
  }

  // Everything but the group bonus of step 4, which needs every monster's own fear first.
  [[nodiscard]] Perception raw() const {
    Perception out;
    const std::vector<Seen> around = creatures();
    const int own = combat_strength(world_.strength[i_], world_.hp[i_], world_.max_hp[i_]);

    // Step 2: allies add (their strength + 1 - distance), never less than nothing.
    int buddies = 0;
    for (const auto& other : around) {
      if (relation(other.kind) > 0)
        buddies += term_at_least_zero(other.strength + 1 - other.distance);
    }

    // Step 3: aggression toward the nearest enemy.
    const Seen* nearest = nullptr;
    for (const auto& other : around) {
      if (relation(other.kind) >= 0) continue;
      if (nearest == nullptr || other.distance < nearest->distance) nearest = &other;
    }
    if (nearest != nullptr) {
      out.nearest_enemy = nearest->id;
      out.nearest_enemy_distance = nearest->distance;
      if (world_.aggression[i_] > 0) {
        const int hate = world_.hates[static_cast<std::size_t>(nearest->kind)][i_] +
                         (-relation(nearest->kind) - 1);
        add(out, Motive::aggression, nearest->direction,
            (own + buddies) * (6 - nearest->distance) + 2 * (world_.aggression[i_] + hate));
      }
    }

    // Step 4: fear of each enemy, a group counted as one, added to the opposite direction.
    if (world_.fear[i_] > 0) {
      struct Unit {
        int strength = 0;
        const Seen* nearest = nullptr;
      };
      std::map<int, Unit> units;  // by group; the hero is group -1
      for (const auto& other : around) {
        if (relation(other.kind) >= 0) continue;
        Unit& unit = units[other.group];
        unit.strength += world_.smart[i_] != 0 ? other.strength : 1;
        if (unit.nearest == nullptr || other.distance < unit.nearest->distance) {
          unit.nearest = &other;
        }
      }
      for (const auto& [group, unit] : units) {
        const int special = world_.fears[static_cast<std::size_t>(unit.nearest->kind)][i_];
        add(out, Motive::fear, opposite(unit.nearest->direction),
            unit.strength * (6 - unit.nearest->distance) + 2 * special);
      }
    }

    // Step 5: desire, added per wanted item, never multiplied.
    if (world_.desire[i_] > 0) {
      int best = -1;
      for (const auto& item : items()) {
        const int specific = world_.wants[static_cast<std::size_t>(item.kind)][i_];
        if (specific < 0) continue;
        const int term = term_at_least_zero(world_.item_value[static_cast<std::size_t>(item.id)] +
                                            (6 - item.distance) + world_.desire[i_] + specific);
        add(out, Motive::desire, item.direction, term);
        if (term > best) {
          best = term;
          out.best_item = item.id;
          out.best_item_distance = item.distance;
        }
      }
    }

    // Step 6: misc, here guarding the post the monster was placed on.
    if (world_.misc[i_] > 0) {
      const int dx = world_.post_x[i_] - world_.x[i_];
      const int dy = world_.post_y[i_] - world_.y[i_];
      const int away = chebyshev(dx, dy);
      add(out, Motive::misc, away == 0 ? -1 : reference_octant(dx, dy), 2 * world_.misc[i_] + away);
    }

    // Step 7: wander, 1 << level, the level doubled when confused.
    if (world_.wander_base[i_] > 0) {
      const int level = world_.wander[i_];
      const int shift = world_.confused[i_] != 0 ? std::min(2 * level, 20) : level;
      add(out, Motive::wander, world_.wander_direction[i_], 1 << shift);
    }
    return out;
  }

 private:
  static void add(Perception& out, Motive motive, int direction, int term) {
    const auto k = static_cast<std::size_t>(motive);
    const int value = term_at_least_zero(term);
    if (direction < 0) {
      out.here[k] += value;
    } else {
      out.scores[k][static_cast<std::size_t>(direction)] += value;
    }
  }

  const World& world_;
  const Map& map_;
  std::size_t i_;
};

bool deciding(const World& world, std::size_t lane) {
  return world.alive[lane] != 0 && world.busy[lane] == 0;
}

int strongest_fear(const Perception& perception) {
  const auto& fear = perception.scores[static_cast<std::size_t>(Motive::fear)];
  int best = -1;
  for (int d = 0; d < 8; ++d) {
    if (fear[static_cast<std::size_t>(d)] > (best < 0 ? 0 : fear[static_cast<std::size_t>(best)])) {
      best = d;
    }
  }
  return best;
}

}  // namespace

void score_reference(const World& world, const Map& map, std::span<Perception> out) {
  const auto count = static_cast<std::size_t>(world.monster_count);
  std::vector<Perception> raw(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (deciding(world, i)) raw[i] = MonsterView(world, map, static_cast<int>(i)).raw();
  }
  // Step 4, the group: a monster whose group has anyone afraid adds 2 * its base fear
  // in the direction of that fear (its own first, else the first afraid member it sees).
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = raw[i];
    if (!deciding(world, i) || world.fear[i] == 0) continue;
    int direction = strongest_fear(raw[i]);
    const MonsterView view(world, map, static_cast<int>(i));
    for (std::size_t j = 0; j < count && direction < 0; ++j) {
      if (j == i || !deciding(world, j) || world.group[j] != world.group[i]) continue;
      if (view.sees(world.x[j], world.y[j])) direction = strongest_fear(raw[j]);
    }
    if (direction >= 0) {
      out[i].scores[static_cast<std::size_t>(Motive::fear)][static_cast<std::size_t>(direction)] +=
          2 * world.fear[i];
    }
  }
}

}  // namespace levelforge::monsters
