#include "kernels/monsters/simulation.hpp"

#include <algorithm>
#include <deque>
#include <limits>

namespace levelforge::monsters {
namespace {

constexpr int food_heals = 5;
constexpr int max_wander_rise = 4;  // above the species' base level

struct Cell {
  int x, y;
};

int draw_below(Rng& rng, int bound) {
  return static_cast<int>(rng.below(static_cast<std::uint64_t>(bound)));
}

// The living monster on (x, y), or -1.
int monster_on(const World& world, int x, int y) {
  for (int i = 0; i < world.monster_count; ++i) {
    const auto lane = static_cast<std::size_t>(i);
    if (world.alive[lane] != 0 && world.x[lane] == x && world.y[lane] == y) return i;
  }
  return -1;
}

bool free_cell(const World& world, const Map& map, int x, int y) {
  return !map.wall(x, y) && !(world.hero_alive && world.hero_x == x && world.hero_y == y) &&
         monster_on(world, x, y) < 0;
}

Cell random_open_cell(const Map& map, Rng& rng) {
  while (true) {
    const int x = draw_below(rng, map.width());
    const int y = draw_below(rng, map.height());
    if (!map.wall(x, y)) return {x, y};
  }
}

void place_group(World& world, const Map& map, const Species& species, const Overrides& overrides,
                 int kind, int group, int size, Cell center) {
  // Breadth-first from the center: the group stands together.
  std::deque<Cell> frontier{center};
  std::vector<std::uint8_t> queued(map.cells(), 0);
  queued[map.index(center.x, center.y)] = 1;
  int placed = 0;
  while (!frontier.empty() && placed < size && world.monster_count < max_monsters) {
    const Cell cell = frontier.front();
    frontier.pop_front();
    if (free_cell(world, map, cell.x, cell.y)) {
      add_monster(world, species, overrides, kind, group, cell.x, cell.y);
      ++placed;
    }
    for (int d = 0; d < 8; ++d) {
      const Cell next{cell.x + step_x[static_cast<std::size_t>(d)],
                      cell.y + step_y[static_cast<std::size_t>(d)]};
      if (map.wall(next.x, next.y)) continue;
      auto& seen = queued[map.index(next.x, next.y)];
      if (seen == 0) {
        seen = 1;
        frontier.push_back(next);
      }
    }
  }
}

}  // namespace

class WorldPlay::Turns {
 public:
  Turns(const Scenario& scenario, const Map& map, Rng& rng, Scoring scoring, FastScorer& scorer)
      : scenario_(scenario),
        map_(map),
        rng_(rng),
        scoring_(scoring),
        scorer_(scorer),
        world_(place_world(scenario, map, rng)) {
    item_distance_.resize(map.cells());
    measure_items();
  }

  [[nodiscard]] bool running() const {
    return turn_ < scenario_.turns && world_.hero_alive && world_.living_monsters() > 0;
  }

  // Steps 1-2 of a turn: the draws, then every monster's decision from one snapshot.
  void decide() {
    const int n = world_.monster_count;
    for (int i = 0; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (world_.alive[lane] == 0 || world_.busy[lane] != 0) continue;
      world_.confused[lane] = rng_.bernoulli(confusion(lane)) ? 1 : 0;
      world_.wander_direction[lane] = draw_below(rng_, 8);
    }
    decide_all(world_, map_, scoring_, scorer_, decisions_);
  }

  // Steps 3-4: the hero acts, then the monsters in index order; the turn is counted.
  void act() {
    const int n = world_.monster_count;
    std::vector<std::uint8_t>& deciding = deciding_;
    deciding.assign(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (world_.alive[lane] == 0 || world_.busy[lane] != 0) continue;
      deciding[lane] = 1;
      const auto motive = static_cast<std::size_t>(decisions_[lane].motive);
      ++outcome_.motive_turns[motive];
      if (decisions_[lane].enemy_in_sight) {
        ++outcome_.turns_in_sight;
        ++outcome_.motive_turns_in_sight[motive];
      }
      if (decisions_[lane].motive == Motive::fear) ++outcome_.flee_events;
    }
    hero_turn();
    for (int i = 0; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (world_.alive[lane] == 0) continue;
      if (deciding[lane] == 0) {
        --world_.busy[lane];  // a long action: nothing else, and wander stays as it is
        continue;
      }
      act(i, decisions_[lane]);
      update_wander(world_, lane);
    }
    ++turn_;
    if (const double cohesion = group_cohesion(); cohesion >= 0) {
      cohesion_sum_ += cohesion;
      ++cohesion_turns_;
    }
  }

