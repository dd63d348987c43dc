#include "sliding_tiles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <stdexcept>
#include <string>

#include "kernels/api/crossover.hpp"

namespace tiles {

using levelforge::ParamSet;
using levelforge::Rng;

std::vector<levelforge::ParamSpec> SlidingTiles::parameters() {
  return {
      levelforge::int_param("rows", 3, 2, 3, "rows of the board"),
      levelforge::int_param("columns", 3, 2, 3, "columns of the board"),
      levelforge::int_param("moves", 60, 1, 10'000, "blank moves in a level's scramble"),
      levelforge::int_param("target", 20, 0, 31, "ga: the wanted fewest solving moves"),
  };
}

SlidingTiles::SlidingTiles(const ParamSet& params)
    : rows_(static_cast<int>(params.integer("rows"))),
      columns_(static_cast<int>(params.integer("columns"))),
      moves_(static_cast<std::size_t>(params.integer("moves"))),
      target_(static_cast<int>(params.integer("target"))) {
  // Breadth-first from the solved board over blank moves: at most 9!/2 = 181,440 boards.
  std::deque<Board> frontier{solved()};
  distance_.emplace(key(frontier.front()), 0);
  while (!frontier.empty()) {
    Board board = std::move(frontier.front());
    frontier.pop_front();
    const int here = distance_.at(key(board));
    hardest_ = std::max(hardest_, here);
    const auto blank = static_cast<int>(std::find(board.begin(), board.end(), 0) - board.begin());
    for (std::uint8_t move = up; move <= right; ++move) {
      const int next = step(blank, move);
      if (next == blank) continue;
      Board neighbour = board;
      std::swap(neighbour[static_cast<std::size_t>(blank)],
                neighbour[static_cast<std::size_t>(next)]);
      if (distance_.emplace(key(neighbour), static_cast<std::uint8_t>(here + 1)).second)
        frontier.push_back(std::move(neighbour));
    }
  }
}

SlidingTiles::Board SlidingTiles::solved() const {
  Board board(static_cast<std::size_t>(rows_ * columns_));
  for (std::size_t i = 0; i + 1 < board.size(); ++i) board[i] = static_cast<std::uint8_t>(i + 1);
  return board;
}

std::uint64_t SlidingTiles::key(const Board& board) const {
  std::uint64_t packed = 0;
  for (const auto tile : board) packed = packed << 4U | tile;
  return packed;
}

int SlidingTiles::step(int blank, std::uint8_t move) const {
  const int row = blank / columns_;
  const int column = blank % columns_;
  switch (move) {
    case up: return row > 0 ? blank - columns_ : blank;
    case down: return row + 1 < rows_ ? blank + columns_ : blank;
    case left: return column > 0 ? blank - 1 : blank;
    default: return column + 1 < columns_ ? blank + 1 : blank;
  }
}

std::pair<SlidingTiles::Board, std::int64_t> SlidingTiles::play(const Genome& moves) const {
  Board board = solved();
  int blank = rows_ * columns_ - 1;
  std::int64_t moved = 0;
  for (const auto move : moves) {
    const int next = step(blank, move);
    if (next == blank) continue;
    std::swap(board[static_cast<std::size_t>(blank)], board[static_cast<std::size_t>(next)]);
    blank = next;
    ++moved;
  }
  return {std::move(board), moved};
}

int SlidingTiles::distance(const Board& board) const {
  const auto found = distance_.find(key(board));
  if (found == distance_.end()) throw std::invalid_argument("a board no blank moves can make");
  return found->second;
}

std::vector<levelforge::FieldSpec> SlidingTiles::evaluation_fields() {
  return {levelforge::int_field("distance", "fewest moves that solve the board"),
          levelforge::int_field("moved", "scramble moves that moved the blank")};
}

SlidingTiles::Genome SlidingTiles::random_genome(Rng& rng) const {
  Genome genome(moves_);
  for (auto& move : genome) move = static_cast<std::uint8_t>(rng.below(4));
  return genome;
}

std::pair<SlidingTiles::Genome, SlidingTiles::Genome> SlidingTiles::crossover(const Genome& a,
                                                                              const Genome& b,
                                                                              Rng& rng) const {
  return levelforge::one_point_crossover(a, b, rng);
}

void SlidingTiles::mutate(Genome& genome, double rate, Rng& rng) const {
  for (auto& move : genome) {
    if (rng.bernoulli(rate)) move = static_cast<std::uint8_t>(rng.below(4));
  }
}

// 1 at the target difficulty, falling linearly to 0 at the farthest possible miss.
levelforge::Evaluation SlidingTiles::evaluate(const Genome& genome, Rng& /*rng*/) const {
  const auto [board, moved] = play(genome);
  const int found = distance(board);
  const int worst = std::max(target_, hardest_ - target_);
  const double fitness =
      worst == 0 ? 1.0 : 1.0 - std::abs(found - target_) / static_cast<double>(worst);
  return {fitness, {std::int64_t{found}, moved}};
}

void SlidingTiles::encode(const Genome& genome, std::span<std::int64_t> out) const {
  std::copy(genome.begin(), genome.end(), out.begin());
}

SlidingTiles::Genome SlidingTiles::decode(std::span<const std::int64_t> stored) const {
  Genome genome(stored.size());
  std::transform(stored.begin(), stored.end(), genome.begin(),
                 [](std::int64_t move) { return static_cast<std::uint8_t>(move & 3); });
  return genome;
}

std::vector<levelforge::FieldSpec> SlidingTiles::record_fields() {
  return {levelforge::int_field("distance", "fewest moves that solve the scrambled board"),
          levelforge::int_field("moved", "scramble moves that moved the blank")};
}

levelforge::Record SlidingTiles::run(Rng& rng) const {
  const auto [board, moved] = play(random_genome(rng));
  return {std::int64_t{distance(board)}, moved};
}

}  // namespace tiles
