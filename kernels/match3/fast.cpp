#include "kernels/match3/fast.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/match3/bitboard.hpp"
#include "kernels/match3/lockstep.hpp"

namespace levelforge::match3::fast {

namespace {

using u64 = std::uint64_t;

template <std::size_t N>
using Bits = bitboard::Bits<u64, N>;
template <std::size_t N>
using State = bitboard::State<u64, N>;
using bitboard::shl;

template <std::size_t N>
class Kernel {
 public:
  Kernel(const Board& start, const Rules& rules, const std::vector<double>& table)
      : rules_(rules),
        table_(table),
        width_(start.width),
        height_(start.height),
        cells_(start.width * start.height),
        colors_(rules.colors),
        stride_(static_cast<unsigned>(start.width + 1)),
        shape_{start.width, start.height, rules.colors, stride_},
        keep_(rules.no_match == NoMatch::keep),
        refill_(rules.refill == Refill::random),
        per_wave_(rules.score_per == ScorePer::wave) {
    for (int cell = 0; cell < cells_; ++cell) {
      const auto bit = static_cast<unsigned>(cell + cell / width_);
      bit_of_[static_cast<std::size_t>(cell)] = static_cast<std::uint16_t>(bit);
      inside_.set(bit);
      const auto color = start.cells[static_cast<std::size_t>(cell)];
      if (color == empty_cell) continue;
      start_.color[color].set(bit);
      start_.filled.set(bit);
    }
    update_movable(start_);
  }

  [[nodiscard]] double play(u64 seed) const {
    State<N> s = start_;
    PlayoutStream stream(seed);
    return rules_.player == Player::greedy ? play_greedy(s, stream) : play_random(s, stream);
  }

 private:
  // What a move removing `removed` blocks scores: the table, or past its end (long
  // Refill::random cascades) the power computed as the reference computes it.
  [[nodiscard]] double points(int removed) const { return move_score(table_, removed); }

  // ---- board operations (bitboard.hpp) ------------------------------------------------

  void update_movable(State<N>& s) const { shape_.update_movable(s); }
  [[nodiscard]] bool has_moves(const State<N>& s) const { return shape_.moves_left(s) != 0; }

  // What a cascade removed, and what that scores under rules.score_per.
  struct Removal {
    int blocks = 0;
    double points = 0;
  };

  // Removes runs, lets blocks fall (and refills when `stream` is given) until no run is
  // left. The movable masks are left stale.
  Removal cascade(State<N>& s, PlayoutStream* stream) const {
    Removal removal;
    for (;;) {
      const Bits<N> run = shape_.runs(s);
      if (!run.any()) break;
      const int wave = run.count();
      removal.blocks += wave;
      if (per_wave_) removal.points += points(wave);
      shape_.remove(s, run);
      shape_.gravity(s, inside_);
      if (stream != nullptr) shape_.refill(s, *stream);
    }
    if (!per_wave_ && removal.blocks > 0) removal.points = points(removal.blocks);
    return removal;
  }

  [[nodiscard]] int color_at(const State<N>& s, unsigned bit) const {
    for (int c = 0; c < colors_; ++c) {
      if (s.color[static_cast<std::size_t>(c)].test(bit)) return c;
    }
    return -1;
  }

  [[nodiscard]] unsigned neighbour(unsigned bit, int direction) const {
    switch (direction) {
      case up: return bit - stride_;
      case down: return bit + stride_;
      case left: return bit - 1;
      default: return bit + 1;
    }
  }

  // Swaps the blocks of cells p and q (no branch on their colors).
  void swap_cells(State<N>& s, unsigned p, unsigned q) const {
    for (int c = 0; c < colors_; ++c) {
      auto& m = s.color[static_cast<std::size_t>(c)];
      const u64 differ = (m.w[p / 64] >> (p % 64) ^ m.w[q / 64] >> (q % 64)) & 1U;
      m.w[p / 64] ^= differ << (p % 64);
      m.w[q / 64] ^= differ << (q % 64);
    }
  }

