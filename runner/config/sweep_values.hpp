#pragma once
// The values a swept key can stand for besides an explicit list: a sequence in `grid` or
// `zip` ({range: [start, stop, step]}, {linspace: [a, b, n]}, {logspace: [a, b, n]}) and the
// samples of `sweep.sample` (random, Sobol or Latin hypercube points mapped onto each key's
// distribution). docs/config.md, "Sweeps".

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/api/params.hpp"

namespace levelforge::config {

// Where a node of the config is, for messages: "FILE:LINE:COL".
using Locate = std::function<std::string(const YAML::Node&)>;

// The values of the sequence map `node` ({range: ...}, {linspace: ...} or {logspace: ...})
// for the key `spec`, each checked like a listed value; an integer key takes only whole
// values and gets integers. At most `max_values`. Throws ConfigError naming `key_path`.
std::vector<ParamValue> sequence_values(const ParamSpec& spec, const YAML::Node& node,
                                        const std::string& key_path, const Locate& locate,
                                        std::size_t max_values);

// One key of sweep.sample.space: how a coordinate u in [0, 1) becomes its value.
struct SampleAxis {
  enum class Kind { uniform, loguniform, integer, choice };
  Kind kind = Kind::uniform;
  double low = 0;  // uniform, loguniform: [low, high)
  double high = 1;
  std::int64_t first = 0;  // integer: first..last, both included
  std::int64_t last = 0;
  std::vector<ParamValue> choices;  // choice

  [[nodiscard]] ParamValue value_at(double u) const;
  // The distribution as the config writes it: {uniform: [0.1, 0.4]}.
  [[nodiscard]] YAML::Node yaml() const;
};

// Reads `{uniform: [a, b]}`, `{loguniform: [a, b]}`, `{int: [a, b]}` or `{choice: [...]}`
// for the key `spec`. Throws ConfigError naming `key_path`.
SampleAxis read_sample_axis(const ParamSpec& spec, const YAML::Node& node,
                            const std::string& key_path, const Locate& locate);

enum class SampleMethod { random, sobol, lhs };

// "random", "sobol", "lhs"
const std::vector<std::string>& sample_method_names();
SampleMethod sample_method(const std::string& name);
const std::string& sample_method_name(SampleMethod method);

// `count` points of [0, 1)^dimensions, row i the i-th sample: a pure function of the
// arguments. random: independent uniform coordinates from the experiment's seed; lhs: per
// dimension one coordinate in each of the `count` strata, strata shuffled and placed by the
// seed; sobol: the Sobol sequence (Joe and Kuo's direction numbers, Boost.Random), its
// all-zero first point skipped, the same for every seed.
std::vector<std::vector<double>> unit_samples(SampleMethod method, std::size_t count,
                                              std::size_t dimensions, std::uint64_t seed);

}  // namespace levelforge::config
