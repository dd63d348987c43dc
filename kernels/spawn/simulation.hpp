#pragma once
// Long runs of the spawn rules and what is measured over them (docs/spawn.md): a run is
// `levels` levels in a row sharing one recency history; a task simulates many independent
// runs and reports difficulty error and variety.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/spawn/selection.hpp"

namespace levelforge::spawn {

// Sums over every level of every run of a task.
struct Tally {
  std::int64_t runs = 0;
  std::int64_t levels = 0;
  double required = 0;
  double spawned = 0;
  double abs_error = 0;
  std::int64_t types = 0;
  double entropy = 0;        // bits, per level
  std::int64_t pairs = 0;    // consecutive level pairs
  std::int64_t repeats = 0;  // of which with the same set of object types
  std::int64_t stalled = 0;  // levels the document's rule would never end
  std::int64_t draws = 0;
  // Spawned, per object; a double because runs x levels x quantities can pass 2^63.
  std::array<double, max_objects> quantity{};
  Quantities longest_absence{};  // sum over runs of each run's longest absence
  std::int64_t max_absence = 0;  // the longest absence of any object in any run
};

struct Metrics {
  double mean_required;
  double mean_spawned;
  double mean_abs_error;
  double error_share;  // sum |required - spawned| / sum required
  double mean_types;
  double entropy;               // mean per-level Shannon entropy of the spawned mix, bits
  double mix_entropy;           // entropy of the objects' shares of all spawns, bits
  double repetition;            // share of consecutive levels with the same set of types
  double mean_longest_absence;  // over objects ever eligible
  std::int64_t max_longest_absence;
  double stalled_share;
  double mean_draws;
  std::array<double, max_objects> share;    // NaN for slots without an object
  std::array<double, max_objects> absence;  // mean longest absence; NaN: never eligible
};

// The record's `first_run` text: the objects present on each of a run's first
// `recorded_levels` levels, `level_digits` lowercase hex digits per level (bit K: the object
// at table position K), levels one after another with no separator.
inline constexpr std::size_t recorded_levels = 64;
inline constexpr std::size_t level_digits = max_objects / 4;
static_assert(max_objects % 4 == 0 && max_objects <= 32);
std::string format_levels(std::span<const Mask> present);

class Simulator {
 public:
  // `required`: the required difficulty of each level of a run.
  Simulator(std::span<const SpawnObject> objects, std::span<const double> required,
            const Rules& rules);

  // One run of every level, added to `tally`; the objects present on level i go to
  // present[i] for the first present.size() levels. Allocates nothing.
  void run(Rng& rng, Tally& tally, std::span<Mask> present = {}) const;
  // `runs` runs; `first_run` as `present` for the first of them.
  [[nodiscard]] Metrics measure(std::int64_t runs, Rng& rng, std::span<Mask> first_run = {}) const;
  [[nodiscard]] Metrics summarize(const Tally& tally) const;

  [[nodiscard]] const std::vector<LevelPlan>& plans() const { return plans_; }
  [[nodiscard]] const Selector& selector() const { return selector_; }

 private:
  Selector selector_;
  std::vector<LevelPlan> plans_;
  // The first level each object is eligible on; plans_.size() when never.
  std::array<std::int64_t, max_objects> first_eligible_{};
  // q * log2(q) for small quantities, so entropy costs no logarithm per object and level.
  std::array<double, 256> q_log_q_{};
};

}  // namespace levelforge::spawn
