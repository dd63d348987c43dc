// The structure-of-arrays scoring: for each thing a monster could see, every monster lane
// at once, branch-free, so that the compiler vectorizes the lane loops. Same rules as
// decision_reference.cpp; tests hold the two equal.

#include <algorithm>
#include <cmath>
#include <memory>

#include "kernels/monsters/decision.hpp"

// Before a lane loop whose arrays GCC cannot prove apart: each is indexed by the lane alone,
// so iterations are independent and the loop may be vectorized as written. (Clang takes
// the __restrict of the arrays' pointers for that.)
#if defined(__clang__)
#define LEVELFORGE_INDEPENDENT_LANES
#else
#define LEVELFORGE_INDEPENDENT_LANES _Pragma("GCC ivdep")
#endif

namespace levelforge::monsters {

using Lanes = std::array<std::int32_t, max_monsters>;

namespace {

// The octant of octant() without branches on the lanes' values.
inline std::int32_t lane_octant(std::int32_t dx, std::int32_t dy) {
  const std::int32_t ax = dx < 0 ? -dx : dx;
  const std::int32_t ay = dy < 0 ? -dy : dy;
  const std::int32_t sum2 = (ax + ay) * (ax + ay);
  const std::int32_t diagonal = dx > 0 ? (dy < 0 ? 1 : 7) : (dy < 0 ? 3 : 5);
  const std::int32_t vertical = dy < 0 ? 2 : 6;
  const std::int32_t horizontal = dx > 0 ? 0 : 4;
  return sum2 < 2 * ax * ax ? horizontal : (sum2 < 2 * ay * ay ? vertical : diagonal);
}

// All ones when `condition` holds, else zero: lane selects without branches.
inline std::int32_t mask(bool condition) { return -static_cast<std::int32_t>(condition); }
inline std::int32_t blend(std::int32_t when, std::int32_t chosen, std::int32_t otherwise) {
  return (chosen & when) | (otherwise & ~when);
}

// A list in place, for the few units of a turn.
template <class T, std::size_t capacity>
class StaticList {
 public:
  void push_back(T value) { items_[size_++] = value; }
  [[nodiscard]] const T* begin() const { return items_.data(); }
  [[nodiscard]] const T* end() const { return items_.data() + size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }

 private:
  std::array<T, capacity> items_{};
  std::size_t size_ = 0;
};

// Zeroes the first `n` lanes, in a loop the compiler vectorizes (no call per row).
template <class T>
void clear(std::array<T, max_monsters>& lanes, int n) {
  for (int lane = 0; lane < n; ++lane) lanes[static_cast<std::size_t>(lane)] = 0;
}

// What each lane knows of one creature or item: in sight, how far, which way.
// Left uninitialized: look_at writes every lane in use before anything reads it.
struct Sight {
  Lanes visible;
  Lanes distance;
  Lanes direction;
};

}  // namespace

// The working lanes of one turn's scoring, kept between turns so that a turn neither
// allocates nor clears more than the lanes in use.
struct FastScratch {
  Lanes deciding{}, own{}, buddies{}, sight_center{};
  Lanes nearest{}, nearest_distance{}, nearest_direction{}, nearest_kind{};
  // Per enemy unit (0: the hero, 1 + g: group g), per lane.
  std::array<Lanes, max_groups + 1> unit_seen{}, unit_strength{}, unit_distance{}, unit_direction{},
      unit_kind{};
  Lanes best_item_term{}, best_item{}, best_item_distance{};
  std::array<std::array<Lanes, 8>, motive_count> scores{};
  std::array<Lanes, motive_count> here{};
};

namespace {

class Scorer {
 public:
  Scorer(const World& world, const Map& map, FastScratch& scratch)
      : w_(world),
        map_(map),
        count_(world.monster_count),
        n_((world.monster_count + lane_block - 1) / lane_block * lane_block),
        s_(scratch) {
    const auto n = static_cast<std::size_t>(n_);
    for (std::size_t lane = 0; lane < n; ++lane) {
      const bool monster = lane < static_cast<std::size_t>(count_);
      s_.deciding[lane] = (monster && w_.alive[lane] != 0 && w_.busy[lane] == 0) ? 1 : 0;
      s_.own[lane] = combat_strength(w_.strength[lane], w_.hp[lane], w_.max_hp[lane]);
      s_.sight_center[lane] = map_.sight_center(w_.x[lane], w_.y[lane]);
    }
    std::fill_n(s_.buddies.begin(), n, 0);
    std::fill_n(s_.nearest_distance.begin(), n, 1 << 20);
    std::fill_n(s_.nearest.begin(), n, no_entity);
    std::fill_n(s_.nearest_direction.begin(), n, 0);
    std::fill_n(s_.nearest_kind.begin(), n, 0);
    std::fill_n(s_.best_item_term.begin(), n, -1);
    std::fill_n(s_.best_item.begin(), n, -1);
    std::fill_n(s_.best_item_distance.begin(), n, 0);
    for (std::size_t k = 0; k < motive_count; ++k) {
      for (auto& lanes : s_.scores[k]) clear(lanes, n_);
      clear(s_.here[k], n_);
    }
  }

