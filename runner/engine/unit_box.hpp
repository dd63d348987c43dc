#pragma once
// A real genome seen in its genes' ranges scaled to [0, 1], where the CMA-ES searches run
// (cma_emitters.hpp, cma_breeding.hpp): one step size then fits genes of any range.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "kernels/api/real_genome.hpp"

namespace levelforge {

inline std::vector<double> to_unit_box(const std::vector<GeneBounds>& bounds,
                                       const RealGenome::Genome& genome) {
  std::vector<double> unit(genome.size());
  for (std::size_t i = 0; i < unit.size(); ++i)
    unit[i] = (genome[i] - bounds[i].low) / bounds[i].width();
  return unit;
}

// Clips `unit` to the box (the search is told the point it was evaluated at) and returns
// its genome.
inline RealGenome::Genome from_unit_box(const std::vector<GeneBounds>& bounds,
                                        std::vector<double>& unit) {
  RealGenome::Genome genome(unit.size());
  for (std::size_t i = 0; i < unit.size(); ++i) {
    unit[i] = std::clamp(unit[i], 0.0, 1.0);
    genome[i] = bounds[i].clip(bounds[i].low + unit[i] * bounds[i].width());
  }
  return genome;
}

}  // namespace levelforge
