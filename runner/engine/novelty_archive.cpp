#include "runner/engine/novelty_archive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace levelforge {

NoveltyArchive::NoveltyArchive(std::vector<MeasureAxis> axes, const QdSettings& settings)
    : axes_(std::move(axes)),
      capacity_(static_cast<std::size_t>(settings.cells)),
      neighbors_(static_cast<std::size_t>(settings.k_neighbors)),
      threshold_(settings.novelty_threshold),
      local_competition_(settings.local_competition),
      points_(capacity_ * axes_.size()) {}

std::vector<double> NoveltyArchive::scaled(std::span<const double> measures) const {
  std::vector<double> point(axes_.size());
  for (std::size_t m = 0; m < axes_.size(); ++m) point[m] = axes_[m].unit(measures[m]);
  return point;
}

double NoveltyArchive::distance(std::size_t entry, std::span<const double> point) const {
  double sum = 0;
  for (std::size_t m = 0; m < point.size(); ++m) {
    const double difference = points_[entry * point.size() + m] - point[m];
    sum += difference * difference;
  }
  return std::sqrt(sum);
}

double NoveltyArchive::novelty(std::span<const double> measures) const {
  if (entries_ == 0) return std::numeric_limits<double>::infinity();
  const auto point = scaled(measures);
  std::vector<double> distances(entries_);
  for (std::size_t entry = 0; entry < entries_; ++entry) distances[entry] = distance(entry, point);
  const auto k = std::min(neighbors_, entries_);
  std::partial_sort(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(k),
                    distances.end());
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) sum += distances[i];  // nearest first: one order
  return sum / static_cast<double>(k);
}

std::optional<std::size_t> NoveltyArchive::place(std::span<const double> measures, double fitness,
                                                 std::span<const double> fitness_of) const {
  if (novelty(measures) >= threshold_) {
    if (entries_ < capacity_) return entries_;
    return std::nullopt;
  }
  if (!local_competition_) return std::nullopt;
  const auto point = scaled(measures);
  std::size_t nearest = 0;
  for (std::size_t entry = 1; entry < entries_; ++entry) {
    if (distance(entry, point) < distance(nearest, point)) nearest = entry;
  }
  if (fitness > fitness_of[nearest]) return nearest;
  return std::nullopt;
}

void NoveltyArchive::put(std::size_t entry, std::span<const double> measures) {
  const auto point = scaled(measures);
  std::copy(point.begin(), point.end(),
            points_.begin() + static_cast<std::ptrdiff_t>(entry * axes_.size()));
  entries_ = std::max(entries_, entry + 1);
}

}  // namespace levelforge
