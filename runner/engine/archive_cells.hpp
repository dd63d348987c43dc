#pragma once
// The cells of a `qd` archive (docs/drivers.md, "Archives"): a grid over the measures' ranges
// (qd.archive: grid), the Voronoi cells of centroids fitted to the measure box (cvt), or the
// entries of a novelty archive (novelty_archive.hpp), whose cell a genome's measures alone do
// not decide.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "runner/engine/cvt.hpp"
#include "runner/engine/qd_settings.hpp"

namespace levelforge {

class ArchiveCells {
 public:
  // The grid over `axes`.
  explicit ArchiveCells(std::vector<MeasureAxis> axes);
  // The Voronoi cells of `centroids` (cells x axes, in the measures' units): a genome's cell
  // is the nearest centroid with each axis's range scaled to [0, 1].
  ArchiveCells(std::vector<MeasureAxis> axes, std::vector<double> centroids);
  // A novelty archive of up to `entries` entries.
  static ArchiveCells novelty(std::vector<MeasureAxis> axes, std::size_t entries);

  [[nodiscard]] QdArchive kind() const { return kind_; }

  [[nodiscard]] const std::vector<MeasureAxis>& axes() const { return axes_; }
  // Empty for a grid.
  [[nodiscard]] const std::vector<double>& centroids() const { return centroids_; }
  [[nodiscard]] std::size_t count() const { return count_; }
  // The cell of `measures` (one per axis); not for a novelty archive (std::logic_error).
  [[nodiscard]] std::int64_t cell_of(std::span<const double> measures) const;

 private:
  QdArchive kind_ = QdArchive::grid;
  std::vector<MeasureAxis> axes_;
  std::vector<double> centroids_;
  std::size_t count_;
  CentroidIndex nearest_;  // of the centroids with each axis's range scaled to [0, 1]
};

// Lloyd's rounds of a CVT archive's k-means: past 20 the centroids of pyribs' defaults
// (samples 100 x cells) move by well under a thousandth of a range.
inline constexpr int cvt_rounds = 20;

// The cells that `settings` give an archive over `measures`: for qd.archive cvt, qd.cells
// centroids fitted to qd.cvt_samples points of the box on the experiment's `seed` (the same
// for every point whose box, cells and samples are the same); for novelty, qd.cells entries.
// Throws KernelError as measure_axes does, and for fewer samples than cells.
ArchiveCells archive_cells(const QdSettings& settings, const std::vector<MeasureSpec>& measures,
                           std::uint64_t seed);

}  // namespace levelforge