  void run() {
    if (w_.hero_alive) {
      creature(0, hero_kind, -1, w_.hero_x, w_.hero_y,
               combat_strength(w_.hero_strength, w_.hero_hp, w_.hero_max_hp));
    }
    for (int j = 0; j < count_; ++j) {
      const auto lane = static_cast<std::size_t>(j);
      if (w_.alive[lane] == 0) continue;
      creature(1 + j, w_.kind[lane], w_.group[lane], w_.x[lane], w_.y[lane],
               combat_strength(w_.strength[lane], w_.hp[lane], w_.max_hp[lane]));
    }
    aggression();
    fear_of_units();
    // An item of a kind no deciding monster wants adds nothing: it is not looked at.
    std::array<bool, item_kind_count> wanted{};
    for (std::size_t kind = 0; kind < item_kind_count; ++kind) {
      for (int i = 0; i < n_; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        wanted[kind] = wanted[kind] ||
                       (s_.deciding[lane] != 0 && w_.desire[lane] > 0 && w_.wants[kind][lane] >= 0);
      }
    }
    for (int k = 0; k < w_.item_count; ++k) {
      const auto index = static_cast<std::size_t>(k);
      if (w_.present[index] != 0 && wanted[static_cast<std::size_t>(w_.item_kind[index])]) item(k);
    }
    misc_and_wander();
    group_fear();
  }

 private:
  // Conditions are combined with & and every load is unconditional, so that the lane
  // loops have no control flow and vectorize.
  // Whether any lane sees (tx, ty), and how far each lane is from it.
  bool look_at(int tx, int ty, int self, Sight& sight) const {
    const std::int32_t* __restrict x = w_.x.data();
    const std::int32_t* __restrict y = w_.y.data();
    const std::int32_t* __restrict perception = w_.perception.data();
    const std::int32_t* __restrict deciding = s_.deciding.data();
    std::int32_t* __restrict visible = sight.visible.data();
    std::int32_t* __restrict distance = sight.distance.data();
    const std::int32_t* __restrict center = s_.sight_center.data();
    const std::uint32_t* __restrict bits = map_.sight_bits();
    std::int32_t any = 0;
    for (int i = 0, n = n_; i < n; ++i) {
      const std::int32_t dx = tx - x[i];
      const std::int32_t dy = ty - y[i];
      const std::int32_t ax = dx < 0 ? -dx : dx;
      const std::int32_t ay = dy < 0 ? -dy : dy;
      const std::int32_t far = ax > ay ? ax : ay;
      distance[i] = far;
      // Every lane asks the sight table, without a branch: one out of range (already not
      // visible) looks up a clamped offset instead.
      const std::int32_t ox = std::clamp(dx, -max_perception, max_perception);
      const std::int32_t oy = std::clamp(dy, -max_perception, max_perception);
      const std::int32_t in_range =
          mask(deciding[i] != 0) & mask(i != self) & mask(far <= perception[i]);
      const auto bit = static_cast<std::uint32_t>(center[i] + oy * Map::sight_row + ox);
      const std::uint32_t word = bits[bit / Map::sight_word_bits];
      visible[i] =
          in_range & static_cast<std::int32_t>((word >> (bit % Map::sight_word_bits)) & 1U);
      any |= visible[i];
    }
    return any != 0;
  }

