#pragma once
// The sphere test kernel at a dimension (and gene bound), for the tests of the algorithms
// made for real genomes.

#include <cstdint>

#include "kernels/testing/sphere.hpp"

namespace levelforge::testing {

inline kernels::Sphere sphere_of(std::int64_t dimension, double bound = 10.24) {
  auto params = ParamSet::defaults(kernels::Sphere::parameters());
  params.set("dimension", ParamValue{dimension});
  params.set("bound", ParamValue{bound});
  return kernels::Sphere(params);
}

}  // namespace levelforge::testing
