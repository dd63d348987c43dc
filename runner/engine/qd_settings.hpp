#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/api/concepts.hpp"

namespace levelforge {

// The cells of the archive (archive_cells.hpp).
enum class QdArchive : std::uint8_t { grid, cvt, novelty };
inline constexpr Vocabulary<QdArchive, 3> qd_archive_words{{{
    {"grid", QdArchive::grid},
    {"cvt", QdArchive::cvt},
    {"novelty", QdArchive::novelty},
}}};

// How offspring are bred: the kernel's crossover and mutation of uniform parents; for a real
// genome Iso+LineDD (line_variation.hpp), or CMA-ES emitters ranking by improvement
// (CMA-ME) or against a threshold per cell (CMA-MAE; cma_emitters.hpp).
enum class QdEmitter : std::uint8_t { kernel, iso_line, cma_me, cma_mae };
inline constexpr Vocabulary<QdEmitter, 4> qd_emitter_words{{{
    {"kernel", QdEmitter::kernel},
    {"iso_line", QdEmitter::iso_line},
    {"cma_me", QdEmitter::cma_me},
    {"cma_mae", QdEmitter::cma_mae},
}}};

// The `qd` section of a config point, typed.
struct QdSettings {
  QdArchive archive = QdArchive::grid;
  std::int64_t bins = 20;             // grid: cells per measure unless `measures` says otherwise
  std::int64_t cells = 1000;          // cvt: cells; novelty: the most entries
  std::int64_t cvt_samples = 100000;  // cvt: the points their centroids are fitted to
  std::int64_t k_neighbors = 15;      // novelty: the neighbours a novelty is the mean over
  double novelty_threshold = 0.05;    // novelty: the least novelty of a new entry
  bool local_competition = true;      // novelty: a less novel candidate may replace its nearest
  std::int64_t init = 100;
  std::int64_t iterations = 100;
  std::int64_t batch = 100;
  QdEmitter emitter = QdEmitter::kernel;
  double mutation_rate = 0.05;
  double crossover_rate = 0;
  double iso_sigma = 0.01;         // iso_line: the isotropic step, a fraction of each gene's width
  double line_sigma = 0.2;         // iso_line: the step along the line between two elites
  std::int64_t emitters = 5;       // cma_*: CMA-ES emitters
  std::int64_t line_emitters = 0;  // cma_*: Iso+LineDD emitters beside them
  double sigma0 = 0.025;           // cma_*: initial step, a fraction of each gene's range
  double archive_learning_rate = 0.01;  // cma_mae: alpha
  double threshold_min = 0;             // cma_mae: every cell's threshold at the start
  double score_offset = 0;
  std::int64_t ranks_per_task = 0;
  ParamTable measures;  // per-measure overrides: {NAME: {bins: N, range: [low, high]}}

  // cma_*: the candidates each emitter breeds a round, CMA-ES or Iso+LineDD alike.
  [[nodiscard]] std::int64_t per_emitter() const { return batch / (emitters + line_emitters); }
  // cma_*: the first of a round's candidates, the CMA-ES emitters'; the line emitters' follow.
  [[nodiscard]] std::int64_t cma_candidates() const { return emitters * per_emitter(); }

  // Evaluations of one uninterrupted task.
  [[nodiscard]] std::uint64_t evaluations() const {
    return static_cast<std::uint64_t>(init) +
           static_cast<std::uint64_t>(iterations) * static_cast<std::uint64_t>(batch);
  }

  static QdSettings from(const ParamSet& section);
};

// One axis of the archive's grid.
struct MeasureAxis {
  std::string name;
  double low = 0;
  double high = 1;
  std::int64_t bins = 1;

  // The bin of `value`: values below `low` go to the first, at or above `high` to the last.
  [[nodiscard]] std::int64_t bin(double value) const;
  // `value` with the range scaled to [0, 1] (CVT cells and novelty distances), and back.
  [[nodiscard]] double unit(double value) const { return (value - low) / (high - low); }
  [[nodiscard]] double from_unit(double unit) const { return low + unit * (high - low); }

  friend bool operator==(const MeasureAxis&, const MeasureAxis&) = default;
};

// The kernel's measures with the settings' bins and overrides. Throws KernelError naming the
// place for an override of a measure the kernel does not have, an empty range, or an archive
// of more than 2^24 cells.
std::vector<MeasureAxis> measure_axes(const QdSettings& settings,
                                      const std::vector<MeasureSpec>& measures);

// Cells of the archive: the product of the axes' bins.
std::uint64_t cell_count(const std::vector<MeasureAxis>& axes);

// The grid cell of `measures` (row-major over the axes, the last varying fastest).
std::int64_t cell_of(const std::vector<MeasureAxis>& axes, std::span<const double> measures);

}  // namespace levelforge
