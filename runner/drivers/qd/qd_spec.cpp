#include "runner/drivers/qd/qd_spec.hpp"

namespace levelforge {

std::vector<ParamSpec> QdSpec::settings() {
  constexpr double big = 1e300;
  return {
      choice_param("archive", qd_archive_words,
                   "the archive's cells: a grid over the measures, a centroidal Voronoi "
                   "tessellation (CVT) of qd.cells cells, or a novelty archive of up to "
                   "qd.cells entries"),
      int_param("bins", 20, 1, 1 << 20, "grid: cells per measure (qd.measures may say otherwise)"),
      table_param("measures",
                  "per-measure overrides, {NAME: {bins: N, range: [low, high]}}; a measure "
                  "not named keeps qd.bins and the kernel's range"),
      int_param("cells", 1000, 1, 100'000,
                "cvt: cells of the archive; novelty: the most entries it holds"),
      int_param("cvt_samples", 100'000, 1, 10'000'000,
                "cvt: random points of the measure box that k-means fits the centroids to, at "
                "least qd.cells"),
      int_param("k_neighbors", 15, 1, 100'000,
                "novelty: a candidate's novelty is its mean distance to this many nearest "
                "entries"),
      real_param("novelty_threshold", 0.05, 0.0, 1e6,
                 "novelty: the least novelty of a new entry, each measure's range taken as 1"),
      bool_param("local_competition", true,
                 "novelty: a candidate below the threshold replaces its nearest entry when "
                 "fitter"),
      int_param("init", 100, 1, 100'000'000, "random genomes evaluated first"),
      int_param("iterations", 100, 0, 100'000'000, "batches of offspring after the first"),
      int_param("batch", 100, 1, 100'000'000, "offspring per iteration"),
      choice_param("emitter", qd_emitter_words,
                   "how offspring are bred: the kernel's mutate (and crossover) of uniform "
                   "parents; for a kernel with a real genome iso_line (Iso+LineDD), cma_me or "
                   "cma_mae (CMA-ES emitters)"),
      real_param("mutation_rate", 0.05, 0.0, 1.0, "mutation rate passed to the kernel's mutate"),
      real_param("crossover_rate", 0.0, 0.0, 1.0,
                 "probability that an offspring is the kernel's crossover of two elites"),
      real_param("iso_sigma", 0.01, 0.0, 10.0,
                 "iso_line: the isotropic Gaussian step, a fraction of each gene's range"),
      real_param("line_sigma", 0.2, 0.0, 10.0,
                 "iso_line: the Gaussian step along the line from one elite to another"),
      int_param("emitters", 5, 1, 10'000,
                "cma_me, cma_mae: CMA-ES emitters, each breeding qd.batch / (qd.emitters + "
                "qd.line_emitters) offspring an iteration"),
      int_param("line_emitters", 0, 0, 10'000,
                "cma_me, cma_mae: Iso+LineDD emitters beside the CMA-ES ones, breeding as "
                "many offspring each, after them in the batch (docs/drivers.md, \"Emitter "
                "schedule\")"),
      real_param("sigma0", 0.025, 1e-9, 10.0,
                 "cma_me, cma_mae: an emitter's initial step, a fraction of each gene's range"),
      real_param("archive_learning_rate", 0.01, 0.0, 1.0,
                 "cma_mae: how far a cell's threshold moves toward a fitness that passes it"),
      real_param("threshold_min", 0.0, -big, big,
                 "cma_mae: every cell's threshold at the start (the lowest fitness that counts)"),
      real_param("score_offset", 0.0, -big, big,
                 "QD score: sum over occupied cells of (fitness - score_offset); set it below "
                 "every fitness"),
      int_param("ranks_per_task", 0, 0, 1'000'000,
                "ranks evaluating one task together (0: ranks / tasks, at least 1)"),
  };
}

}  // namespace levelforge