  [[nodiscard]] WorldOutcome outcome() const {
    WorldOutcome outcome = outcome_;
    outcome.survived = world_.hero_alive;
    outcome.turns_survived = world_.hero_alive ? scenario_.turns : turn_;
    outcome.monsters_killed = world_.monster_count - world_.living_monsters();
    outcome.cohesion = cohesion_turns_ > 0 ? cohesion_sum_ / cohesion_turns_ : 0;
    return outcome;
  }

 private:
  [[nodiscard]] double confusion(std::size_t lane) const {
    return scenario_.catalogue[static_cast<std::size_t>(world_.kind[lane] - 1)].confusion;
  }

  bool hits() { return rng_.bernoulli(scenario_.hit_chance); }

  void strike_hero(int strength) {
    if (!world_.hero_alive || !hits()) return;
    const int damage = std::max(1, strength);
    world_.hero_hp -= damage;
    outcome_.damage_taken += damage;
    if (world_.hero_hp <= 0) world_.hero_alive = false;
  }

  void strike_monster(std::size_t lane, int strength, bool by_hero) {
    if (world_.alive[lane] == 0 || !hits()) return;
    const int damage = std::max(1, strength);
    world_.hp[lane] -= damage;
    if (by_hero) outcome_.damage_dealt += damage;
    if (world_.hp[lane] <= 0) world_.alive[lane] = 0;
  }

  void act(int monster, const Decision& decision) {
    const auto lane = static_cast<std::size_t>(monster);
    const int strength =
        combat_strength(world_.strength[lane], world_.hp[lane], world_.max_hp[lane]);
    switch (decision.action) {
      case Action::attack:
      case Action::shoot:
        if (decision.target == 0) {
          strike_hero(strength);
        } else {
          strike_monster(static_cast<std::size_t>(decision.target - 1), strength, false);
        }
        break;
      case Action::pick_up: pick_up(lane, decision); break;
      case Action::move: move(lane, decision.direction); break;
      case Action::stay: break;
    }
  }

  void pick_up(std::size_t lane, const Decision& decision) {
    const auto item = static_cast<std::size_t>(decision.target);
    if (world_.present[item] == 0) return;
    const int x = world_.item_x[item];
    const int y = world_.item_y[item];
    const bool here = world_.x[lane] == x && world_.y[lane] == y;
    if (!here && !free_cell(world_, map_, x, y)) return;
    world_.x[lane] = x;
    world_.y[lane] = y;
    world_.present[item] = 0;
    world_.busy[lane] = scenario_.pick_up_turns - 1;
    ++outcome_.items_taken;
    measure_items();
  }

  // The way asked, else the two beside it; a blocked monster stays.
  void move(std::size_t lane, int direction) {
    for (const int turn : {0, 1, 7}) {
      const auto d = static_cast<std::size_t>((direction + turn) % 8);
      const int x = world_.x[lane] + step_x[d];
      const int y = world_.y[lane] + step_y[d];
      if (free_cell(world_, map_, x, y)) {
        world_.x[lane] = x;
        world_.y[lane] = y;
        return;
      }
    }
  }

  // ---- the hero (docs/monsters.md, "The hero") ----

