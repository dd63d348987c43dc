#pragma once
// The `qd` driver's novelty archive (qd.archive: novelty; docs/drivers.md, "Archives"): an
// unstructured archive in the manner of novelty search (Lehman & Stanley 2011) and pyribs'
// ProximityArchive. A candidate's novelty is the mean distance from its measures to those of
// the k nearest entries, each measure's range scaled to [0, 1]; a candidate at least
// novelty_threshold away becomes a new entry while there is room, and with local competition
// a candidate less novel replaces its nearest entry when it is fitter.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "runner/engine/qd_settings.hpp"

namespace levelforge {

class NoveltyArchive {
 public:
  NoveltyArchive(std::vector<MeasureAxis> axes, const QdSettings& settings);

  [[nodiscard]] std::size_t size() const { return entries_; }

  // The mean distance from `measures` to the k nearest entries (to every entry while there
  // are fewer); infinite while the archive is empty.
  [[nodiscard]] double novelty(std::span<const double> measures) const;

  // Where a candidate of `measures` and `fitness` goes: a new entry (number size()), the
  // entry nearest it (local competition, fitter than `fitness_of` that entry), or nowhere.
  [[nodiscard]] std::optional<std::size_t> place(std::span<const double> measures, double fitness,
                                                 std::span<const double> fitness_of) const;

  // Entry `entry` (a new one: size()) now has these measures.
  void put(std::size_t entry, std::span<const double> measures);

 private:
  [[nodiscard]] std::vector<double> scaled(std::span<const double> measures) const;
  [[nodiscard]] double distance(std::size_t entry, std::span<const double> point) const;

  std::vector<MeasureAxis> axes_;
  std::size_t capacity_;
  std::size_t neighbors_;
  double threshold_;
  bool local_competition_;
  std::size_t entries_ = 0;
  std::vector<double> points_;  // capacity x axes, scaled
};

}  // namespace levelforge
