#pragma once
// The `match3` kernel: Park & Oh's Match-3 level generation by GA (docs/match3.md).
// A genome is either the paper's 32-bit seed gene or a direct grid of colors; its fitness
// is how close the board's success probability, estimated from random playouts, comes to
// a target.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/match3/evaluation.hpp"
#include "kernels/match3/rules.hpp"

namespace levelforge::kernels {

class Match3 {
 public:
  enum class Encoding { seed, grid };
  enum class Estimator { normal, empirical };

  // A seed genome uses only `gene`; a grid genome only `colors`.
  struct Genome {
    std::uint32_t gene = 0;
    std::vector<std::uint8_t> colors;
  };

  static constexpr std::string_view name = "match3";
  static constexpr std::string_view summary =
      "Match-3 boards evolved to a target success probability (Park & Oh 2019)";
  static constexpr Capabilities capabilities{Capability::ga,           Capability::validate,
                                             Capability::render_level, Capability::measures,
                                             Capability::sweep,        Capability::memory_estimate,
                                             Capability::simd,         Capability::objectives};

  static std::vector<ParamSpec> parameters();
  explicit Match3(const ParamSet& params);
  // A measurement keeps a seed and a score per playout (play_scores): 16 bytes times
  // params.playouts, or params.validation_playouts when the ga driver re-measures the best.
  static MemoryEstimate memory_estimate(const ParamSet& params);

  // ga driver
  static std::vector<FieldSpec> evaluation_fields();
  [[nodiscard]] std::size_t genome_length() const;
  Genome random_genome(Rng& rng) const;
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const;
  void mutate(Genome& genome, double rate, Rng& rng) const;
  Evaluation evaluate(const Genome& genome, Rng& rng) const;
  void encode(const Genome& genome, std::span<std::int64_t> out) const;
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const;

  // The final best boards are re-measured with fresh playouts (the winner's curse).
  static std::vector<FieldSpec> validation_fields();
  Record validate(const Genome& genome, Rng& rng) const;

  // The board before play: height x width colors, 255 for an empty cell.
  [[nodiscard]] std::vector<std::size_t> level_shape() const;
  void render_level(const Genome& genome, std::span<std::uint8_t> out) const;

  // qd driver: the success probability p by the run's estimator (the one the fitness used,
  // from the evaluation) and the fraction of empty cells of the board before play.
  [[nodiscard]] std::vector<MeasureSpec> measures() const;
  // NSGA-II (docs/match3.md, "Two objectives"): the fitness against the mean score.
  [[nodiscard]] std::vector<ObjectiveSpec> objectives() const;
  [[nodiscard]] std::vector<double> measure(const Genome& genome,
                                            const Evaluation& evaluation) const;

  // sweep driver: evaluates the board of params.gene.
  static std::vector<FieldSpec> record_fields();
  Record run(Rng& rng) const;

  [[nodiscard]] match3::Board board(const Genome& genome) const;

  // Playouts in lock-step SIMD lanes where fast::plays_lockstep (AVX-512, the random player,
  // no_match: undo, score_per: move), else the bitboard kernel, one playout at a time.
  static std::string simd_paths();
  static std::string simd_path(const ParamSet& params);

 private:
  [[nodiscard]] match3::PlayoutStats play(const match3::Board& board, std::int64_t playouts,
                                          Rng& rng) const;
  [[nodiscard]] double fitness(const match3::PlayoutStats& stats) const;

  match3::Rules rules_;
  match3::InitialRuns initial_runs_;
  Encoding encoding_;
  Estimator estimator_;
  std::int64_t playouts_;
  std::int64_t validation_playouts_;
  double threshold_;
  double target_;
  std::uint32_t gene_;
  std::vector<double> score_table_;
};

static_assert(capabilities_hold<Match3>());

}  // namespace levelforge::kernels
