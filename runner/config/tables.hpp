#pragma once
// Table parameters (a species catalogue, an enemy table): YAML written inline in the config
// or in files the config names, read into a DataNode that remembers where each part was
// written, and written back as YAML.

#include <yaml-cpp/yaml.h>

#include <string>

#include "kernels/api/params.hpp"
#include "runner/config/document.hpp"

namespace levelforge::config {

// The table `value` at `path` of `document` gives: a map, a list of maps, or the name of a
// YAML file holding either; a list's elements are maps or names of such files, whose lists
// are spliced in. `location`: where the value is, for errors about it as a whole. Throws
// ConfigError naming the config or the table file, the line and the key path at fault.
ParamTable read_table(const Document& document, const KeyPath& path, const YAML::Node& value,
                      const std::string& location);

// The table as YAML that read_table reads back to an equal table: what config_text and the
// effective config hold instead of the file names.
YAML::Node table_yaml(const DataNode& table);

}  // namespace levelforge::config
