#pragma once
// The `tiltmaze` kernel (docs/tiltmaze.md): random tilt mazes measured for solvability
// and optimal solution length (sweep), mazes evolved toward a wanted optimal length (ga),
// and every 4 x 4 maze enumerated (exhaustive).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/tiltmaze/analysis.hpp"
#include "kernels/tiltmaze/generation.hpp"
#include "kernels/tiltmaze/maze.hpp"

namespace levelforge::kernels {

class TiltMaze {
 public:
  using Genome = tiltmaze::Maze;

  static constexpr std::string_view name = "tiltmaze";
  static constexpr std::string_view summary =
      "tilt mazes: solvability by SCC + 2-SAT, shortest solutions, all 4 x 4 mazes";
  static constexpr Capabilities capabilities{
      Capability::ga,         Capability::render_level, Capability::measures,   Capability::sweep,
      Capability::exhaustive, Capability::visit_range,  Capability::top_record, Capability::puzzle,
      Capability::summary,    Capability::simd,         Capability::objectives};

  static std::vector<ParamSpec> parameters();
  explicit TiltMaze(const ParamSet& params);

  // ga driver: fitness -|optimal length - target_length|; an unsolvable maze scores below
  // every solvable one.
  static std::vector<FieldSpec> evaluation_fields();
  [[nodiscard]] std::size_t genome_length() const;
  Genome random_genome(Rng& rng) const;
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const;
  void mutate(Genome& genome, double rate, Rng& rng) const;
  Evaluation evaluate(const Genome& genome, Rng& rng) const;
  void encode(const Genome& genome, std::span<std::int64_t> out) const;
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const;
  // The maze drawn in the text form, one ASCII code per character: (2H+1) x (2W+1).
  [[nodiscard]] std::vector<std::size_t> level_shape() const;
  void render_level(const Genome& genome, std::span<std::uint8_t> out) const;

  // qd driver: the optimal solution length (-1, below the range, for an unsolvable maze) and
  // the fraction of the inner walls present (docs/tiltmaze.md, "Measures").
  [[nodiscard]] std::vector<MeasureSpec> measures() const;
  // NSGA-II (docs/tiltmaze.md, "Two objectives"): the fitness against the resting cells.
  [[nodiscard]] std::vector<ObjectiveSpec> objectives() const;
  [[nodiscard]] std::vector<double> measure(const Genome& genome,
                                            const Evaluation& evaluation) const;

  // sweep driver: one random maze per task.
  static std::vector<FieldSpec> record_fields();
  Record run(Rng& rng) const;

  // exhaustive driver: the 2^24 wall configurations of a 4 x 4 maze, start top-left
  // (tiltmaze/four_by_four.hpp has the index layout).
  enum Reduction : std::size_t {
    evaluated,
    configurations,
    self_symmetric,
    reachable_histogram,
    components_histogram,
    distance_histogram,
    hardest,
    pair_length_histogram,
    hardest_pair,
    walls_distance_histogram,
  };
  // walls_distance: the distance histogram per inner wall count, flattened (walls x
  // distance_slots + distance): the ground truth of what a 4 x 4 maze of given walls can ask.
  static constexpr std::size_t distance_slots = 16;
  static constexpr std::size_t wall_places = 24;
  static std::vector<ReductionSpec> reductions();
  static std::vector<FieldSpec> solution_fields();
  [[nodiscard]] std::uint64_t index_count() const;
  void visit(std::uint64_t index, Reductions& out) const;
  void visit_range(std::uint64_t begin, std::uint64_t end, Reductions& out) const;
  // The record of a kept hardest or hardest_pair entry: the sweep offers scores alone.
  [[nodiscard]] Record top_record(std::size_t id, std::uint64_t index) const;

  // puzzle: one maze file (docs/tiltmaze.md) decided, solved and reported in either collect
  // mode (tiltmaze_puzzle.cpp).
  using Puzzle = tiltmaze::Maze;
  using PuzzleAnswer = tiltmaze::MazeAnalysis;
  static PuzzleInfo puzzle_info();
  static std::vector<ParamSpec> solve_options();
  static Puzzle parse_puzzle(std::string_view text, const std::string& source);
  static PuzzleAnswer solve_puzzle(const Puzzle& maze, const ParamSet& options);
  static std::string check_answer(const Puzzle& maze, const ParamSet& options,
                                  const PuzzleAnswer& answer);
  static Report report(const Puzzle& maze, const PuzzleAnswer& answer, const std::string& source);
  static std::string draw_puzzle(const Puzzle& maze, const std::string& source);

  // summary: what `inspect` says of a run (tiltmaze_summary.cpp).
  static std::vector<std::string> summarize(const ResultTables& results);

  // The exhaustive driver's 4 x 4 summaries run in SIMD lanes (four_by_four.hpp); everything
  // else is the scalar solver.
  static std::string simd_paths();
  static std::string simd_path(const ParamSet& params);

  // Moves targets that the placement does not allow (repeated, on the start, or off the
  // resting cells) to free allowed cells, keeping as many as the maze has room for.
  void repair(Genome& genome, Rng& rng) const;

 private:
  [[nodiscard]] Record measure(const tiltmaze::Maze& maze) const;

  // The exhaustive driver's space: 4 x 4, started in the corner, stop mode.
  [[nodiscard]] bool enumerable() const;
  tiltmaze::GenerationSpec generation_;
  tiltmaze::Collect collect_;
  std::int64_t target_length_;
  bool pairs_;
  bool reflection_;
};

static_assert(capabilities_hold<TiltMaze>());

}  // namespace levelforge::kernels
