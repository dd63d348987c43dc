#pragma once
// One simulated world of the monsters kernel: a grid map, the hero, the items on the floor
// and the monsters, held as structure-of-arrays so that the per-monster scoring of a turn
// runs over contiguous lanes (decision.hpp).

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/monsters/species.hpp"

namespace levelforge::monsters {

constexpr int max_monsters = 64;
constexpr int max_items = 64;
constexpr int max_groups = 16;

// Directions 0..7 counter-clockwise from east, y growing downward; d and d + 4 are opposite.
constexpr std::array<int, 8> step_x = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr std::array<int, 8> step_y = {0, -1, -1, -1, 0, 1, 1, 1};
constexpr int opposite(int direction) { return (direction + 4) % 8; }

// Walls block movement and sight. `sees` answers line-of-sight queries within
// max_perception from a table built once per map with line_of_sight().
class Map {
 public:
  Map(int width, int height);

  [[nodiscard]] int width() const { return width_; }
  // Cells in row-major order: the index of (x, y) inside the map, and their number.
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
           static_cast<std::size_t>(x);
  }
  [[nodiscard]] std::size_t cells() const { return walls_.size(); }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] bool wall(int x, int y) const {
    return x < 0 || y < 0 || x >= width_ || y >= height_ || walls_[index(x, y)] != 0;
  }
  void set_wall(int x, int y, bool wall) { walls_[index(x, y)] = wall ? 1 : 0; }
  // Call after the last set_wall.
  void build_sight_table();
  // Requires Chebyshev distance <= max_perception.
  [[nodiscard]] bool sees(int ax, int ay, int bx, int by) const {
    const std::size_t bit = index(ax, ay) * bits_per_cell + window_offset(bx - ax, by - ay);
    return ((sight_bits_[bit / sight_word_bits] >> (bit % sight_word_bits)) & 1U) != 0;
  }
  // The table as bits, for lanes that look up many cells at once: whether (ax, ay) sees
  // (ax + ox, ay + oy) is bit b = sight_center(ax, ay) + oy * sight_row + ox of
  // sight_bits(), word b / sight_word_bits, bit b % sight_word_bits. Small enough (40 bytes
  // a cell) to stay in cache; 32-bit words, which a vector of int32 lanes indexes directly.
  [[nodiscard]] const std::uint32_t* sight_bits() const { return sight_bits_.data(); }
  [[nodiscard]] std::int32_t sight_center(int ax, int ay) const {
    return static_cast<std::int32_t>(index(ax, ay) * bits_per_cell + window_offset(0, 0));
  }
  static constexpr std::int32_t sight_row = 2 * max_perception + 1;
  static constexpr std::uint32_t sight_word_bits = 32;

 private:
  // The sight table holds, per cell, the square of offsets within max_perception.
  static constexpr std::size_t window_side = 2 * max_perception + 1;
  static constexpr std::size_t window_size = window_side * window_side;
  static constexpr std::size_t bits_per_cell =
      (window_size + sight_word_bits - 1) / sight_word_bits * sight_word_bits;
  static std::size_t window_offset(int ox, int oy) {
    return static_cast<std::size_t>(oy + max_perception) * window_side +
           static_cast<std::size_t>(ox + max_perception);
  }

  int width_;
  int height_;
  std::vector<std::uint8_t> walls_;
  std::vector<std::uint32_t> sight_bits_;
};

// The cells a Bresenham line from a to b crosses, ends excluded, are all open.
bool line_of_sight(const Map& map, int ax, int ay, int bx, int by);

// An open room (walls on the border only), or rooms joined by corridors drawn from `rng`.
enum class Layout { room, dungeon };
Map make_map(int width, int height, Layout layout, Rng& rng);

struct World {
  // The hero: kind 0.
  int hero_x = 0, hero_y = 0, hero_hp = 0, hero_max_hp = 0, hero_strength = 0;
  bool hero_alive = true;

  // Monsters, lanes 0 .. monster_count-1 (arrays sized max_monsters).
  int monster_count = 0;
  std::array<std::int32_t, max_monsters> x{}, y{}, hp{}, max_hp{}, strength{}, kind{}, group{},
      alive{};
  // Copied from the species so that scoring reads lanes, not a table per monster.
  std::array<std::int32_t, max_monsters> perception{}, smart{}, aggression{}, fear{}, desire{},
      misc{}, wander_base{}, ranged{};
  // Per kind (hero first), per monster: relation, special hates and fears toward that kind.
  std::array<std::array<std::int32_t, max_monsters>, max_kinds> relation{}, hates{}, fears{};
  // Per item kind, per monster: specific desire, -1 when not wanted.
  std::array<std::array<std::int32_t, max_monsters>, item_kind_count> wants{};
  std::array<std::int32_t, max_monsters> post_x{}, post_y{};      // where it was placed (guarding)
  std::array<std::int32_t, max_monsters> wander{};                // current wander level
  std::array<std::int32_t, max_monsters> busy{};                  // turns left of a long action
  std::array<std::int32_t, max_monsters> last_x{}, last_y{};      // position a turn ago
  std::array<std::int32_t, max_monsters> before_x{}, before_y{};  // two turns ago
  // Drawn before scoring each turn, so that every implementation sees the same chance.
  std::array<std::int32_t, max_monsters> confused{}, wander_direction{};

  // Items, lanes 0 .. item_count-1.
  int item_count = 0;
  std::array<std::int32_t, max_items> item_x{}, item_y{}, item_kind{}, item_value{}, present{};

  [[nodiscard]] int living_monsters() const;
};

// Combat strength: one less when wounded (HP under half the maximum).
constexpr int combat_strength(int strength, int hp, int max_hp) {
  return strength - (2 * hp < max_hp ? 1 : 0);
}

}  // namespace levelforge::monsters