  // Every lane's direction to (tx, ty), once something seen there matters to a lane.
  void aim(int tx, int ty, Sight& sight) const {
    const std::int32_t* __restrict x = w_.x.data();
    const std::int32_t* __restrict y = w_.y.data();
    std::int32_t* __restrict direction = sight.direction.data();
    for (int i = 0, n = n_; i < n; ++i) direction[i] = lane_octant(tx - x[i], ty - y[i]);
  }

  void creature(int id, int kind, int group, int tx, int ty, int strength) {
    Sight sight;
    if (!look_at(tx, ty, id - 1, sight)) return;
    const std::int32_t* __restrict relation = w_.relation[static_cast<std::size_t>(kind)].data();
    const std::int32_t* __restrict visible = sight.visible.data();
    const std::int32_t* __restrict distance = sight.distance.data();
    std::int32_t* __restrict buddies = s_.buddies.data();
    Lanes enemy;
    std::int32_t hostile = 0;
    for (int i = 0, n = n_; i < n; ++i) {
      const std::int32_t buddy = strength + 1 - distance[i];
      const std::int32_t seen = -visible[i];
      buddies[i] += buddy & seen & mask(relation[i] > 0) & mask(buddy > 0);
      enemy[static_cast<std::size_t>(i)] = seen & mask(relation[i] < 0);
      hostile |= enemy[static_cast<std::size_t>(i)];
    }
    // Seen by allies or bystanders only: the creature has no direction nor unit that counts.
    if (hostile == 0) return;
    aim(tx, ty, sight);
    enemy_seen(id, kind, static_cast<std::size_t>(group) + 1, strength, sight, enemy);
  }

  // The nearest enemy and the enemy units of every lane for which creature `id`, of unit
  // `unit` (0: the hero, 1 + g: group g), is an enemy in sight.
  void enemy_seen(int id, int kind, std::size_t unit, int strength, const Sight& sight,
                  const Lanes& enemy_lanes) {
    if (!unit_in_use_[unit]) {
      unit_in_use_[unit] = true;
      units_.push_back(unit);
      const auto n = static_cast<std::size_t>(n_);
      for (auto* arrays : {&s_.unit_seen, &s_.unit_strength, &s_.unit_distance, &s_.unit_direction,
                           &s_.unit_kind}) {
        std::fill_n((*arrays)[unit].begin(), n, 0);
      }
    }
    const std::int32_t* __restrict smart = w_.smart.data();
    const std::int32_t* __restrict enemies = enemy_lanes.data();
    const std::int32_t* __restrict distance = sight.distance.data();
    const std::int32_t* __restrict direction = sight.direction.data();
    std::int32_t* __restrict nearest = s_.nearest.data();
    std::int32_t* __restrict nearest_distance = s_.nearest_distance.data();
    std::int32_t* __restrict nearest_direction = s_.nearest_direction.data();
    std::int32_t* __restrict nearest_kind = s_.nearest_kind.data();
    std::int32_t* __restrict unit_seen = s_.unit_seen[unit].data();
    std::int32_t* __restrict unit_strength = s_.unit_strength[unit].data();
    std::int32_t* __restrict unit_distance = s_.unit_distance[unit].data();
    std::int32_t* __restrict unit_direction = s_.unit_direction[unit].data();
    std::int32_t* __restrict unit_kind = s_.unit_kind[unit].data();
    LEVELFORGE_INDEPENDENT_LANES
    for (int i = 0, n = n_; i < n; ++i) {
      const std::int32_t far = distance[i];
      const std::int32_t enemy = enemies[i];
      const std::int32_t nearer = enemy & mask(far < nearest_distance[i]);
      nearest_distance[i] = blend(nearer, far, nearest_distance[i]);
      nearest[i] = blend(nearer, id, nearest[i]);
      nearest_direction[i] = blend(nearer, direction[i], nearest_direction[i]);
      nearest_kind[i] = blend(nearer, kind, nearest_kind[i]);
      const std::int32_t perceived = blend(mask(smart[i] != 0), strength, 1);
      const std::int32_t unit_nearer =
          enemy & (mask(unit_seen[i] == 0) | mask(far < unit_distance[i]));
      unit_strength[i] += perceived & enemy;
      unit_distance[i] = blend(unit_nearer, far, unit_distance[i]);
      unit_direction[i] = blend(unit_nearer, direction[i], unit_direction[i]);
      unit_kind[i] = blend(unit_nearer, kind, unit_kind[i]);
      unit_seen[i] |= enemy & 1;
    }
  }

