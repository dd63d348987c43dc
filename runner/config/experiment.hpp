#pragma once
// A validated experiment: the config file after --set overrides, checked against the
// kernel's and driver's declared parameters, with its sweep expanded into points.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/params.hpp"
#include "runner/errors.hpp"

namespace levelforge::config {

// Every message starts with the place at fault: "FILE:LINE:COL: " or "--set KEY=VALUE: ".
// Found identically on every rank, from the same config text: exit 2.
class ConfigError : public InputError {
 public:
  using InputError::InputError;
};

struct KernelSchema {
  std::vector<ParamSpec> params;
  std::vector<std::string> drivers;  // drivers the kernel supports: "ga", "sweep", "exhaustive"
};

// What the config is checked against: the registered kernels and each driver's own
// section (a driver without settings, like `sweep`, maps to an empty list).
struct Schema {
  std::map<std::string, KernelSchema, std::less<>> kernels;
  std::map<std::string, std::vector<ParamSpec>, std::less<>> drivers;
};

// One point of the sweep: the swept values (in the order of Experiment::swept_keys) and
// the complete parameter sets they produce.
struct Point {
  std::vector<ParamValue> swept_values;
  ParamSet params;  // the kernel's
  ParamSet driver;  // the driver section's
};

struct Experiment {
  std::string name;
  std::string kernel;
  std::string driver;
  std::uint64_t seed = 0;
  std::string output;                    // path of the HDF5 file
  std::int64_t checkpoint_every = 0;     // units of work; 0: by time
  std::int64_t checkpoint_seconds = 60;  // with checkpoint_every 0
  // on_error: record. A task whose kernel throws goes into /failures instead of ending the run.
  bool record_failures = false;
  std::int64_t replicates = 1;
  std::vector<std::string> swept_keys;  // "params.width", "ga.population", ...
  std::vector<Point> points;            // at least one (no sweep: one point)
  std::string config_text;              // the config as YAML after --set overrides

  [[nodiscard]] std::uint64_t task_count() const {
    return static_cast<std::uint64_t>(points.size()) * static_cast<std::uint64_t>(replicates);
  }
};

// Parses and validates. `source_name` is used in error locations (usually the path).
// `overrides` are the `--set key.path=value` arguments, applied in order.
Experiment parse_experiment(std::string_view yaml_text, std::string_view source_name,
                            const std::vector<std::string>& overrides, const Schema& schema);

// The effective configuration as YAML: every key with its value, defaults filled in,
// sweep lists as given. Used by `levelforge validate`.
std::string effective_yaml(const Experiment& experiment, const Schema& schema);

}  // namespace levelforge::config
