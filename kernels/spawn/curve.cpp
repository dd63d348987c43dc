#include "kernels/spawn/curve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "kernels/api/params.hpp"

namespace levelforge::spawn {

Curve::Curve(std::vector<Keyframe> keys, Wrap wrap) : keys_(std::move(keys)), wrap_(wrap) {
  if (keys_.empty()) throw KernelError("curve: at least one keyframe is needed");
  for (std::size_t i = 1; i < keys_.size(); ++i) {
    if (!(keys_[i - 1].time < keys_[i].time)) {
      throw KernelError("curve: keyframe times must increase strictly: keyframe " +
                        std::to_string(i) + " has time " + format_value(keys_[i].time) + " after " +
                        format_value(keys_[i - 1].time));
    }
  }
}

double Curve::wrapped(double time) const {
  const double first = keys_.front().time;
  const double span = keys_.back().time - first;
  const double offset = time - first;
  // Repeat(t, L) = t - floor(t / L) * L can round up to L itself; the wrap is [0, L).
  const auto repeat = [](double t, double length) {
    const double r = t - std::floor(t / length) * length;
    return r >= length ? 0.0 : std::max(r, 0.0);
  };
  switch (wrap_) {
    case Wrap::clamp: return std::clamp(time, first, keys_.back().time);
    case Wrap::loop: return first + repeat(offset, span);
    case Wrap::ping_pong: return first + span - std::abs(repeat(offset, 2 * span) - span);
  }
  return time;
}

double Curve::operator()(double time) const {
  if (keys_.size() == 1) return keys_.front().value;
  const double t = wrapped(time);
  const auto after = std::upper_bound(keys_.begin(), keys_.end(), t,
                                      [](double x, const Keyframe& key) { return x < key.time; });
  if (after == keys_.begin()) return keys_.front().value;
  if (after == keys_.end()) return keys_.back().value;
  const Keyframe& a = *(after - 1);
  const Keyframe& b = *after;
  return a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time);
}

std::vector<Keyframe> parse_keyframes(const DataNode& table, double max_value) {
  constexpr double huge = std::numeric_limits<double>::max();
  std::vector<Keyframe> keys;
  for (const DataNode& item : table.items()) {
    item.check_keys({"time", "value"});
    const Keyframe key{item.at("time").real(-huge, huge), item.at("value").real(0, max_value)};
    if (!keys.empty() && !(keys.back().time < key.time)) {
      item.fail("keyframe times must increase strictly: " + item.flow_text() +
                " comes after time " + format_value(keys.back().time));
    }
    keys.push_back(key);
  }
  return keys;
}

}  // namespace levelforge::spawn