  // A scatter: each lane's term goes to the direction that lane computed (none: -1).
  void add(std::size_t motive, const Lanes& direction, const Lanes& term) {
    auto& scores = s_.scores[motive];
    for (int i = 0, n = n_; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      const std::int32_t value = (term[lane] > 0 && direction[lane] >= 0) ? term[lane] : 0;
      scores[static_cast<std::size_t>(direction[lane]) & 7U][lane] += value;
    }
  }

  void aggression() {
    Lanes term;
    for (int i = 0, n = n_; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      const bool has_enemy = s_.nearest[lane] != no_entity;
      const auto kind = static_cast<std::size_t>(has_enemy ? s_.nearest_kind[lane] : 0);
      const std::int32_t hate = w_.hates[kind][lane] - w_.relation[kind][lane] - 1;
      const std::int32_t value =
          (s_.own[lane] + s_.buddies[lane]) * (6 - s_.nearest_distance[lane]) +
          2 * (w_.aggression[lane] + hate);
      term[lane] = (has_enemy && w_.aggression[lane] > 0) ? value : 0;
    }
    add(aggression_row, s_.nearest_direction, term);
  }

  void fear_of_units() {
    for (const std::size_t u : units_) {
      Lanes term;
      Lanes away;
      for (int i = 0, n = n_; i < n; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        const auto kind = static_cast<std::size_t>(s_.unit_kind[u][lane]);
        const std::int32_t value =
            s_.unit_strength[u][lane] * (6 - s_.unit_distance[u][lane]) + 2 * w_.fears[kind][lane];
        term[lane] = (s_.unit_seen[u][lane] != 0 && w_.fear[lane] > 0) ? value : 0;
        away[lane] = (s_.unit_direction[u][lane] + 4) & 7;
      }
      add(fear_row, away, term);
    }
  }

