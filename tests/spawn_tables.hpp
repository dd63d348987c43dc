#pragma once
// Object tables for the spawn kernel's tests, built as the runner would pass them.

#include <string>

#include "kernels/api/data_tree.hpp"
#include "kernels/api/params.hpp"

namespace levelforge::testing {

inline DataNode num(double value) { return DataNode::scalar(format_value(value)); }

inline DataNode object_node(const std::string& name, double strength, double min_difficulty,
                            double max_ratio) {
  return DataNode::map({{"name", DataNode::scalar(name)},
                        {"strength", num(strength)},
                        {"min_difficulty", num(min_difficulty)},
                        {"max_ratio", num(max_ratio)}});
}

}  // namespace levelforge::testing