  // Distance of every cell to the nearest item on the floor, through open cells.
  void measure_items() {
    std::fill(item_distance_.begin(), item_distance_.end(), std::numeric_limits<int>::max());
    std::deque<Cell> frontier;
    for (int k = 0; k < world_.item_count; ++k) {
      const auto item = static_cast<std::size_t>(k);
      if (world_.present[item] == 0) continue;
      item_distance_[cell_index(world_.item_x[item], world_.item_y[item])] = 0;
      frontier.push_back({world_.item_x[item], world_.item_y[item]});
    }
    while (!frontier.empty()) {
      const Cell cell = frontier.front();
      frontier.pop_front();
      const int next_distance = item_distance_[cell_index(cell.x, cell.y)] + 1;
      for (std::size_t d = 0; d < 8; ++d) {
        const int x = cell.x + step_x[d];
        const int y = cell.y + step_y[d];
        if (map_.wall(x, y) || item_distance_[cell_index(x, y)] <= next_distance) continue;
        item_distance_[cell_index(x, y)] = next_distance;
        frontier.push_back({x, y});
      }
    }
  }

  [[nodiscard]] std::size_t cell_index(int x, int y) const { return map_.index(x, y); }

  [[nodiscard]] int nearest_monster_distance(int x, int y) const {
    int nearest = std::numeric_limits<int>::max();
    for (int i = 0; i < world_.monster_count; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (world_.alive[lane] == 0) continue;
      nearest = std::min(nearest, chebyshev(world_.x[lane] - x, world_.y[lane] - y));
    }
    return nearest;
  }

  // The adjacent monster with the fewest hit points (lowest index on a tie), or -1.
  [[nodiscard]] int weakest_adjacent() const {
    int weakest = -1;
    for (int i = 0; i < world_.monster_count; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (world_.alive[lane] == 0 ||
          chebyshev(world_.x[lane] - world_.hero_x, world_.y[lane] - world_.hero_y) != 1) {
        continue;
      }
      if (weakest < 0 || world_.hp[lane] < world_.hp[static_cast<std::size_t>(weakest)])
        weakest = i;
    }
    return weakest;
  }

  void hero_turn() {
    if (!world_.hero_alive) return;
    const int strength = combat_strength(world_.hero_strength, world_.hero_hp, world_.hero_max_hp);
    const bool wounded = 2 * world_.hero_hp < world_.hero_max_hp;
    if (scenario_.hero == HeroPolicy::cautious && wounded &&
        nearest_monster_distance(world_.hero_x, world_.hero_y) <= 2 && hero_flee()) {
      return;
    }
    if (const int target = weakest_adjacent(); target >= 0) {
      strike_monster(static_cast<std::size_t>(target), strength, true);
      return;
    }
    hero_walk(strength);
  }

  // The open neighbour farthest from every monster, if it is farther than here.
  bool hero_flee() {
    int best_direction = -1;
    int best = nearest_monster_distance(world_.hero_x, world_.hero_y);
    for (std::size_t d = 0; d < 8; ++d) {
      const int x = world_.hero_x + step_x[d];
      const int y = world_.hero_y + step_y[d];
      if (map_.wall(x, y) || monster_on(world_, x, y) >= 0) continue;
      if (const int distance = nearest_monster_distance(x, y); distance > best) {
        best = distance;
        best_direction = static_cast<int>(d);
      }
    }
    if (best_direction < 0) return false;
    step_hero(best_direction);
    return true;
  }

  // Toward the nearest item; the aggressive hero hunts the nearest monster once the floor
  // is bare. A monster in the way is fought.
  void hero_walk(int strength) {
    int best_direction = -1;
    const bool items_left =
        item_distance_[cell_index(world_.hero_x, world_.hero_y)] != std::numeric_limits<int>::max();
    if (items_left) {
      int best = item_distance_[cell_index(world_.hero_x, world_.hero_y)];
      for (std::size_t d = 0; d < 8; ++d) {
        const int x = world_.hero_x + step_x[d];
        const int y = world_.hero_y + step_y[d];
        if (map_.wall(x, y) || item_distance_[cell_index(x, y)] >= best) continue;
        best = item_distance_[cell_index(x, y)];
        best_direction = static_cast<int>(d);
      }
    } else if (scenario_.hero == HeroPolicy::aggressive) {
      int best = nearest_monster_distance(world_.hero_x, world_.hero_y);
      for (std::size_t d = 0; d < 8; ++d) {
        const int x = world_.hero_x + step_x[d];
        const int y = world_.hero_y + step_y[d];
        if (map_.wall(x, y) || monster_on(world_, x, y) >= 0) continue;
        if (const int distance = nearest_monster_distance(x, y); distance < best) {
          best = distance;
          best_direction = static_cast<int>(d);
        }
      }
    }
    if (best_direction < 0) return;
    const auto d = static_cast<std::size_t>(best_direction);
    if (const int blocker =
            monster_on(world_, world_.hero_x + step_x[d], world_.hero_y + step_y[d]);
        blocker >= 0) {
      strike_monster(static_cast<std::size_t>(blocker), strength, true);
      return;
    }
    step_hero(best_direction);
  }

