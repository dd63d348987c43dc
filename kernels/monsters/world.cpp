#include "kernels/monsters/world.hpp"

#include <algorithm>
#include <cstdlib>

namespace levelforge::monsters {

Map::Map(int width, int height)
    : width_(width),
      height_(height),
      walls_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 0) {}

void Map::build_sight_table() {
  sight_bits_.assign(cells() * bits_per_cell / sight_word_bits, 0);
  for (int ay = 0; ay < height_; ++ay) {
    for (int ax = 0; ax < width_; ++ax) {
      for (int oy = -max_perception; oy <= max_perception; ++oy) {
        for (int ox = -max_perception; ox <= max_perception; ++ox) {
          const bool visible =
              !wall(ax + ox, ay + oy) && line_of_sight(*this, ax, ay, ax + ox, ay + oy);
          const std::size_t bit = index(ax, ay) * bits_per_cell + window_offset(ox, oy);
          if (visible) sight_bits_[bit / sight_word_bits] |= 1U << (bit % sight_word_bits);
        }
      }
    }
  }
}

bool line_of_sight(const Map& map, int ax, int ay, int bx, int by) {
  const int dx = std::abs(bx - ax);
  const int dy = -std::abs(by - ay);
  const int sx = ax < bx ? 1 : -1;
  const int sy = ay < by ? 1 : -1;
  int error = dx + dy;
  int x = ax;
  int y = ay;
  while (x != bx || y != by) {
    const int twice = 2 * error;
    if (twice >= dy) {
      error += dy;
      x += sx;
    }
    if (twice <= dx) {
      error += dx;
      y += sy;
    }
    if ((x != bx || y != by) && map.wall(x, y)) return false;
  }
  return true;
}

namespace {

int draw_between(Rng& rng, int low, int high) {
  return low + static_cast<int>(rng.below(static_cast<std::uint64_t>(high - low) + 1));
}

void carve(Map& map, int x0, int y0, int x1, int y1) {
  for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y) {
    for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) map.set_wall(x, y, false);
  }
}

}  // namespace

// Dungeon: rooms of 4-8 x 3-6 cells at random places (overlaps merge them), each joined to
// the previous one by an L-shaped corridor, so every open cell is reachable.
Map make_map(int width, int height, Layout layout, Rng& rng) {
  Map map(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const bool border = x == 0 || y == 0 || x == width - 1 || y == height - 1;
      map.set_wall(x, y, layout == Layout::dungeon || border);
    }
  }
  if (layout == Layout::dungeon) {
    const int rooms = std::max(2, width * height / 60);
    int last_x = -1;
    int last_y = -1;
    for (int room = 0; room < rooms; ++room) {
      const int room_width = std::min(draw_between(rng, 4, 8), width - 2);
      const int room_height = std::min(draw_between(rng, 3, 6), height - 2);
      const int left = draw_between(rng, 1, width - 1 - room_width);
      const int top = draw_between(rng, 1, height - 1 - room_height);
      carve(map, left, top, left + room_width - 1, top + room_height - 1);
      const int center_x = left + room_width / 2;
      const int center_y = top + room_height / 2;
      if (last_x >= 0) {
        if (rng.bernoulli(0.5)) {
          carve(map, last_x, last_y, center_x, last_y);
          carve(map, center_x, last_y, center_x, center_y);
        } else {
          carve(map, last_x, last_y, last_x, center_y);
          carve(map, last_x, center_y, center_x, center_y);
        }
      }
      last_x = center_x;
      last_y = center_y;
    }
  }
  map.build_sight_table();
  return map;
}

int World::living_monsters() const {
  int living = 0;
  for (int i = 0; i < monster_count; ++i) living += alive[static_cast<std::size_t>(i)];
  return living;
}

}  // namespace levelforge::monsters
