#include "kernels/monsters/species.hpp"

#include <algorithm>

#include "kernels/api/params.hpp"
#include "kernels/api/text.hpp"

namespace levelforge::monsters {
namespace {

// The kind a relation, hate or fear names: `hero` or a species of the catalogue.
int kind_named(const DataNode& key_node, const std::string& key,
               const std::vector<std::string>& names) {
  if (key == "hero") return hero_kind;
  const auto found = std::find(names.begin(), names.end(), key);
  if (found == names.end()) {
    std::string known = "hero";
    for (const auto& name : names) known += ", " + printable(name);
    key_node.fail(quoted_value(key) + " is neither the hero nor a species of the catalogue (" +
                  known + ")");
  }
  return static_cast<int>(found - names.begin()) + 1;
}

void read_kind_map(const DataNode* node, const std::vector<std::string>& names, int min, int max,
                   std::array<int, max_kinds>& out) {
  if (node == nullptr) return;
  for (const auto& [key, value] : node->members()) {
    out[static_cast<std::size_t>(kind_named(value, key, names))] =
        static_cast<int>(value.integer(min, max));
  }
}

Species read_one(const DataNode& entry, const std::vector<std::string>& names) {
  entry.check_keys({"name", "strength", "hp", "perception", "smart", "confusion", "ranged",
                    "motives", "wants", "relations", "hates", "fears"});
  Species species;
  species.name = entry.at("name").text();
  species.strength = static_cast<int>(entry.integer_or("strength", species.strength, 0, 100));
  species.hp = static_cast<int>(entry.integer_or("hp", species.hp, 1, 10'000));
  species.perception =
      static_cast<int>(entry.integer_or("perception", species.perception, 1, max_perception));
  species.smart = entry.boolean_or("smart", species.smart);
  species.confusion = entry.real_or("confusion", species.confusion, 0.0, 1.0);
  species.ranged = static_cast<int>(entry.integer_or("ranged", 0, 0, max_perception));
  if (const DataNode* motives = entry.find("motives")) {
    motives->check_keys({"aggression", "fear", "desire", "wander", "misc"});
    species.aggression = static_cast<int>(motives->integer_or("aggression", 0, 0, max_weight));
    species.fear = static_cast<int>(motives->integer_or("fear", 0, 0, max_weight));
    species.desire = static_cast<int>(motives->integer_or("desire", 0, 0, max_weight));
    species.wander = static_cast<int>(motives->integer_or("wander", 0, 0, 8));
    species.misc = static_cast<int>(motives->integer_or("misc", 0, 0, max_weight));
  }
  if (const DataNode* wants = entry.find("wants")) {
    for (const auto& [key, value] : wants->members()) {
      const auto kind = std::find(item_kind_names.begin(), item_kind_names.end(), key);
      if (kind == item_kind_names.end()) {
        value.fail(quoted_value(key) + " is not an item kind (gold, food, weapon)");
      }
      species.wants[static_cast<std::size_t>(kind - item_kind_names.begin())] =
          static_cast<int>(value.integer(0, max_weight));
    }
  }
  const auto self = static_cast<std::size_t>(kind_named(entry, species.name, names));
  species.relation[hero_kind] = -1;
  species.relation[self] = 1;
  read_kind_map(entry.find("relations"), names, -3, 3, species.relation);
  read_kind_map(entry.find("hates"), names, 0, max_weight, species.hates);
  read_kind_map(entry.find("fears"), names, 0, max_weight, species.fears);
  return species;
}

}  // namespace

std::vector<Species> read_species(const DataNode& node) {
  const auto& entries = node.items();
  if (entries.empty()) node.fail("the species catalogue is empty");
  if (entries.size() + 1 > static_cast<std::size_t>(max_kinds)) {
    node.fail("at most " + std::to_string(max_kinds - 1) + " species");
  }
  std::vector<std::string> names;
  for (const auto& entry : entries) {
    const DataNode& name = entry.at("name");
    if (name.text() == "hero") name.fail("'hero' is reserved for the hero");
    if (std::find(names.begin(), names.end(), name.text()) != names.end()) {
      name.fail("species " + quoted_value(name.text()) + " is defined twice");
    }
    names.push_back(name.text());
  }
  std::vector<Species> catalogue;
  catalogue.reserve(entries.size());
  for (const auto& entry : entries) catalogue.push_back(read_one(entry, names));
  return catalogue;
}

int species_kind(const std::vector<Species>& catalogue, std::string_view name,
                 std::string_view parameter) {
  std::string known;
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    if (catalogue[i].name == name) return static_cast<int>(i) + 1;
    known += (i == 0 ? "" : ", ") + printable(catalogue[i].name);
  }
  throw KernelError(std::string(parameter) + ": species " + quoted_value(name) +
                    " is not in params.species (" + known + ")");
}

}  // namespace levelforge::monsters