  void item(int k) {
    const auto index = static_cast<std::size_t>(k);
    Sight sight;
    if (!look_at(w_.item_x[index], w_.item_y[index], -1, sight)) return;
    aim(w_.item_x[index], w_.item_y[index], sight);
    const std::int32_t* __restrict wants =
        w_.wants[static_cast<std::size_t>(w_.item_kind[index])].data();
    const std::int32_t* __restrict desire = w_.desire.data();
    const std::int32_t* __restrict visible = sight.visible.data();
    const std::int32_t* __restrict distance = sight.distance.data();
    std::int32_t* __restrict here = s_.here[desire_row].data();
    std::int32_t* __restrict best_term = s_.best_item_term.data();
    std::int32_t* __restrict best_item = s_.best_item.data();
    std::int32_t* __restrict best_distance = s_.best_item_distance.data();
    const std::int32_t item_value = w_.item_value[index];
    Lanes term;
    LEVELFORGE_INDEPENDENT_LANES
    for (int i = 0, n = n_; i < n; ++i) {
      const std::int32_t value = item_value + (6 - distance[i]) + desire[i] + wants[i];
      const std::int32_t wanted = -visible[i] & mask(desire[i] > 0) & mask(wants[i] >= 0);
      const std::int32_t counted = value & mask(value > 0) & wanted;
      const std::int32_t underfoot = mask(distance[i] == 0);
      here[i] += counted & underfoot;
      term[static_cast<std::size_t>(i)] = counted & ~underfoot;
      const std::int32_t better = wanted & mask(counted > best_term[i]);
      best_term[i] = blend(better, counted, best_term[i]);
      best_item[i] = blend(better, k, best_item[i]);
      best_distance[i] = blend(better, distance[i], best_distance[i]);
    }
    add(desire_row, sight.direction, term);
  }

  void misc_and_wander() {
    Lanes misc_term;
    Lanes post_direction;
    Lanes wander_term;
    for (int i = 0, n = n_; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      const std::int32_t dx = w_.post_x[lane] - w_.x[lane];
      const std::int32_t dy = w_.post_y[lane] - w_.y[lane];
      const std::int32_t ax = dx < 0 ? -dx : dx;
      const std::int32_t ay = dy < 0 ? -dy : dy;
      const std::int32_t away = ax > ay ? ax : ay;
      const bool guards = s_.deciding[lane] != 0 && w_.misc[lane] > 0;
      const std::int32_t value = 2 * w_.misc[lane] + away;
      s_.here[misc_row][lane] += (guards && away == 0) ? value : 0;
      misc_term[lane] = (guards && away != 0) ? value : 0;
      post_direction[lane] = lane_octant(dx, dy);

      const std::int32_t level = w_.wander[lane];
      const std::int32_t doubled = 2 * level < 20 ? 2 * level : 20;
      const std::int32_t shift = w_.confused[lane] != 0 ? doubled : level;
      const bool wanders = s_.deciding[lane] != 0 && w_.wander_base[lane] > 0;
      wander_term[lane] = wanders ? (1 << shift) : 0;
    }
    add(misc_row, post_direction, misc_term);
    add(wander_row, w_.wander_direction, wander_term);
  }

  // The strongest fear direction of each lane from the raw scores, -1 when unafraid.
  [[nodiscard]] Lanes strongest_fear() const {
    Lanes best;
    Lanes best_score;
    best.fill(-1);
    clear(best_score, n_);
    for (std::size_t d = 0; d < 8; ++d) {
      for (int i = 0, n = n_; i < n; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        const bool stronger = s_.scores[fear_row][d][lane] > best_score[lane];
        best_score[lane] = stronger ? s_.scores[fear_row][d][lane] : best_score[lane];
        best[lane] = stronger ? static_cast<std::int32_t>(d) : best[lane];
      }
    }
    return best;
  }

  void group_fear() {
    const Lanes afraid = strongest_fear();
    Lanes direction = afraid;
    const int n = n_;
    StaticList<std::size_t, max_monsters> afraid_lanes;
    for (int j = 0; j < n; ++j) {
      const auto member = static_cast<std::size_t>(j);
      if (afraid[member] >= 0) afraid_lanes.push_back(member);
    }
    if (afraid_lanes.empty()) return;
    for (int i = 0; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (direction[lane] >= 0 || s_.deciding[lane] == 0 || w_.fear[lane] == 0) continue;
      // An afraid lane has direction >= 0 itself: `member` is never `lane`.
      for (const std::size_t member : afraid_lanes) {
        if (w_.group[lane] != w_.group[member]) continue;
        const int distance = chebyshev(w_.x[member] - w_.x[lane], w_.y[member] - w_.y[lane]);
        if (distance <= w_.perception[lane] &&
            map_.sees(w_.x[lane], w_.y[lane], w_.x[member], w_.y[member])) {
          direction[lane] = afraid[member];
          break;
        }
      }
    }
    Lanes bonus;
    for (int i = 0; i < n; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      bonus[lane] = (s_.deciding[lane] != 0 && w_.fear[lane] > 0) ? 2 * w_.fear[lane] : 0;
    }
    add(fear_row, direction, bonus);
  }

