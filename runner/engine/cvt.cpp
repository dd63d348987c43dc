#include "runner/engine/cvt.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "kernels/api/rng.hpp"

namespace levelforge {

std::vector<double> cvt_centroids(std::size_t dimensions, std::size_t cells, std::size_t samples,
                                  int rounds, std::uint64_t seed) {
  std::vector<double> points(samples * dimensions);
  for (std::size_t i = 0; i < samples; ++i) {
    Rng rng({seed, Stream::cvt, 0, 0, i});
    for (std::size_t d = 0; d < dimensions; ++d) points[i * dimensions + d] = rng.uniform();
  }
  std::vector<double> centroids(points.begin(),
                                points.begin() + static_cast<std::ptrdiff_t>(cells * dimensions));
  std::vector<double> sums(centroids.size());
  std::vector<std::size_t> counts(cells);
  for (int round = 0; round < rounds; ++round) {
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(counts.begin(), counts.end(), std::size_t{0});
    const CentroidIndex index(centroids, dimensions);
    for (std::size_t i = 0; i < samples; ++i) {
      const auto point = std::span<const double>(points).subspan(i * dimensions, dimensions);
      const auto cell = index.nearest(point);
      ++counts[cell];
      for (std::size_t d = 0; d < dimensions; ++d) sums[cell * dimensions + d] += point[d];
    }
    for (std::size_t cell = 0; cell < cells; ++cell) {
      if (counts[cell] == 0) continue;
      for (std::size_t d = 0; d < dimensions; ++d) {
        centroids[cell * dimensions + d] =
            sums[cell * dimensions + d] / static_cast<double>(counts[cell]);
      }
    }
  }
  return centroids;
}

CentroidIndex::CentroidIndex(std::span<const double> centroids, std::size_t dimensions)
    : dimensions_(dimensions), sorted_(centroids.size()), index_(centroids.size() / dimensions) {
  std::iota(index_.begin(), index_.end(), std::size_t{0});
  std::stable_sort(index_.begin(), index_.end(), [&](std::size_t a, std::size_t b) {
    return centroids[a * dimensions] < centroids[b * dimensions];
  });
  for (std::size_t row = 0; row < index_.size(); ++row) {
    std::copy_n(centroids.begin() + static_cast<std::ptrdiff_t>(index_[row] * dimensions),
                dimensions, sorted_.begin() + static_cast<std::ptrdiff_t>(row * dimensions));
  }
}

std::size_t CentroidIndex::nearest(std::span<const double> point) const {
  const auto rows = index_.size();
  std::size_t best = rows;  // a sorted row; rows: none yet
  double shortest = std::numeric_limits<double>::infinity();
  const auto consider = [&](std::size_t row) {
    double distance = 0;
    for (std::size_t d = 0; d < dimensions_; ++d) {
      const double difference = sorted_[row * dimensions_ + d] - point[d];
      distance += difference * difference;
    }
    if (distance < shortest ||
        (best < rows && distance == shortest && index_[row] < index_[best])) {
      shortest = distance;
      best = row;
    }
  };
  // The first row at or past the point along the first coordinate, then outwards both ways
  // while a row's first coordinate alone is not farther than the nearest so far.
  std::size_t low = 0;
  std::size_t high = rows;
  while (low < high) {
    const auto middle = (low + high) / 2;
    if (sorted_[middle * dimensions_] < point[0]) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  std::size_t above = low;
  std::size_t below = low;
  while (above < rows || below > 0) {
    bool moved = false;
    if (above < rows) {
      const double gap = sorted_[above * dimensions_] - point[0];
      if (gap * gap <= shortest) {
        consider(above++);
        moved = true;
      } else {
        above = rows;
      }
    }
    if (below > 0) {
      const double gap = point[0] - sorted_[(below - 1) * dimensions_];
      if (gap * gap <= shortest) {
        consider(--below);
        moved = true;
      } else {
        below = 0;
      }
    }
    if (!moved) break;
  }
  return index_[best];
}

}  // namespace levelforge
