#pragma once
// Match-3 rules shared by the scalar reference and the bitboard playout kernel
// (docs/match3.md is the normative description; both implementations follow it and the
// tests hold them equal).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace levelforge::match3 {

inline constexpr std::uint8_t empty_cell = 255;
inline constexpr int max_side = 16;
inline constexpr int max_colors = 8;

enum class NoMatch { undo, keep };
enum class Refill { none, random };
enum class Player { random, greedy };
enum class InitialRuns { resolve, keep, reroll };
// What one score_base^k is paid for: k the blocks a move removes, its cascades included, or
// k the blocks of one wave of the cascade, the move's waves summed (docs/match3.md).
enum class ScorePer { move, wave };
enum Direction : int { up = 0, down = 1, left = 2, right = 3 };

struct Rules {
  int width = 5;
  int height = 10;
  int colors = 5;
  NoMatch no_match = NoMatch::undo;
  Refill refill = Refill::none;
  Player player = Player::random;
  int moves = 100;
  double score_base = 1.5;
  ScorePer score_per = ScorePer::move;
};

// Cells row by row from the top: cells[row * width + column], empty_cell for none.
struct Board {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> cells;

  [[nodiscard]] std::size_t index(int row, int column) const {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(width) +
           static_cast<std::size_t>(column);
  }
  [[nodiscard]] std::uint8_t at(int row, int column) const { return cells[index(row, column)]; }
  std::uint8_t& at(int row, int column) { return cells[index(row, column)]; }
  friend bool operator==(const Board&, const Board&) = default;
};

// score_base^k for k = 0 .. cells, so both implementations add identical values.
std::vector<double> score_table(const Rules& rules);

// What a move removing k blocks scores. With refill: random cascades can remove more
// blocks than the board has cells; past the table the power is computed.
inline double move_score(const std::vector<double>& table, int k) {
  const auto index = static_cast<std::size_t>(k);
  if (index < table.size()) return table[index];
  return table.back() * std::pow(table[1], static_cast<double>(index - (table.size() - 1)));
}

// SplitMix64: the documented generator that colors a board from its 32-bit gene.
class GeneStream {
 public:
  explicit GeneStream(std::uint32_t gene) : state_(gene) {}
  std::uint64_t operator()() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }

 private:
  std::uint64_t state_;
};

// wyrand: the documented per-playout generator (one multiply per draw), seeded from the
// evaluation's counter-based stream.
class PlayoutStream {
 public:
  static constexpr std::uint64_t increment = 0xa0761d6478bd642fULL;
  static constexpr std::uint64_t mix = 0xe7037ed1a0b428dbULL;

  explicit PlayoutStream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t operator()() {
    state_ += increment;
    __extension__ using Wide = unsigned __int128;
    const Wide product = static_cast<Wide>(state_) * (state_ ^ mix);
    return static_cast<std::uint64_t>(product >> 64U) ^ static_cast<std::uint64_t>(product);
  }
  // Where the stream stands: PlayoutStream(state()) continues it (the lock-step kernel
  // keeps eight of them in a vector).
  [[nodiscard]] std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

// Uniform choice among `count` options from one draw: multiply-shift on its low 32 bits.
// A random move takes its cell that way and its direction from the top two bits.
struct MoveDraw {
  int cell;
  Direction direction;
};
inline int draw_choice(std::uint64_t draw, int count) {
  constexpr std::uint64_t low_bits = 0xffffffffU;
  return static_cast<int>(((draw & low_bits) * static_cast<std::uint64_t>(count)) >> 32U);
}

inline MoveDraw draw_move(std::uint64_t draw, int cells) {
  return {draw_choice(draw, cells), static_cast<Direction>(draw >> 62U)};
}

// The board a gene produces, with `initial_runs` applied.
Board board_from_gene(std::uint32_t gene, const Rules& rules, InitialRuns initial_runs);
// A board from explicit colors (the grid genome), with `initial_runs` applied; `reroll`
// redraws run-forming cells from a stream seeded by `reroll_seed`.
Board board_from_colors(std::vector<std::uint8_t> colors, const Rules& rules,
                        InitialRuns initial_runs, std::uint32_t reroll_seed);

}  // namespace levelforge::match3
