#pragma once
// The board operations of the Match-3 playout kernels, written once for two kinds of
// word: a plain 64-bit word (one playout: the bitboard kernel, fast.cpp) and a vector of
// eight of them (eight playouts in lock-step, one per lane: lockstep.cpp). Every
// operation below is a word-wise and, or, xor or shift by a constant, which the compiler
// performs lane by lane on a vector; what differs between playouts (the cell a move
// touches, a lane's random draws) stays in the kernels.

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/match3/rules.hpp"

// Lanes pass between inline functions only; GCC's note that passing a 64-byte vector has
// another ABI without AVX-512 does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace levelforge::match3::bitboard {

using u64 = std::uint64_t;
// Eight playouts' words, lane i holding playout i's (GCC's vector extension: every
// operator acts lane by lane, in the widest registers the function is compiled for).
using Lanes = u64 __attribute__((vector_size(64)));
inline constexpr int lane_count = 8;

// Without -mpopcnt __builtin_popcountll is a library call; this is a few inline operations
// (a lane-wise popcount for Lanes).
template <class Word>
inline Word popcount_words(Word x) {
  x -= (x >> 1U) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2U) & 0x3333333333333333ULL);
  x = (x + (x >> 4U)) & 0x0f0f0f0f0f0f0f0fULL;
  x += x >> 8U;
  x += x >> 16U;
  x += x >> 32U;
  return x & 0x7fU;
}

inline int popcount(u64 x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  return static_cast<int>(popcount_words(x));
#endif
}

// Whether any word (any lane) is non-zero.
inline bool any_bit(u64 x) { return x != 0; }
inline bool any_bit(Lanes x) {  // or-ed across the lanes by halves
  x |= __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3);
  x |= __builtin_shufflevector(x, x, 2, 3, 0, 1, 6, 7, 4, 5);
  x |= __builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6);
  return x[0] != 0;
}

// ---------------------------------------------------------------------------------------
// A bitset of N words: bit b is bit b % 64 of word b / 64. Cell (row, column) of a board
// is bit row * stride + column with stride = width + 1: the extra (guard) column is never
// set, so a shift by one or two never carries a run from one row into the next. Every
// mask of the state keeps the bits outside the board clear.
template <class Word, std::size_t N>
struct Bits {
  std::array<Word, N> w{};

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
  // The words of all N or-ed together: non-zero (in a lane) iff a bit is set (there).
  [[nodiscard]] Word folded() const {
    Word x = w[0];
    for (std::size_t i = 1; i < N; ++i) x |= w[i];
    return x;
  }
  [[nodiscard]] bool any() const { return any_bit(folded()); }
  // Set bits, per lane for Lanes.
  [[nodiscard]] Word count_words() const {
    Word n = popcount_words(w[0]);
    for (std::size_t i = 1; i < N; ++i) n += popcount_words(w[i]);
    return n;
  }

  // One playout's bits (u64 words only).
  [[nodiscard]] bool test(unsigned bit) const {
    if constexpr (N == 1) return ((w[0] >> bit) & 1U) != 0;  // bit < 64
    return ((w[bit / 64] >> (bit % 64)) & 1U) != 0;
  }
  void set(unsigned bit) { w[bit / 64] |= u64{1} << (bit % 64); }
  [[nodiscard]] int count() const {
    int n = 0;
    for (std::size_t i = 0; i < N; ++i) n += popcount(w[i]);
    return n;
  }
};

// a shifted towards higher bits (down a row for k = stride, right for k = 1), 0 < k < 64.
template <class Word, std::size_t N>
Bits<Word, N> shl(const Bits<Word, N>& a, unsigned k) {
  Bits<Word, N> r;
  r.w[0] = a.w[0] << k;
  for (std::size_t i = 1; i < N; ++i) r.w[i] = (a.w[i] << k) | (a.w[i - 1] >> (64 - k));
  return r;
}

