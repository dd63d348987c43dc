#pragma once
// Reading one YAML value as a declared parameter: YAML 1.2 core typing, then the range
// or the choices of its ParamSpec.

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "kernels/api/params.hpp"

namespace levelforge::config {

// Throws ConfigError "LOCATION: KEY_PATH: problem" when `node` is not a valid value. Not for
// tables, which may name files: read_table reads them.
ParamValue read_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                      std::string_view location);

// Throws the error read_value gives for a number outside the range of `spec` (an integer
// or real key): for values the config computes rather than lists (sequences, samples).
void check_in_range(const ParamSpec& spec, const ParamValue& value, std::string_view key_path,
                    std::string_view location);

// How a node reads in a message: 'text', a list, a map, null.
std::string describe(const YAML::Node& node);

}  // namespace levelforge::config
