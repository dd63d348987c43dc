#pragma once
// Pareto dominance among points of several objectives, every objective larger-is-better:
// NSGA-II's non-dominated sorting and crowding distance (Deb, Pratap, Agarwal & Meyarivan 2002,
// "A Fast and Elitist Multiobjective Genetic Algorithm: NSGA-II") and the hypervolume that
// measures a front. Points are `count x objectives` values, row-major; -inf is the worst a
// value can be (a NaN objective is mapped to it before it gets here).

#include <cstddef>
#include <span>
#include <vector>

namespace levelforge {

// Whether `a` is at least as good as `b` in every objective and better in one.
bool dominates(std::span<const double> a, std::span<const double> b);

// Each point's front: 0 for the points no other dominates, 1 for those only front 0
// dominates, and so on. Sequential search over the points sorted best-first (Zhang et al. 2015,
// "An Efficient Approach to Non-dominated Sorting for Evolutionary Multiobjective
// Optimization"): no O(n^2) lists, as Deb's fast sort keeps, for a population of 10^4.
std::vector<std::size_t> nondominated_fronts(std::span<const double> points,
                                             std::size_t objectives);

// Each point's crowding distance within its front (`fronts` from nondominated_fronts): the sum
// over objectives of the gap between its neighbours along that objective, divided by the
// front's range in it; infinite at a front's ends. An objective whose range is zero or not
// finite adds nothing. Ties along an objective are ordered by position.
std::vector<double> crowding_distances(std::span<const double> points, std::size_t objectives,
                                       std::span<const std::size_t> fronts);

// Positions in NSGA-II's crowded-comparison order: lower front first, then larger crowding
// distance, then lower position.
std::vector<std::size_t> crowded_order(std::span<const std::size_t> fronts,
                                       std::span<const double> crowding);

// The volume of the objective space that the points dominate and that dominates `reference`
// (one value per objective): points not better than the reference in every objective add
// nothing. Exact, by slicing along the last objective (HSO, While et al. 2006): O(n log n) for
// two objectives, O(n^(d-1) log n) for d.
double hypervolume(std::span<const double> points, std::size_t objectives,
                   std::span<const double> reference);

}  // namespace levelforge
