#pragma once
// Top-k entries as (score, index) pairs, the part a test compares against hand-computed tables.

#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/api/reductions.hpp"

namespace levelforge::testing {

inline std::vector<std::pair<double, std::uint64_t>> scores_and_indices(
    const std::vector<TopEntry>& entries) {
  std::vector<std::pair<double, std::uint64_t>> out;
  out.reserve(entries.size());
  for (const auto& entry : entries) out.emplace_back(entry.score, entry.index);
  return out;
}

}  // namespace levelforge::testing