  // A swap known to make a run: swap, cascade (refilling from `stream` with
  // Refill::random), recompute the movable masks; returns what the move scores.
  [[gnu::noinline]] double play_match(State<N>& s, unsigned p, int direction,
                                      PlayoutStream& stream) const {
    const unsigned q = neighbour(p, direction);
    swap_cells(s, p, q);
    const double gained = cascade(s, refill_ ? &stream : nullptr).points;
    update_movable(s);
    return gained;
  }

  // A move that makes no run: with NoMatch::keep an allowed swap (inside the board, two
  // blocks of different colors) stays swapped.
  void play_no_match(State<N>& s, int cell, int direction) const {
    if (!keep_) return;
    const int row = cell / width_;
    const int column = cell % width_;
    if ((direction == up && row == 0) || (direction == down && row == height_ - 1) ||
        (direction == left && column == 0) || (direction == right && column == width_ - 1)) {
      return;
    }
    const unsigned p = bit_of_[static_cast<std::size_t>(cell)];
    const unsigned q = neighbour(p, direction);
    const int a = color_at(s, p);
    const int b = color_at(s, q);
    if (a < 0 || b < 0 || a == b) return;
    swap_cells(s, p, q);
    update_movable(s);
  }

  // One random move (the random player's, and the greedy player's when nothing scores);
  // returns what it scores.
  double random_move(State<N>& s, PlayoutStream& stream) const {
    const auto drawn = draw_move(stream(), cells_);
    const unsigned p = bit_of_[static_cast<std::size_t>(drawn.cell)];
    if (s.movable[static_cast<std::size_t>(drawn.direction)].test(p)) {
      return play_match(s, p, drawn.direction, stream);
    }
    play_no_match(s, drawn.cell, drawn.direction);
    return 0;
  }

  double play_random(State<N>& s, PlayoutStream& stream) const {
    double score = 0;
    if (keep_) {
      for (int move = 0; move < rules_.moves; ++move) score += random_move(s, stream);
      return score;
    }
    // The hot loop. With NoMatch::undo a move that makes no run changes nothing, and a
    // board without a matching move never changes again.
    if (!has_moves(s)) return score;
    PlayoutStream rng = stream;  // a copy whose address never escapes: kept in a register
    const int cells = cells_;
    const int moves = rules_.moves;
    for (int move = 0; move < moves; ++move) {
      const u64 x = rng();
      const unsigned p = bit_of_[static_cast<std::size_t>(draw_choice(x, cells))];
      const auto direction = static_cast<std::size_t>(x >> 62U);
      if (!s.movable[direction].test(p)) [[likely]]
        continue;
      PlayoutStream refill_stream = rng;
      score += play_match(s, p, static_cast<int>(direction), refill_stream);
      rng = refill_stream;
      if (!has_moves(s)) break;
    }
    return score;
  }

  // Blocks the swap would remove, cascades included, without refilling.
  [[nodiscard]] int lookahead(const State<N>& s, unsigned p, int direction) const {
    State<N> copy = s;
    const unsigned q = neighbour(p, direction);
    swap_cells(copy, p, q);
    return cascade(copy, nullptr).blocks;
  }

  double play_greedy(State<N>& s, PlayoutStream& stream) const {
    double score = 0;
    std::vector<std::pair<unsigned, int>> ties;
    for (int move = 0; move < rules_.moves; ++move) {
      if (!keep_ && !has_moves(s)) break;
      // The swaps that score are exactly the movable ones; bit order is reading order.
      int best = 0;
      ties.clear();
      const Bits<N> candidates = s.movable[right] | s.movable[down];
      for (std::size_t word = 0; word < N; ++word) {
        for (u64 bits = candidates.w[word]; bits != 0; bits &= bits - 1) {
          const auto p =
              static_cast<unsigned>(word * 64) + static_cast<unsigned>(__builtin_ctzll(bits));
          for (const int direction : {static_cast<int>(right), static_cast<int>(down)}) {
            if (!s.movable[static_cast<std::size_t>(direction)].test(p)) continue;
            const int removed = lookahead(s, p, direction);
            if (removed < best) continue;
            if (removed > best) {
              best = removed;
              ties.clear();
            }
            ties.emplace_back(p, direction);
          }
        }
      }
      if (ties.empty()) {
        score += random_move(s, stream);
      } else {
        const auto [p, direction] =
            ties[static_cast<std::size_t>(draw_choice(stream(), static_cast<int>(ties.size())))];
        score += play_match(s, p, direction, stream);
      }
    }
    return score;
  }

