#pragma once
// The selection rules of the spawn kernel (docs/spawn.md): the document's
// WeightedMultiSpawnLevelProcessor with its two defects fixed, recency limited to a window
// or decayed, and a multiset mode. Everything the inner loop touches lives in fixed arrays,
// so a level is selected without allocating.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/api/data_tree.hpp"
#include "kernels/api/rng.hpp"

namespace levelforge::spawn {

// Objects are bits of a Mask; 16 keeps the per-object record columns few.
inline constexpr std::size_t max_objects = 16;
using Mask = std::uint32_t;
using Weights = std::array<double, max_objects>;
using Quantities = std::array<std::int64_t, max_objects>;

// Defaults are the document's FieldObject defaults.
struct SpawnObject {
  std::string name;
  double strength = 1;
  double min_difficulty = 0;
  double max_ratio = 1;
};

// A list of {name, strength, min_difficulty, max_ratio} maps: names unique and non-empty,
// strength > 0, min_difficulty >= 0, max_ratio in [0, 1], at most max_objects entries.
std::vector<SpawnObject> parse_objects(const DataNode& table);

enum class Recency { all, window, decay };

struct Rules {
  double default_weight = 1;
  double weight_increment = 10;
  Recency recency = Recency::all;
  int window = 3;      // window: levels counted, 1..64
  double decay = 0.5;  // decay: factor per level of age
  bool multiset = false;
  double repeat_factor = 0.5;  // multiset: weight factor after each spawn of the object
};

// What a level's selection needs that does not depend on earlier levels.
struct LevelPlan {
  double required = 0;
  Mask eligible = 0;    // min_difficulty <= required: the document's candidates
  Mask candidates = 0;  // eligible with a ratio cap of at least 1 (the fixed first defect)
  Quantities cap{};     // floor(required / strength * max_ratio), per object
};

LevelPlan plan_level(std::span<const SpawnObject> objects, double required);

// The history part of an object's weight: weight = default_weight + weight_increment * score.
// all: earlier levels without the object; window: those among the last `window` levels;
// decay: the sum of decay^age over earlier levels without it, age 0 for the previous level.
class RecencyState {
 public:
  explicit RecencyState(const Rules& rules);

  // After each level, with the objects it contained.
  void record(Mask present, std::size_t objects);
  [[nodiscard]] double score(std::size_t object) const { return score_[object]; }

 private:
  Recency mode_;
  double decay_;
  std::uint64_t window_bits_;
  std::int64_t window_;
  std::int64_t levels_ = 0;
  Weights score_{};
  std::array<std::uint64_t, max_objects> seen_{};  // window: presence, previous level lowest
};

struct LevelContents {
  Mask present = 0;
  Quantities quantity{};
  double spawned = 0;      // sum of strength * quantity
  std::int64_t draws = 0;  // weighted draws made
  // The document's rule would never end this level: the budget is not reached and an
  // eligible object with a ratio cap of 0 still fits (it is drawn again and again).
  bool stalled = false;
};

class Selector {
 public:
  Selector(std::span<const SpawnObject> objects, const Rules& rules);

  [[nodiscard]] std::size_t objects() const { return count_; }
  [[nodiscard]] const Rules& rules() const { return rules_; }

  // The weights of the level's eligible objects (others 0): only candidates are weighted,
  // the fixed second defect.
  void weights(const LevelPlan& level, const RecencyState& recency, Weights& out) const;

  // One level: draw by weight among candidates that fit the remaining budget, quantity
  // uniform in [0, min(floor(remaining / strength), cap - spawned)], a spawned object
  // leaves the candidates (multiset: its weight is multiplied by repeat_factor and it leaves
  // at its cap); until the budget is reached or nothing fits. `weights` is used up.
  void select(const LevelPlan& level, Weights& weights, Rng& rng, LevelContents& out) const;

 private:
  std::size_t count_;
  std::array<double, max_objects> strength_{};
  Rules rules_;
};

}  // namespace levelforge::spawn
