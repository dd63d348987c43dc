#include "kernels/spawn/selection.hpp"

#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <utility>

#include "kernels/api/params.hpp"
#include "kernels/api/text.hpp"

namespace levelforge::spawn {
namespace {

// Quantities stay far from int64 overflow whatever the strengths and difficulties.
constexpr double quantity_limit = 1e15;

// floor for the non-negative ratios it gets: the conversion truncates, without a libm call.
std::int64_t floor_quantity(double x) {
  return static_cast<std::int64_t>(std::min(x, quantity_limit));
}

constexpr Mask bit(std::size_t object) { return Mask{1} << object; }

}  // namespace

std::vector<SpawnObject> parse_objects(const DataNode& table) {
  constexpr double huge = 1e12;
  const auto& items = table.items();
  if (items.size() > max_objects) {
    table.fail(std::to_string(items.size()) + " objects, at most " + std::to_string(max_objects));
  }
  std::vector<SpawnObject> objects;
  std::set<std::string> names;
  for (const DataNode& item : items) {
    item.check_keys({"name", "strength", "min_difficulty", "max_ratio"});
    SpawnObject object;
    const DataNode& name = item.at("name");
    object.name = name.text();
    if (object.name.empty()) name.fail("an object's name must not be empty");
    if (!names.insert(object.name).second)
      name.fail("duplicate object name " + quoted_value(object.name));
    object.strength = item.real_or("strength", 1, 0, huge);
    if (object.strength <= 0) item.at("strength").fail("strength must be > 0");
    object.min_difficulty = item.real_or("min_difficulty", 0, 0, huge);
    object.max_ratio = item.real_or("max_ratio", 1, 0, 1);
    objects.push_back(std::move(object));
  }
  return objects;
}

LevelPlan plan_level(std::span<const SpawnObject> objects, double required) {
  LevelPlan plan;
  plan.required = required;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const SpawnObject& object = objects[i];
    if (required < object.min_difficulty) continue;
    plan.eligible |= bit(i);
    // The document's order of operations: difficulty / strength * ratio.
    plan.cap[i] = floor_quantity(required / object.strength * object.max_ratio);
    if (plan.cap[i] > 0) plan.candidates |= bit(i);
  }
  return plan;
}

RecencyState::RecencyState(const Rules& rules)
    : mode_(rules.recency),
      decay_(rules.decay),
      window_bits_(rules.window >= 64
                       ? ~std::uint64_t{0}
                       : (std::uint64_t{1} << static_cast<unsigned>(rules.window)) - 1),
      window_(rules.window) {}

void RecencyState::record(Mask present, std::size_t objects) {
  ++levels_;
  const auto absent = [present](std::size_t i) { return (present & bit(i)) == 0 ? 1.0 : 0.0; };
  switch (mode_) {
    case Recency::all:
      for (std::size_t i = 0; i < objects; ++i) score_[i] += absent(i);
      break;
    case Recency::decay:
      for (std::size_t i = 0; i < objects; ++i) score_[i] = score_[i] * decay_ + absent(i);
      break;
    case Recency::window: {
      const auto counted = std::min(levels_, window_);
      for (std::size_t i = 0; i < objects; ++i) {
        seen_[i] = (seen_[i] << 1U) | ((present >> i) & 1U);
        score_[i] = static_cast<double>(counted - std::popcount(seen_[i] & window_bits_));
      }
      break;
    }
  }
}

Selector::Selector(std::span<const SpawnObject> objects, const Rules& rules)
    : count_(objects.size()), rules_(rules) {
  for (std::size_t i = 0; i < count_; ++i) strength_[i] = objects[i].strength;
}

void Selector::weights(const LevelPlan& level, const RecencyState& recency, Weights& out) const {
  for (std::size_t i = 0; i < count_; ++i) {
    out[i] = (level.eligible & bit(i)) != 0
                 ? rules_.default_weight + rules_.weight_increment * recency.score(i)
                 : 0.0;
  }
}

void Selector::select(const LevelPlan& level, Weights& weights, Rng& rng,
                      LevelContents& out) const {
  out.present = 0;
  out.quantity.fill(0);
  out.draws = 0;
  const double required = level.required;
  Mask candidates = level.candidates;
  double total = 0;
  while (candidates != 0 && total < required) {
    const double remaining = required - total;
    Mask fit = 0;
    double sum = 0;
    for (Mask left = candidates; left != 0; left &= left - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(left));
      if (strength_[i] <= remaining && weights[i] > 0) {
        fit |= bit(i);
        sum += weights[i];
      }
    }
    if (fit == 0) break;
    // The first object, in table order, whose cumulative weight exceeds the draw; the last
    // fitting one when rounding leaves the draw at the very top.
    const double point = rng.uniform() * sum;
    double cumulative = 0;
    std::size_t chosen = 0;
    for (Mask left = fit; left != 0; left &= left - 1) {
      chosen = static_cast<std::size_t>(std::countr_zero(left));
      cumulative += weights[chosen];
      if (point < cumulative) break;
    }
    ++out.draws;
    const double strength = strength_[chosen];
    // Both bounds are >= 1 here: the object fits, and a candidate is below its cap.
    const std::int64_t most =
        std::min(floor_quantity(remaining / strength), level.cap[chosen] - out.quantity[chosen]);
    const auto quantity =
        static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(most) + 1));
    if (quantity == 0) continue;
    out.quantity[chosen] += quantity;
    out.present |= bit(chosen);
    total += strength * static_cast<double>(quantity);
    if (rules_.multiset && out.quantity[chosen] < level.cap[chosen]) {
      weights[chosen] *= rules_.repeat_factor;
    } else {
      candidates &= ~bit(chosen);
    }
  }
  out.spawned = total;
  out.stalled = false;
  if (total < required) {
    const Mask capped = level.eligible & ~level.candidates;
    for (Mask left = capped; left != 0; left &= left - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(left));
      if (strength_[i] <= required - total) out.stalled = true;
    }
  }
}

}  // namespace levelforge::spawn
