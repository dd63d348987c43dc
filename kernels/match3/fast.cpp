#include "kernels/match3/fast.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace levelforge::match3::fast {

namespace {

using u64 = std::uint64_t;

// Without -mpopcnt __builtin_popcountll is a library call; this is a few inline operations.
inline int popcount(u64 x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  x -= (x >> 1U) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2U) & 0x3333333333333333ULL);
  x = (x + (x >> 4U)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56U);
#endif
}

// ---------------------------------------------------------------------------------------
// A bitset of N 64-bit words: bit b is bit b % 64 of word b / 64. Cell (row, column) of a
// board is bit row * stride + column with stride = width + 1: the extra (guard) column is
// never set, so a shift by one or two never carries a run from one row into the next.
// Every mask of the state keeps the bits outside the board clear.
template <std::size_t N>
struct Bits {
  std::array<u64, N> w{};

  friend Bits operator&(const Bits& a, const Bits& b) {
    Bits r;
    for (std::size_t i = 0; i < N; ++i) r.w[i] = a.w[i] & b.w[i];
    return r;
  }
  friend Bits operator|(const Bits& a, const Bits& b) {
    Bits r;
    for (std::size_t i = 0; i < N; ++i) r.w[i] = a.w[i] | b.w[i];
    return r;
  }
  friend Bits operator^(const Bits& a, const Bits& b) {
    Bits r;
    for (std::size_t i = 0; i < N; ++i) r.w[i] = a.w[i] ^ b.w[i];
    return r;
  }
  Bits& operator|=(const Bits& b) { return *this = *this | b; }
  Bits& operator&=(const Bits& b) { return *this = *this & b; }
  // a & ~b
  friend Bits andnot(const Bits& a, const Bits& b) {
    Bits r;
    for (std::size_t i = 0; i < N; ++i) r.w[i] = a.w[i] & ~b.w[i];
    return r;
  }
  [[nodiscard]] bool any() const {
    u64 x = 0;
    for (std::size_t i = 0; i < N; ++i) x |= w[i];
    return x != 0;
  }
  [[nodiscard]] bool test(unsigned bit) const {
    if constexpr (N == 1) return ((w[0] >> bit) & 1U) != 0;  // bit < 64
    return ((w[bit / 64] >> (bit % 64)) & 1U) != 0;
  }
  void flip(unsigned bit) { w[bit / 64] ^= u64{1} << (bit % 64); }
  void set(unsigned bit) { w[bit / 64] |= u64{1} << (bit % 64); }
  [[nodiscard]] int count() const {
    int n = 0;
    for (std::size_t i = 0; i < N; ++i) n += popcount(w[i]);
    return n;
  }
};

// a shifted towards higher bits (down a row for k = stride, right for k = 1), 0 < k < 64.
template <std::size_t N>
Bits<N> shl(const Bits<N>& a, unsigned k) {
  Bits<N> r;
  r.w[0] = a.w[0] << k;
  for (std::size_t i = 1; i < N; ++i) r.w[i] = (a.w[i] << k) | (a.w[i - 1] >> (64 - k));
  return r;
}

// a shifted towards lower bits (up a row for k = stride, left for k = 1), 0 < k < 64.
template <std::size_t N>
Bits<N> shr(const Bits<N>& a, unsigned k) {
  Bits<N> r;
  for (std::size_t i = 0; i + 1 < N; ++i) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << (64 - k));
  r.w[N - 1] = a.w[N - 1] >> k;
  return r;
}

// shr for any k >= 0 (whole words too).
template <std::size_t N>
Bits<N> shr_far(const Bits<N>& a, unsigned k) {
  const unsigned words = k / 64;
  const unsigned b = k % 64;
  Bits<N> r;
  for (std::size_t i = 0; i + words < N; ++i) {
    u64 v = a.w[i + words] >> b;
    if (b != 0 && i + words + 1 < N) v |= a.w[i + words + 1] << (64 - b);
    r.w[i] = v;
  }
  return r;
}