// a shifted towards lower bits (up a row for k = stride, left for k = 1), 0 < k < 64.
template <class Word, std::size_t N>
Bits<Word, N> shr(const Bits<Word, N>& a, unsigned k) {
  Bits<Word, N> r;
  for (std::size_t i = 0; i + 1 < N; ++i) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << (64 - k));
  r.w[N - 1] = a.w[N - 1] >> k;
  return r;
}

// shr by `words` whole words and then b < 64 bits.
template <std::size_t words, class Word, std::size_t N>
Bits<Word, N> shr_words(const Bits<Word, N>& a, unsigned b) {
  Bits<Word, N> r;
  for (std::size_t i = 0; i + words < N; ++i) {
    Word v = a.w[i + words] >> b;
    if (b != 0 && i + words + 1 < N) v |= a.w[i + words + 1] << (64 - b);
    r.w[i] = v;
  }
  return r;
}

// shl by `words` whole words and then b < 64 bits.
template <std::size_t words, class Word, std::size_t N>
Bits<Word, N> shl_words(const Bits<Word, N>& a, unsigned b) {
  Bits<Word, N> r;
  for (std::size_t i = words; i < N; ++i) {
    Word v = a.w[i - words] << b;
    if (b != 0 && i > words) v |= a.w[i - words - 1] >> (64 - b);
    r.w[i] = v;
  }
  return r;
}

// shifted(std::integral_constant<std::size_t, k / 64>) for k / 64 < N, else all zero:
// the whole words a compile-time constant, so that no word is indexed at run time (which
// would keep a vector's words in memory).
template <class Word, std::size_t N, class Shifted>
Bits<Word, N> by_words(unsigned k, const Shifted& shifted) {
  return [&]<std::size_t... words>(std::index_sequence<words...>) {
    Bits<Word, N> r;
    (void)((k / 64 == words && (r = shifted(std::integral_constant<std::size_t, words>{}), true)) ||
           ...);
    return r;
  }
  (std::make_index_sequence<N>{});
}

// shr for any k >= 0 (whole words too).
template <class Word, std::size_t N>
Bits<Word, N> shr_far(const Bits<Word, N>& a, unsigned k) {
  return by_words<Word, N>(k, [&](auto words) { return shr_words<words()>(a, k % 64); });
}

// shl for any k >= 0 (whole words too).
template <class Word, std::size_t N>
Bits<Word, N> shl_far(const Bits<Word, N>& a, unsigned k) {
  return by_words<Word, N>(k, [&](auto words) { return shl_words<words()>(a, k % 64); });
}

// ---------------------------------------------------------------------------------------
// A playout's board (a lane's, for Lanes): a mask per color, the filled cells and, per
// Direction, the cells whose move in that direction makes a run through a swapped cell
// (the "movable" masks, kept in step with the colors by update_movable after every
// change).
template <class Word, std::size_t N>
struct State {
  std::array<Bits<Word, N>, max_colors> color{};
  Bits<Word, N> filled{};
  std::array<Bits<Word, N>, 4> movable{};
};

// The operations on whole boards, for one board shape and color count.
struct Shape {
  int width;
  int height;
  int colors;
  unsigned stride;  // width + 1

