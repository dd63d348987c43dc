#include "runner/engine/archive_cells.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "runner/engine/cvt.hpp"

namespace levelforge {

namespace {

std::vector<double> scaled_centroids(const std::vector<MeasureAxis>& axes,
                                     const std::vector<double>& centroids) {
  std::vector<double> unit(centroids.size());
  for (std::size_t i = 0; i < centroids.size(); ++i)
    unit[i] = axes[i % axes.size()].unit(centroids[i]);
  return unit;
}

// cvt_centroids, remembering the last fit: the points of a sweep mostly share their box,
// cells and samples, and each rank checks every point.
const std::vector<double>& fitted_centroids(std::size_t dimensions, std::size_t cells,
                                            std::size_t samples, std::uint64_t seed) {
  struct Fit {
    std::size_t dimensions = 0;
    std::size_t cells = 0;
    std::size_t samples = 0;
    std::uint64_t seed = 0;
    std::vector<double> centroids;
  };
  static Fit last;
  const Fit wanted{dimensions, cells, samples, seed, {}};
  if (last.centroids.empty() || last.dimensions != dimensions || last.cells != cells ||
      last.samples != samples || last.seed != seed) {
    last = wanted;
    last.centroids = cvt_centroids(dimensions, cells, samples, cvt_rounds, seed);
  }
  return last.centroids;
}

}  // namespace

ArchiveCells::ArchiveCells(std::vector<MeasureAxis> axes)
    : axes_(std::move(axes)),
      count_(static_cast<std::size_t>(cell_count(axes_))),
      nearest_({}, std::max<std::size_t>(axes_.size(), 1)) {}

ArchiveCells::ArchiveCells(std::vector<MeasureAxis> axes, std::vector<double> centroids)
    : kind_(QdArchive::cvt),
      axes_(std::move(axes)),
      centroids_(std::move(centroids)),
      count_(centroids_.size() / axes_.size()),
      nearest_(scaled_centroids(axes_, centroids_), axes_.size()) {}

ArchiveCells ArchiveCells::novelty(std::vector<MeasureAxis> axes, std::size_t entries) {
  ArchiveCells cells(std::move(axes));
  cells.kind_ = QdArchive::novelty;
  cells.count_ = entries;
  return cells;
}

std::int64_t ArchiveCells::cell_of(std::span<const double> measures) const {
  if (kind_ == QdArchive::novelty)
    throw std::logic_error("a novelty archive's cell depends on its entries, not on measures");
  if (kind_ == QdArchive::grid) return levelforge::cell_of(axes_, measures);
  std::vector<double> point(axes_.size());
  for (std::size_t m = 0; m < axes_.size(); ++m) point[m] = axes_[m].unit(measures[m]);
  return static_cast<std::int64_t>(nearest_.nearest(point));
}

ArchiveCells archive_cells(const QdSettings& settings, const std::vector<MeasureSpec>& measures,
                           std::uint64_t seed) {
  auto axes = measure_axes(settings, measures);
  if (settings.archive == QdArchive::grid) return ArchiveCells(std::move(axes));
  if (settings.archive == QdArchive::novelty)
    return ArchiveCells::novelty(std::move(axes), static_cast<std::size_t>(settings.cells));
  const auto cells = static_cast<std::size_t>(settings.cells);
  const auto samples = static_cast<std::size_t>(settings.cvt_samples);
  if (samples < cells) {
    throw KernelError("qd.cvt_samples = " + std::to_string(samples) + " is fewer than qd.cells = " +
                      std::to_string(cells) + ": k-means needs a sample per centroid at least");
  }
  auto centroids = fitted_centroids(axes.size(), cells, samples, seed);
  for (std::size_t i = 0; i < centroids.size(); ++i)
    centroids[i] = axes[i % axes.size()].from_unit(centroids[i]);
  return {std::move(axes), std::move(centroids)};
}

}  // namespace levelforge
