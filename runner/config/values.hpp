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

// How a node reads in a message: 'text', a list, a map, null.
std::string describe(const YAML::Node& node);

}  // namespace levelforge::config