  // A cell q that receives color X from its neighbour s (s has X, q has another color)
  // is in a run afterwards iff a pair of X cells completes a line of three through q
  // without using s: from the right, the pair to the left or any vertical pair; from
  // below, any horizontal pair or the pair above; and so on. A swap makes a run iff either
  // of its cells is in one.
  template <class Word, std::size_t N>
  void update_movable(State<Word, N>& s) const {
    const unsigned k1 = stride;
    const unsigned k2 = 2 * stride;
    Bits<Word, N> from_right;
    Bits<Word, N> from_left;
    Bits<Word, N> from_below;
    Bits<Word, N> from_above;
    for (int c = 0; c < colors; ++c) {
      const Bits<Word, N>& m = s.color[static_cast<std::size_t>(c)];
      const Bits<Word, N> l1 = shl(m, 1);  // bit q: q - 1 has the color
      const Bits<Word, N> l2 = shl(m, 2);
      const Bits<Word, N> r1 = shr(m, 1);  // bit q: q + 1 has the color
      const Bits<Word, N> r2 = shr(m, 2);
      const Bits<Word, N> a1 = shl(m, k1);  // the cell above
      const Bits<Word, N> a2 = shl(m, k2);
      const Bits<Word, N> b1 = shr(m, k1);  // the cell below
      const Bits<Word, N> b2 = shr(m, k2);
      const Bits<Word, N> above_pair = a1 & a2;
      const Bits<Word, N> below_pair = b1 & b2;
      const Bits<Word, N> left_pair = l1 & l2;
      const Bits<Word, N> right_pair = r1 & r2;
      const Bits<Word, N> vertical = above_pair | (a1 & b1) | below_pair;
      const Bits<Word, N> horizontal = left_pair | (l1 & r1) | right_pair;
      const Bits<Word, N> other = andnot(s.filled, m);
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

  // Where a move in some direction makes a run (per lane for Lanes).
  template <class Word, std::size_t N>
  [[nodiscard]] Word moves_left(const State<Word, N>& s) const {
    return (s.movable[right] | s.movable[down]).folded();
  }

  // Cells of every run of >= 3 (rows and columns).
  template <class Word, std::size_t N>
  [[nodiscard]] Bits<Word, N> runs(const State<Word, N>& s) const {
    const unsigned k1 = stride;
    const unsigned k2 = 2 * stride;
    Bits<Word, N> run;
    for (int c = 0; c < colors; ++c) {
      const Bits<Word, N>& m = s.color[static_cast<std::size_t>(c)];
      const Bits<Word, N> h = m & shr(m, 1) & shr(m, 2);
      const Bits<Word, N> v = m & shr(m, k1) & shr(m, k2);
      run |= h | shl(h, 1) | shl(h, 2) | v | shl(v, k1) | shl(v, k2);
    }
    return run;
  }

  // Takes the cells of `run` off the board.
  template <class Word, std::size_t N>
  void remove(State<Word, N>& s, const Bits<Word, N>& run) const {
    for (int c = 0; c < colors; ++c) {
      auto& m = s.color[static_cast<std::size_t>(c)];
      m = andnot(m, run);
    }
    s.filled = andnot(s.filled, run);
  }

  // Fills every empty cell of the board from `stream`, columns left to right, each from
  // the top down (one playout's board).
  template <std::size_t N>
  void refill(State<u64, N>& s, PlayoutStream& stream) const {
    for (int column = 0; column < width; ++column) {
      for (int row = 0; row < height; ++row) {
        const auto bit = static_cast<unsigned>(row) * stride + static_cast<unsigned>(column);
        if (s.filled.test(bit)) continue;
        const auto color = stream() % static_cast<u64>(colors);
        s.color[static_cast<std::size_t>(color)].set(bit);
        s.filled.set(bit);
      }
    }
  }

  // Every block with an empty cell anywhere below it falls one row, until none has (in
  // any lane). `inside` holds the cells of the board.
  template <class Word, std::size_t N>
  void gravity(State<Word, N>& s, const Bits<Word, N>& inside) const {
    for (;;) {
      Bits<Word, N> below = shr(andnot(inside, s.filled), stride);  // bit q: q + stride empty
      for (int span = 1; span < height - 1; span *= 2) {
        below |= shr_far(below, static_cast<unsigned>(span) * stride);
      }
      const Bits<Word, N> fall = s.filled & below;
      if (!fall.any()) return;
      for (int c = 0; c < colors; ++c) {
        Bits<Word, N>& m = s.color[static_cast<std::size_t>(c)];
        const Bits<Word, N> moving = m & fall;
        m = (m ^ moving) | shl(moving, stride);
      }
      s.filled = (s.filled ^ fall) | shl(fall, stride);
    }
  }
};

}  // namespace levelforge::match3::bitboard

#pragma GCC diagnostic pop
