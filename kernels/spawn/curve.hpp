#pragma once
// The difficulty curve of the spawn kernel (docs/spawn.md): piecewise-linear over keyframes,
// with the document's looping wrap mode beside clamp and ping-pong. The document uses a
// Unity AnimationCurve (cubic Hermite between keys); levelforge interpolates linearly so
// that a curve is fully given by its keyframes.

#include <vector>

#include "kernels/api/data_tree.hpp"

namespace levelforge::spawn {

struct Keyframe {
  double time;
  double value;
};

// What happens outside [first key time, last key time]. loop and ping_pong follow Unity's
// Mathf.Repeat and Mathf.PingPong over the keys' span.
enum class Wrap { loop, clamp, ping_pong };

class Curve {
 public:
  // Throws KernelError when `keys` is empty or its times are not strictly increasing.
  Curve(std::vector<Keyframe> keys, Wrap wrap);

  [[nodiscard]] double operator()(double time) const;

 private:
  [[nodiscard]] double wrapped(double time) const;

  std::vector<Keyframe> keys_;
  Wrap wrap_;
};

// Keyframes written as a list of {time, value} maps (the form table parameters take in a
// config); errors name the item at fault. Values must lie in [0, max_value].
std::vector<Keyframe> parse_keyframes(const DataNode& table, double max_value);

}  // namespace levelforge::spawn
