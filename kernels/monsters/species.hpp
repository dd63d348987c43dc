#pragma once
// Monster species as the JSwing document describes them (docs/monsters.md): five motive
// weights, combat strength, relations to the other kinds, special hates and fears, what
// they desire, how far they see. Read from a `species` table parameter.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/data_tree.hpp"

namespace levelforge::monsters {

// Item kinds on the floor; monsters desire some of them, the hero uses all of them.
enum class ItemKind : std::uint8_t { gold, food, weapon };
constexpr int item_kind_count = 3;
constexpr std::array<std::string_view, item_kind_count> item_kind_names = {"gold", "food",
                                                                           "weapon"};

// Kind 0 is the hero; species are kinds 1, 2, ... in catalogue order.
constexpr int hero_kind = 0;
constexpr int max_kinds = 16;
constexpr int max_perception = 8;
constexpr int max_weight = 100;

struct Species {
  std::string name;
  int strength = 2;      // combat strength
  int hp = 6;            // maximum hit points
  int perception = 5;    // sight range in cells (Chebyshev)
  bool smart = true;     // dumb ones perceive every enemy at strength 1
  double confusion = 0;  // chance per turn of being confused
  int ranged = 0;        // range of a ranged weapon, 0: none
  // Base motive weights; 0 switches a motive off.
  int aggression = 0, fear = 0, desire = 0, wander = 0, misc = 0;
  // Specific desire per item kind; -1: not wanted.
  std::array<int, item_kind_count> wants = {-1, -1, -1};
  // Per kind (hero first): relation -3 (hates) .. +3 (worships), special hates and fears.
  std::array<int, max_kinds> relation{};
  std::array<int, max_kinds> hates{};
  std::array<int, max_kinds> fears{};
};

// The species catalogue: `node` is a list of species maps (docs/monsters.md lists the keys).
// Relations, hates and fears name other species of the list or `hero`. A species is its
// own friend (+1) and the hero's enemy (-1) unless its relations say otherwise. Throws
// KernelError naming the entry at fault.
std::vector<Species> read_species(const DataNode& node);

// The kind (1-based species index) of `name` in `catalogue`; fails naming the known ones.
int species_kind(const std::vector<Species>& catalogue, std::string_view name,
                 std::string_view parameter);

}  // namespace levelforge::monsters
