#pragma once
// A centroidal Voronoi tessellation of a box (Vassiliades, Chatzilygeroudis & Mouret 2018,
// "Using Centroidal Voronoi Tessellations to Scale Up the Multidimensional Archive of
// Phenotypic Elites Algorithm"): the cells of the `qd` driver's CVT archive. Points are in
// the unit box; the archive scales each measure's range to [0, 1] first, so that a measure
// of wide range does not decide the cells alone.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace levelforge {

// `cells` centroids in [0, 1]^dimensions (cells x dimensions, row-major) by Lloyd's
// k-means over `samples` points uniform in the box, started from the first `cells` of them,
// `rounds` rounds; a centroid left without samples in a round stays where it was. Sample i
// is drawn on (seed, Stream::cvt, 0, 0, i): one seed gives one tessellation, in every run
// and on every rank. samples >= cells >= 1.
std::vector<double> cvt_centroids(std::size_t dimensions, std::size_t cells, std::size_t samples,
                                  int rounds, std::uint64_t seed);

// Finds the centroid nearest to a point by Euclidean distance, the lower index on a tie, as a
// scan of every centroid would, looking only at those whose first coordinate is near enough
// (the centroids sorted along it): about the square root of the cells in two dimensions.
class CentroidIndex {
 public:
  // `centroids`: rows of `dimensions` values.
  CentroidIndex(std::span<const double> centroids, std::size_t dimensions);

  [[nodiscard]] std::size_t nearest(std::span<const double> point) const;

 private:
  std::size_t dimensions_;
  std::vector<double> sorted_;      // the centroids in order of their first coordinate
  std::vector<std::size_t> index_;  // the centroid of each sorted row
};

}  // namespace levelforge