  void step_hero(int direction) {
    const auto d = static_cast<std::size_t>(direction);
    world_.hero_x += step_x[d];
    world_.hero_y += step_y[d];
    for (int k = 0; k < world_.item_count; ++k) {
      const auto item = static_cast<std::size_t>(k);
      if (world_.present[item] == 0 || world_.item_x[item] != world_.hero_x ||
          world_.item_y[item] != world_.hero_y) {
        continue;
      }
      world_.present[item] = 0;
      if (world_.item_kind[item] == static_cast<int>(ItemKind::food)) {
        world_.hero_hp = std::min(world_.hero_max_hp, world_.hero_hp + food_heals);
      } else if (world_.item_kind[item] == static_cast<int>(ItemKind::weapon)) {
        ++world_.hero_strength;
      }
      measure_items();
    }
  }

  // Mean Chebyshev distance between living members of a group, averaged over the groups
  // with two or more; -1 when there is none.
  [[nodiscard]] double group_cohesion() const {
    double sum = 0;
    int groups = 0;
    for (int g = 0; g < scenario_.groups; ++g) {
      std::int64_t distance = 0;
      std::int64_t pairs = 0;
      for (int i = 0; i < world_.monster_count; ++i) {
        const auto a = static_cast<std::size_t>(i);
        if (world_.alive[a] == 0 || world_.group[a] != g) continue;
        for (int j = i + 1; j < world_.monster_count; ++j) {
          const auto b = static_cast<std::size_t>(j);
          if (world_.alive[b] == 0 || world_.group[b] != g) continue;
          distance += chebyshev(world_.x[a] - world_.x[b], world_.y[a] - world_.y[b]);
          ++pairs;
        }
      }
      if (pairs > 0) {
        sum += static_cast<double>(distance) / static_cast<double>(pairs);
        ++groups;
      }
    }
    return groups > 0 ? sum / groups : -1;
  }

