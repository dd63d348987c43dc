#pragma once
// Sliding-tile puzzles (the 8-puzzle and its smaller boards) as levels: a level is the board
// that a sequence of blank moves makes of the solved one, and its difficulty is the fewest
// moves that solve it, read from a table of every reachable board built once per kernel.
//
// ga:    evolve the move sequence towards boards of a wanted difficulty (`target`);
// sweep: scramble with uniform random moves and record how hard the boards come out.

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"

namespace tiles {

using levelforge::Capabilities;
using levelforge::Capability;

class SlidingTiles {
 public:
  static constexpr std::string_view name = "sliding_tiles";
  static constexpr std::string_view summary =
      "sliding-tile boards scrambled by blank moves, scored by their fewest solving moves";
  static constexpr Capabilities capabilities{Capability::ga, Capability::sweep};

  // The blank's moves, one gene each; a move off the board leaves it where it is.
  enum Move : std::uint8_t { up, down, left, right };
  using Genome = std::vector<std::uint8_t>;
  // Cell i holds tile board[i]; 0 is the blank. Solved: 1, 2, ..., cells - 1, then the blank.
  using Board = std::vector<std::uint8_t>;

  static std::vector<levelforge::ParamSpec> parameters();
  explicit SlidingTiles(const levelforge::ParamSet& params);

  // The board the moves make of the solved one, and how many of them moved the blank.
  [[nodiscard]] std::pair<Board, std::int64_t> play(const Genome& moves) const;
  // The fewest moves that solve `board`, which must be reachable from the solved board.
  [[nodiscard]] int distance(const Board& board) const;
  [[nodiscard]] std::size_t reachable_boards() const { return distance_.size(); }
  [[nodiscard]] int hardest() const { return hardest_; }

  // ga
  static std::vector<levelforge::FieldSpec> evaluation_fields();
  [[nodiscard]] std::size_t genome_length() const { return moves_; }
  Genome random_genome(levelforge::Rng& rng) const;
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, levelforge::Rng& rng) const;
  void mutate(Genome& genome, double rate, levelforge::Rng& rng) const;
  levelforge::Evaluation evaluate(const Genome& genome, levelforge::Rng& rng) const;
  void encode(const Genome& genome, std::span<std::int64_t> out) const;
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const;

  // sweep
  static std::vector<levelforge::FieldSpec> record_fields();
  levelforge::Record run(levelforge::Rng& rng) const;

 private:
  [[nodiscard]] Board solved() const;
  [[nodiscard]] std::uint64_t key(const Board& board) const;
  // The cell the blank moves to from `blank`, or `blank` itself when the move leaves the board.
  [[nodiscard]] int step(int blank, std::uint8_t move) const;

  int rows_;
  int columns_;
  std::size_t moves_;
  int target_;
  std::unordered_map<std::uint64_t, std::uint8_t> distance_;  // every reachable board
  int hardest_ = 0;
};

static_assert(levelforge::capabilities_hold<SlidingTiles>());

}  // namespace tiles
