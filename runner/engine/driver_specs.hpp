#pragma once
// The settings of each driver's config section, declared like kernel parameters.

#include <cstdint>
#include <vector>

#include "kernels/api/params.hpp"

namespace levelforge {

std::vector<ParamSpec> ga_settings();
std::vector<ParamSpec> exhaustive_settings();

struct IndexRange {
  std::uint64_t begin;
  std::uint64_t end;
};

// The indices an exhaustive point visits: its `begin`/`end` settings within the kernel's
// index space. Throws KernelError when they do not fit.
IndexRange exhaustive_range(const ParamSet& settings, std::uint64_t index_count);

}  // namespace levelforge
