#pragma once
// Collatz total stopping times over a range of starting numbers: an exhaustive kernel
// whose cost per index varies by two orders of magnitude, with a histogram, a top-K and
// solution records, which is what the exhaustive driver's tests and benchmarks need.

#include <cstdint>
#include <limits>
#include <string>

#include "kernels/api/concepts.hpp"

namespace levelforge::kernels {

struct CollatzOrbit {
  std::int64_t steps;  // applications of n -> n/2 or 3n+1 until 1
  std::int64_t peak;   // largest value reached
};

inline CollatzOrbit collatz_orbit(std::uint64_t n) {
  if (n == 0) throw KernelError("collatz: 0 has no orbit");
  const auto start = n;
  CollatzOrbit orbit{0, static_cast<std::int64_t>(n)};
  // The peak is stored as int64, so the orbit must stay within int64, not just uint64.
  constexpr auto limit =
      static_cast<std::uint64_t>((std::numeric_limits<std::int64_t>::max() - 1) / 3);
  while (n != 1) {
    if ((n & 1U) == 0) {
      n >>= 1U;
    } else {
      if (n > limit)
        throw KernelError("collatz: the orbit of " + std::to_string(start) +
                          " exceeds the int64 peak field");
      n = 3 * n + 1;
    }
    ++orbit.steps;
    if (n > static_cast<std::uint64_t>(orbit.peak)) orbit.peak = static_cast<std::int64_t>(n);
  }
  return orbit;
}

class Collatz {
 public:
  static constexpr std::string_view name = "collatz";
  static constexpr std::string_view summary =
      "Collatz stopping times of start..start+count-1 (a test kernel of uneven cost)";
  static constexpr Capabilities capabilities{Capability::exhaustive, Capability::sweep};

  static std::vector<ParamSpec> parameters() {
    return {
        int_param("start", 1, 1, 1'000'000'000'000'000, "first start value (index 0)"),
        int_param("count", 1'000'000, 1, 1'000'000'000'000, "start values in the index space"),
        int_param("solution_steps", 400, 0, 100'000,
                  "start values with at least this many steps are stored as solutions"),
    };
  }

  explicit Collatz(const ParamSet& params)
      : start_(static_cast<std::uint64_t>(params.integer("start"))),
        count_(static_cast<std::uint64_t>(params.integer("count"))),
        solution_steps_(params.integer("solution_steps")) {}

  enum Reduction : std::size_t { visited, steps_histogram, longest };

  static std::vector<ReductionSpec> reductions() {
    return {
        count_reduction("visited", "start values visited"),
        histogram_reduction("steps", 0, 1000, 1000, "total stopping time, one bin per step count"),
        top_k_reduction("longest", 10,
                        {int_field("n", "start value"), int_field("steps", "total stopping time"),
                         int_field("peak", "largest value of the orbit")},
                        "start values with the longest orbits"),
    };
  }

  static std::vector<FieldSpec> solution_fields() {
    return {int_field("n", "start value"), int_field("steps", "total stopping time")};
  }

  [[nodiscard]] std::uint64_t index_count() const { return count_; }

  void visit(std::uint64_t index, Reductions& out) const {
    const auto n = start_ + index;
    const auto orbit = collatz_orbit(n);
    out.count(visited);
    out.histogram(steps_histogram, static_cast<double>(orbit.steps));
    out.offer_top(longest, static_cast<double>(orbit.steps), [&] {
      return Record{static_cast<std::int64_t>(n), orbit.steps, orbit.peak};
    });
    if (orbit.steps >= solution_steps_) {
      out.solution({static_cast<std::int64_t>(n), orbit.steps});
    }
  }

  // sweep driver: the orbit of one start value drawn uniformly from the range.
  static std::vector<FieldSpec> record_fields() {
    return {int_field("n", "start value drawn"), int_field("steps", "total stopping time"),
            int_field("peak", "largest value of the orbit")};
  }

  Record run(Rng& rng) const {
    const auto n = start_ + rng.below(count_);
    const auto orbit = collatz_orbit(n);
    return {static_cast<std::int64_t>(n), orbit.steps, orbit.peak};
  }

 private:
  std::uint64_t start_;
  std::uint64_t count_;
  std::int64_t solution_steps_;
};

static_assert(capabilities_hold<Collatz>());

}  // namespace levelforge::kernels
