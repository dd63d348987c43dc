#include "runner/engine/pareto.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace levelforge {

namespace {

std::span<const double> point(std::span<const double> points, std::size_t objectives,
                              std::size_t index) {
  return points.subspan(index * objectives, objectives);
}

// Gains over the reference of the points that beat it in every objective: the volume is then
// that of the union of the boxes [0, gain].
std::vector<double> gains_over(std::span<const double> points, std::size_t objectives,
                               std::span<const double> reference) {
  std::vector<double> gains;
  const auto count = points.size() / objectives;
  for (std::size_t i = 0; i < count; ++i) {
    const auto values = point(points, objectives, i);
    bool beats = true;
    for (std::size_t m = 0; m < objectives && beats; ++m) beats = values[m] > reference[m];
    if (!beats) continue;
    for (std::size_t m = 0; m < objectives; ++m) gains.push_back(values[m] - reference[m]);
  }
  return gains;
}

// The volume of the union of the boxes [0, gain] over the first `dimensions` coordinates of
// each `stride`-long row of `gains`.
double union_volume(std::vector<double> gains, std::size_t stride, std::size_t dimensions) {
  const auto count = gains.size() / stride;
  if (count == 0) return 0;
  if (dimensions == 1) {
    double most = 0;
    for (std::size_t i = 0; i < count; ++i) most = std::max(most, gains[i * stride]);
    return most;
  }
  const auto last = dimensions - 1;
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return gains[a * stride + last] > gains[b * stride + last];
  });
  double volume = 0;
  if (dimensions == 2) {
    double widest = 0;
    for (std::size_t k = 0; k < count; ++k) {
      widest = std::max(widest, gains[order[k] * stride]);
      const double next = k + 1 < count ? gains[order[k + 1] * stride + last] : 0.0;
      volume += widest * (gains[order[k] * stride + last] - next);
    }
    return volume;
  }
  std::vector<double> slice;
  for (std::size_t k = 0; k < count; ++k) {
    const auto row = gains.begin() + static_cast<std::ptrdiff_t>(order[k] * stride);
    slice.insert(slice.end(), row, row + static_cast<std::ptrdiff_t>(stride));
    const double next = k + 1 < count ? gains[order[k + 1] * stride + last] : 0.0;
    const double thickness = gains[order[k] * stride + last] - next;
    if (thickness > 0) volume += thickness * union_volume(slice, stride, last);
  }
  return volume;
}

}  // namespace

bool dominates(std::span<const double> a, std::span<const double> b) {
  bool better = false;
  for (std::size_t m = 0; m < a.size(); ++m) {
    if (a[m] < b[m]) return false;
    better = better || a[m] > b[m];
  }
  return better;
}

std::vector<std::size_t> nondominated_fronts(std::span<const double> points,
                                             std::size_t objectives) {
  const auto count = points.size() / objectives;
  // Best-first lexicographically: a point can be dominated only by points before it.
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto x = point(points, objectives, a);
    const auto y = point(points, objectives, b);
    return std::lexicographical_compare(y.begin(), y.end(), x.begin(), x.end());
  });
  std::vector<std::size_t> fronts(count, 0);
  std::vector<std::vector<std::size_t>> members;
  for (const auto candidate : order) {
    const auto values = point(points, objectives, candidate);
    std::size_t front = 0;
    // A point dominated by a member of front k is dominated by one of every front before it.
    while (front < members.size() &&
           std::any_of(members[front].rbegin(), members[front].rend(), [&](std::size_t member) {
             return dominates(point(points, objectives, member), values);
           })) {
      ++front;
    }
    if (front == members.size()) members.emplace_back();
    members[front].push_back(candidate);
    fronts[candidate] = front;
  }
  return fronts;
}

std::vector<double> crowding_distances(std::span<const double> points, std::size_t objectives,
                                       std::span<const std::size_t> fronts) {
  const auto count = fronts.size();
  std::vector<double> crowding(count, 0.0);
  const auto front_count =
      count == 0 ? std::size_t{0} : *std::max_element(fronts.begin(), fronts.end()) + 1;
  std::vector<std::vector<std::size_t>> members(front_count);
  for (std::size_t i = 0; i < count; ++i) members[fronts[i]].push_back(i);
  constexpr double infinite = std::numeric_limits<double>::infinity();
  for (auto& front : members) {
    for (std::size_t m = 0; m < objectives; ++m) {
      const auto value = [&](std::size_t i) { return points[i * objectives + m]; };
      std::stable_sort(front.begin(), front.end(),
                       [&](std::size_t a, std::size_t b) { return value(a) < value(b); });
      const double range = value(front.back()) - value(front.front());
      crowding[front.front()] = infinite;
      crowding[front.back()] = infinite;
      if (!(range > 0) || !std::isfinite(range)) continue;
      for (std::size_t k = 1; k + 1 < front.size(); ++k) {
        crowding[front[k]] += (value(front[k + 1]) - value(front[k - 1])) / range;
      }
    }
  }
  return crowding;
}

std::vector<std::size_t> crowded_order(std::span<const std::size_t> fronts,
                                       std::span<const double> crowding) {
  std::vector<std::size_t> order(fronts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (fronts[a] != fronts[b]) return fronts[a] < fronts[b];
    return crowding[a] > crowding[b];
  });
  return order;
}

double hypervolume(std::span<const double> points, std::size_t objectives,
                   std::span<const double> reference) {
  return union_volume(gains_over(points, objectives, reference), objectives, objectives);
}

}  // namespace levelforge
