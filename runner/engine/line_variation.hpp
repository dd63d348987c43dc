#pragma once
// Iso+LineDD (Vassiliades & Mouret 2018, "Discovering the Elite Hypervolume by Leveraging
// Interspecies Correlation"), the `qd` driver's variation for real genomes: the child of x
// and y is x + iso N(0, I) + line (y - x) N(0, 1), an isotropic step plus one along the line
// between two elites, clipped to the bounds. Elites of an archive tend to share structure
// (the "elite hypervolume"), and the line follows it.

#include <cstddef>

#include "kernels/api/real_genome.hpp"
#include "kernels/api/rng.hpp"

namespace levelforge {

// `iso` is a fraction of each gene's bounds' width, as RealGenome::mutate's rate; the line's
// normal is drawn first, then one normal per gene.
inline RealGenome::Genome iso_line_child(const RealGenome& genome_half, const RealGenome::Genome& x,
                                         const RealGenome::Genome& y, double iso, double line,
                                         Rng& rng) {
  const auto& bounds = genome_half.bounds();
  const double along = line * rng.normal();
  RealGenome::Genome child(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    child[i] =
        bounds[i].clip(x[i] + iso * bounds[i].width() * rng.normal() + along * (y[i] - x[i]));
  }
  return child;
}

}  // namespace levelforge