  const Rules& rules_;
  const std::vector<double>& table_;
  int width_;
  int height_;
  int cells_;
  int colors_;
  unsigned stride_;
  bitboard::Shape shape_;
  bool keep_;
  bool refill_;
  bool per_wave_;
  std::array<std::uint16_t, max_side * max_side> bit_of_{};  // reading-order cell -> bit
  Bits<N> inside_;
  State<N> start_;
};

template <std::size_t N>
void play_all(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
              const std::vector<double>& score_table, std::span<double> scores) {
  const Kernel<N> kernel(start, rules, score_table);
  for (std::size_t i = 0; i < seeds.size(); ++i) scores[i] = kernel.play(seeds[i]);
}

void check(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
           const std::vector<double>& score_table, std::span<double> scores) {
  if (scores.size() != seeds.size()) {
    throw std::invalid_argument("match3::fast::play_many: one score per seed");
  }
  const bool sides =
      start.width >= 1 && start.width <= max_side && start.height >= 1 && start.height <= max_side;
  if (!sides || start.cells.size() != static_cast<std::size_t>(start.width) *
                                          static_cast<std::size_t>(start.height)) {
    throw std::invalid_argument("match3::fast: the board must be 1..16 x 1..16 cells");
  }
  if (rules.colors < 1 || rules.colors > max_colors) {
    throw std::invalid_argument("match3::fast: colors must be 1..8");
  }
  for (const auto cell : start.cells) {
    if (cell != empty_cell && cell >= rules.colors) {
      throw std::invalid_argument("match3::fast: a cell's color is not below `colors`");
    }
  }
  if (score_table.size() < start.cells.size() + 1) {
    throw std::invalid_argument("match3::fast: the score table needs width * height + 1 entries");
  }
}

}  // namespace

void play_many_bitboard(const Board& start, const Rules& rules,
                        std::span<const std::uint64_t> seeds,
                        const std::vector<double>& score_table, std::span<double> scores) {
  check(start, rules, seeds, score_table, scores);
  const int bits = start.height * (start.width + 1);
  switch ((bits + 63) / 64) {
    case 1: return play_all<1>(start, rules, seeds, score_table, scores);
    case 2: return play_all<2>(start, rules, seeds, score_table, scores);
    case 3: return play_all<3>(start, rules, seeds, score_table, scores);
    case 4: return play_all<4>(start, rules, seeds, score_table, scores);
    default: return play_all<5>(start, rules, seeds, score_table, scores);
  }
}

bool plays_lockstep(const Rules& rules) {
  // Lock-step beats the bitboard kernel clearly only on AVX-512 (`run_benchmarks.py --only
  // match3`, bench/RESULTS.md); the bitboard kernel keeps every other CPU and rule set.
  static const Isa isa = best_isa();
  return isa == Isa::avx512 && lockstep::plays(rules);
}

void play_many(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
               const std::vector<double>& score_table, std::span<double> scores) {
  if (!plays_lockstep(rules)) return play_many_bitboard(start, rules, seeds, score_table, scores);
  check(start, rules, seeds, score_table, scores);
  lockstep::play_many(start, rules, seeds, score_table, scores, Isa::avx512);
}

double play(const Board& start, const Rules& rules, std::uint64_t seed,
            const std::vector<double>& score_table) {
  double score = 0;
  play_many(start, rules, std::span<const std::uint64_t>(&seed, 1), score_table,
            std::span<double>(&score, 1));
  return score;
}

}  // namespace levelforge::match3::fast