// ---------------------------------------------------------------------------------------
// One playout's board: a mask per color, the filled cells and, per Direction, the cells
// whose move in that direction makes a run through a swapped cell (the "movable" masks,
// kept in step with the colors by update_movable after every change).
template <std::size_t N>
struct State {
  std::array<Bits<N>, max_colors> color{};
  Bits<N> filled{};
  std::array<Bits<N>, 4> movable{};
};

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
        keep_(rules.no_match == NoMatch::keep),
        refill_(rules.refill == Refill::random) {
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

  // ---- board operations ----------------------------------------------------------------

  // A cell q that receives color X from its neighbour s (s has X, q has another color)
  // is in a run afterwards iff a pair of X cells completes a line of three through q
  // without using s: from the right, the pair to the left or any vertical pair; from
  // below, any horizontal pair or the pair above; and so on. A swap makes a run iff either
  // of its cells is in one.
  void update_movable(State<N>& s) const {
    const unsigned k1 = stride_;
    const unsigned k2 = 2 * stride_;
    Bits<N> from_right;
    Bits<N> from_left;
    Bits<N> from_below;
    Bits<N> from_above;
    for (int c = 0; c < colors_; ++c) {
      const Bits<N>& m = s.color[static_cast<std::size_t>(c)];
      const Bits<N> l1 = shl(m, 1);  // bit q: q - 1 has the color
      const Bits<N> l2 = shl(m, 2);
      const Bits<N> r1 = shr(m, 1);  // bit q: q + 1 has the color
      const Bits<N> r2 = shr(m, 2);
      const Bits<N> a1 = shl(m, k1);  // the cell above
      const Bits<N> a2 = shl(m, k2);
      const Bits<N> b1 = shr(m, k1);  // the cell below
      const Bits<N> b2 = shr(m, k2);
      const Bits<N> above_pair = a1 & a2;
      const Bits<N> below_pair = b1 & b2;
      const Bits<N> left_pair = l1 & l2;
      const Bits<N> right_pair = r1 & r2;
      const Bits<N> vertical = above_pair | (a1 & b1) | below_pair;
      const Bits<N> horizontal = left_pair | (l1 & r1) | right_pair;
      const Bits<N> other = andnot(s.filled, m);
      from_right |= other & r1 & (left_pair | vertical);
      from_left |= other & l1 & (right_pair | vertical);
      from_below |= other & b1 & (horizontal | above_pair);
      from_above |= other & a1 & (horizontal | below_pair);
    }
    s.movable[right] = from_right | shr(from_left, 1);
    s.movable[left] = from_left | shl(from_right, 1);
    s.movable[down] = from_below | shr(from_above, k1);
    s.movable[up] = from_above | shl(from_below, k1);
  }

  [[nodiscard]] bool has_moves(const State<N>& s) const {
    return (s.movable[right] | s.movable[down]).any();
  }

  // Cells of every run of >= 3 (rows and columns).
  [[nodiscard]] Bits<N> runs(const State<N>& s) const {
    const unsigned k1 = stride_;
    const unsigned k2 = 2 * stride_;
    Bits<N> run;
    for (int c = 0; c < colors_; ++c) {
      const Bits<N>& m = s.color[static_cast<std::size_t>(c)];
      const Bits<N> h = m & shr(m, 1) & shr(m, 2);
      const Bits<N> v = m & shr(m, k1) & shr(m, k2);
      run |= h | shl(h, 1) | shl(h, 2) | v | shl(v, k1) | shl(v, k2);
    }
    return run;
  }

  // Every block with an empty cell anywhere below it falls one row, until none has.
  void gravity(State<N>& s) const {
    for (;;) {
      Bits<N> below = shr(andnot(inside_, s.filled), stride_);  // bit q: q + stride empty
      for (int span = 1; span < height_ - 1; span *= 2) {
        below |= shr_far(below, static_cast<unsigned>(span) * stride_);
      }
      const Bits<N> fall = s.filled & below;
      if (!fall.any()) return;
      for (int c = 0; c < colors_; ++c) {
        Bits<N>& m = s.color[static_cast<std::size_t>(c)];
        const Bits<N> moving = m & fall;
        m = (m ^ moving) | shl(moving, stride_);
      }
      s.filled = (s.filled ^ fall) | shl(fall, stride_);
    }
  }

  // Columns left to right, each from the top down.
  void refill(State<N>& s, PlayoutStream& stream) const {
    for (int column = 0; column < width_; ++column) {
      for (int row = 0; row < height_; ++row) {
        const auto bit = static_cast<unsigned>(row) * stride_ + static_cast<unsigned>(column);
        if (s.filled.test(bit)) continue;
        const auto color = stream() % static_cast<u64>(colors_);
        s.color[static_cast<std::size_t>(color)].set(bit);
        s.filled.set(bit);
      }
    }
  }

  // Removes runs, lets blocks fall (and refills when `stream` is given) until no run is
  // left; returns the blocks removed. The movable masks are left stale.
  int cascade(State<N>& s, PlayoutStream* stream) const {
    int removed = 0;
    for (;;) {
      const Bits<N> run = runs(s);
      if (!run.any()) return removed;
      removed += run.count();
      for (int c = 0; c < colors_; ++c) {
        auto& m = s.color[static_cast<std::size_t>(c)];
        m = andnot(m, run);
      }
      s.filled = andnot(s.filled, run);
      gravity(s);
      if (stream != nullptr) refill(s, *stream);
    }
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
  // Refill::random), recompute the movable masks; returns the blocks removed.
  [[gnu::noinline]] int play_match(State<N>& s, unsigned p, int direction,
                                   PlayoutStream& stream) const {
    const unsigned q = neighbour(p, direction);
    swap_cells(s, p, q);
    const int removed = cascade(s, refill_ ? &stream : nullptr);
    update_movable(s);
    return removed;
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

  // One random move (the random player's, and the greedy player's when nothing scores).
  int random_move(State<N>& s, PlayoutStream& stream) const {
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
      for (int move = 0; move < rules_.moves; ++move) {
        const int removed = random_move(s, stream);
        if (removed > 0) score += points(removed);
      }
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
      score += points(play_match(s, p, static_cast<int>(direction), refill_stream));
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
    return cascade(copy, nullptr);
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
      int removed = 0;
      if (ties.empty()) {
        removed = random_move(s, stream);
      } else {
        const auto [p, direction] =
            ties[static_cast<std::size_t>(draw_choice(stream(), static_cast<int>(ties.size())))];
        removed = play_match(s, p, direction, stream);
      }
      if (removed > 0) score += points(removed);
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
  bool keep_;
  bool refill_;
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

void check(const Board& start, const Rules& rules, const std::vector<double>& score_table) {
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

void play_many(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
               const std::vector<double>& score_table, std::span<double> scores) {
  if (scores.size() != seeds.size()) {
    throw std::invalid_argument("match3::fast::play_many: one score per seed");
  }
  check(start, rules, score_table);
  const int bits = start.height * (start.width + 1);
  switch ((bits + 63) / 64) {
    case 1: return play_all<1>(start, rules, seeds, score_table, scores);
    case 2: return play_all<2>(start, rules, seeds, score_table, scores);
    case 3: return play_all<3>(start, rules, seeds, score_table, scores);
    case 4: return play_all<4>(start, rules, seeds, score_table, scores);
    default: return play_all<5>(start, rules, seeds, score_table, scores);
  }
}

double play(const Board& start, const Rules& rules, std::uint64_t seed,
            const std::vector<double>& score_table) {
  double score = 0;
  play_many(start, rules, std::span<const std::uint64_t>(&seed, 1), score_table,
            std::span<double>(&score, 1));
  return score;
}

}  // namespace levelforge::match3::fast