 public:
  void write(std::span<Perception> out) const {
    for (int i = 0; i < count_; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      Perception& p = out[lane];
      const bool deciding = s_.deciding[lane] != 0;
      for (std::size_t k = 0; k < motive_count; ++k) {
        for (std::size_t d = 0; d < 8; ++d) p.scores[k][d] = s_.scores[k][d][lane];
        p.here[k] = s_.here[k][lane];
      }
      p.nearest_enemy = deciding ? s_.nearest[lane] : no_entity;
      p.nearest_enemy_distance =
          (deciding && s_.nearest[lane] != no_entity) ? s_.nearest_distance[lane] : 0;
      p.best_item = deciding ? s_.best_item[lane] : -1;
      p.best_item_distance = deciding ? s_.best_item_distance[lane] : 0;
    }
  }

  // decide() over the lanes: the strengths, the winner and the summed unit vectors with
  // the same operations, in the same order, as decision.cpp; the action per lane after.
  void decide(std::span<Decision> out) const {
    using Reals = std::array<double, max_monsters>;
    const int n = n_;
    // The winner as wide as the strengths, for one vector width in the loop.
    std::array<std::int64_t, max_monsters> best;
    std::array<std::int64_t, max_monsters> winner;
    clear(best, n);
    for (int i = 0; i < n; ++i) {
      winner[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(Motive::none);
    }
    for (std::size_t k = 0; k < motive_count; ++k) {
      for (int i = 0; i < n; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        std::int64_t strength = s_.here[k][lane];
        for (std::size_t d = 0; d < 8; ++d) strength += s_.scores[k][d][lane];
        const bool stronger = strength > best[lane];
        best[lane] = stronger ? strength : best[lane];
        winner[lane] = stronger ? static_cast<std::int64_t>(k) : winner[lane];
      }
    }
    Reals sum_x;
    Reals sum_y;
    clear(sum_x, n);
    clear(sum_y, n);
    for (std::size_t k = 0; k < motive_count; ++k) {
      // A motive no lane scores adds a null vector, which counts for nothing.
      if (!scored(k)) continue;
      const auto& s = s_.scores[k];
      for (int i = 0; i < n; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        const auto [vx, vy] = motive_vector(s[0][lane], s[1][lane], s[2][lane], s[3][lane],
                                            s[4][lane], s[5][lane], s[6][lane], s[7][lane]);
        const double length = std::sqrt(vx * vx + vy * vy);
        // Divides unconditionally (by 1 where the vector is null) so that the loop has no
        // branch; where length > 0 the quotient is decide()'s exactly.
        const double divisor = length > 0 ? length : 1.0;
        sum_x[lane] += length > 0 ? vx / divisor : 0.0;
        sum_y[lane] += length > 0 ? vy / divisor : 0.0;
      }
    }
    // The direction as a double, as wide as the dot products: the loop then stays in one
    // vector width.
    Reals move;
    Reals best_dot;
    clear(move, n);
    for (int i = 0; i < n; ++i) best_dot[static_cast<std::size_t>(i)] = -2;
    for (std::size_t d = 0; d < 8; ++d) {
      for (int i = 0; i < n; ++i) {
        const auto lane = static_cast<std::size_t>(i);
        const double dot = sum_x[lane] * unit_x[d] + sum_y[lane] * unit_y[d];
        const bool closer = dot > best_dot[lane] + tie_margin;
        best_dot[lane] = closer ? dot : best_dot[lane];
        move[lane] = closer ? static_cast<double>(d) : move[lane];
      }
    }
    for (int i = 0; i < count_; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      if (s_.deciding[lane] == 0) {
        out[lane] = Decision{};
        continue;
      }
      const auto motive = static_cast<Motive>(winner[lane]);
      auto way = static_cast<int>(move[lane]);
      if (motive == Motive::none) {
        way = -1;
      } else if (std::sqrt(sum_x[lane] * sum_x[lane] + sum_y[lane] * sum_y[lane]) < vanishing) {
        way = strongest(static_cast<std::size_t>(motive), lane);
      }
      out[lane] = action_for(
          w_, i, motive, way,
          {s_.nearest[lane], s_.nearest[lane] == no_entity ? 0 : s_.nearest_distance[lane],
           s_.best_item[lane], s_.best_item_distance[lane], s_.here[misc_row][lane] > 0});
    }
  }

 private:
  // Whether any lane has a score of `motive` in some direction.
  [[nodiscard]] bool scored(std::size_t motive) const {
    std::int32_t any = 0;
    for (const auto& lanes : s_.scores[motive]) {
      for (int i = 0; i < n_; ++i) any |= lanes[static_cast<std::size_t>(i)];
    }
    return any != 0;
  }

  // The direction of the largest score of `motive` (the first on a tie), -1 when none.
  [[nodiscard]] int strongest(std::size_t motive, std::size_t lane) const {
    int best = -1;
    std::int32_t best_score = 0;
    for (std::size_t d = 0; d < 8; ++d) {
      if (s_.scores[motive][d][lane] > best_score) {
        best = static_cast<int>(d);
        best_score = s_.scores[motive][d][lane];
      }
    }
    return best;
  }

  // Lanes are processed in blocks of 8 (an AVX2 vector of int32): the lanes past the last
  // monster are inert (they decide nothing, World's arrays hold zeros there), and the lane
  // loops need no scalar remainder.
  static constexpr int lane_block = 8;
  static_assert(max_monsters % lane_block == 0);

  const World& w_;
  const Map& map_;
  int count_;  // monsters
  int n_;      // lanes: count_ rounded up to a block
  FastScratch& s_;
  // The enemy units seen this turn; only their lanes were reset.
  std::array<bool, max_groups + 1> unit_in_use_{};
  StaticList<std::size_t, max_groups + 1> units_;
};

}  // namespace

FastScorer::FastScorer() : scratch_(std::make_unique<FastScratch>()) {}
FastScorer::~FastScorer() = default;
FastScorer::FastScorer(FastScorer&&) noexcept = default;
FastScorer& FastScorer::operator=(FastScorer&&) noexcept = default;

// Everything the scoring calls is inlined into one function compiled twice: for AVX2
// (8 lanes a vector), chosen at load time where the processor has it, and for the
// baseline (4 lanes).
#if defined(__clang__) && __clang_major__ < 15
// Clang 14 names the dispatcher of a member function's clones "NAME.ifunc" and leaves the
// callers in other files an undefined NAME (the fuzz build, fuzz/README.md): baseline only.
#define LEVELFORGE_SCORER_CLONES flatten
#else
#define LEVELFORGE_SCORER_CLONES flatten, target_clones("avx2", "default")
#endif
__attribute__((LEVELFORGE_SCORER_CLONES)) void FastScorer::score(const World& world, const Map& map,
                                                                 std::span<Perception> out) {
  Scorer scorer(world, map, *scratch_);
  scorer.run();
  scorer.write(out);
}

__attribute__((LEVELFORGE_SCORER_CLONES)) void FastScorer::decide(const World& world,
                                                                  const Map& map,
                                                                  std::span<Decision> out) {
  Scorer scorer(world, map, *scratch_);
  scorer.run();
  scorer.decide(out);
}

void score_fast(const World& world, const Map& map, std::span<Perception> out) {
  FastScorer().score(world, map, out);
}

}  // namespace levelforge::monsters
