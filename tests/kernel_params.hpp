#pragma once
// A kernel's parameters: its defaults with some values replaced, the way a config sets them.

#include <initializer_list>
#include <utility>

#include "kernels/api/params.hpp"

namespace levelforge::testing {

template <class Kernel>
ParamSet params_with(std::initializer_list<std::pair<const char*, ParamValue>> values) {
  auto params = ParamSet::defaults(Kernel::parameters());
  for (const auto& [name, value] : values) params.set(name, value);
  return params;
}

}  // namespace levelforge::testing