  const Scenario& scenario_;
  const Map& map_;
  Rng& rng_;
  Scoring scoring_;
  FastScorer& scorer_;
  World world_;
  std::array<Decision, max_monsters> decisions_{};
  std::vector<std::uint8_t> deciding_;
  std::vector<int> item_distance_;
  WorldOutcome outcome_;
  int turn_ = 0;
  double cohesion_sum_ = 0;
  int cohesion_turns_ = 0;
};

World place_world(const Scenario& scenario, const Map& map, Rng& rng) {
  World world;
  const Cell hero = random_open_cell(map, rng);
  world.hero_x = hero.x;
  world.hero_y = hero.y;
  world.hero_hp = world.hero_max_hp = scenario.hero_hp;
  world.hero_strength = scenario.hero_strength;
  for (std::size_t kind = 0; kind < item_kind_count; ++kind) {
    for (int k = 0; k < scenario.items[kind] && world.item_count < max_items; ++k) {
      const Cell cell = random_open_cell(map, rng);
      const auto item = static_cast<std::size_t>(world.item_count++);
      world.item_x[item] = cell.x;
      world.item_y[item] = cell.y;
      world.item_kind[item] = static_cast<int>(kind);
      world.item_value[item] = kind == 0 ? 1 + draw_below(rng, 9) : (kind == 1 ? 4 : 6);
      world.present[item] = 1;
    }
  }
  // Groups start out of the hero's reach: a center at least 4 cells away when one is found.
  for (int g = 0; g < scenario.groups; ++g) {
    Cell center = random_open_cell(map, rng);
    for (int attempt = 0; attempt < 100 && chebyshev(center.x - hero.x, center.y - hero.y) < 4;
         ++attempt) {
      center = random_open_cell(map, rng);
    }
    const int kind = scenario.placed[static_cast<std::size_t>(g) % scenario.placed.size()];
    place_group(world, map, scenario.catalogue[static_cast<std::size_t>(kind - 1)],
                scenario.overrides, kind, g, scenario.group_size, center);
  }
  return world;
}

void add_monster(World& world, const Species& species, const Overrides& overrides, int kind,
                 int group, int x, int y) {
  const auto i = static_cast<std::size_t>(world.monster_count++);
  const auto pick = [](int given, int own) { return given >= 0 ? given : own; };
  world.x[i] = world.post_x[i] = world.last_x[i] = world.before_x[i] = x;
  world.y[i] = world.post_y[i] = world.last_y[i] = world.before_y[i] = y;
  world.strength[i] = pick(overrides.strength, species.strength);
  world.hp[i] = world.max_hp[i] = species.hp;
  world.kind[i] = kind;
  world.group[i] = group;
  world.alive[i] = 1;
  world.perception[i] = species.perception;
  world.smart[i] = species.smart ? 1 : 0;
  world.aggression[i] = pick(overrides.aggression, species.aggression);
  world.fear[i] = pick(overrides.fear, species.fear);
  world.desire[i] = pick(overrides.desire, species.desire);
  world.misc[i] = pick(overrides.misc, species.misc);
  world.wander_base[i] = world.wander[i] = pick(overrides.wander, species.wander);
  world.ranged[i] = species.ranged;
  for (std::size_t k = 0; k < max_kinds; ++k) {
    world.relation[k][i] = species.relation[k];
    world.hates[k][i] = species.hates[k];
    world.fears[k][i] = species.fears[k];
  }
  for (std::size_t k = 0; k < item_kind_count; ++k) world.wants[k][i] = species.wants[k];
}

void decide_all(const World& world, const Map& map, Scoring scoring, FastScorer& scorer,
                std::span<Decision> out) {
  if (scoring == Scoring::fast) {
    scorer.decide(world, map, out);
    return;
  }
  const auto count = static_cast<std::size_t>(world.monster_count);
  std::vector<Perception> perceptions(count);
  score_reference(world, map, perceptions);
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = world.alive[i] != 0 && world.busy[i] == 0
                 ? decide(world, static_cast<int>(i), perceptions[i])
                 : Decision{};
  }
}

void update_wander(World& world, std::size_t lane) {
  if (world.wander_base[lane] > 0) {
    const bool still = world.x[lane] == world.last_x[lane] && world.y[lane] == world.last_y[lane];
    const bool back =
        world.x[lane] == world.before_x[lane] && world.y[lane] == world.before_y[lane];
    world.wander[lane] =
        (still || back)
            ? std::min(world.wander[lane] + 1, world.wander_base[lane] + max_wander_rise)
            : std::max(world.wander[lane] - 1, world.wander_base[lane]);
  }
  world.before_x[lane] = world.last_x[lane];
  world.before_y[lane] = world.last_y[lane];
  world.last_x[lane] = world.x[lane];
  world.last_y[lane] = world.y[lane];
}

WorldPlay::WorldPlay(const Scenario& scenario, const Map& map, Rng& rng, Scoring scoring,
                     FastScorer& scorer)
    : turns_(std::make_unique<Turns>(scenario, map, rng, scoring, scorer)) {}
WorldPlay::~WorldPlay() = default;
bool WorldPlay::running() const { return turns_->running(); }
void WorldPlay::decide() { turns_->decide(); }
void WorldPlay::act() { turns_->act(); }
WorldOutcome WorldPlay::outcome() const { return turns_->outcome(); }

WorldOutcome play_world(const Scenario& scenario, const Map& map, Rng& rng, Scoring scoring,
                        FastScorer& scorer) {
  WorldPlay play(scenario, map, rng, scoring, scorer);
  while (play.running()) {
    play.decide();
    play.act();
  }
  return play.outcome();
}

}  // namespace levelforge::monsters
