#include "kernels/match3/lockstep.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// Functions taking or returning lane vectors are inlined into the per-instruction-set
// copies below (flatten); no call passes a vector, so GCC's note that such a call's ABI
// differs between instruction sets does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "kernels/match3/bitboard.hpp"

namespace levelforge::match3::lockstep {

namespace {

using bitboard::lane_count;
using bitboard::Lanes;
using bitboard::u64;
template <std::size_t N>
using LaneBits = bitboard::Bits<Lanes, N>;
template <std::size_t N>
using LaneState = bitboard::State<Lanes, N>;
template <std::size_t N>
using Bits = bitboard::Bits<u64, N>;
template <std::size_t N>
using State = bitboard::State<u64, N>;

using bitboard::shl;
using bitboard::shl_far;
using bitboard::shr;
using bitboard::shr_far;

// The lanes' boards with each cell's color as three bits, in bit planes (zero where the
// cell is empty): the cascade works on three planes where it would on up to eight colors.
constexpr std::size_t planes = 3;
static_assert(std::bit_width(static_cast<unsigned>(max_colors - 1)) == planes);
template <std::size_t N>
struct LaneBoards {
  std::array<LaneBits<N>, planes> plane;
  LaneBits<N> filled;
  std::array<LaneBits<N>, 4> movable;
};

// The cells of color c, from the planes.
template <class Word, std::size_t N>
bitboard::Bits<Word, N> color_cells(const std::array<bitboard::Bits<Word, N>, planes>& plane,
                                    const bitboard::Bits<Word, N>& filled, std::size_t c) {
  bitboard::Bits<Word, N> cells = filled;
  for (std::size_t b = 0; b < planes; ++b) {
    bitboard::Bits<Word, N> differ;  // all ones where the plane's bit is not c's
    const Word flip = Word{} - static_cast<u64>((c >> b) & 1U);
    for (std::size_t w = 0; w < N; ++w) differ.w[w] = plane[b].w[w] ^ flip;
    cells = andnot(cells, differ);
  }
  return cells;
}

// A board's colors as planes.
template <std::size_t N>
std::array<Bits<N>, planes> planes_of(const State<N>& board, int colors) {
  std::array<Bits<N>, planes> plane;
  for (std::size_t c = 0; c < static_cast<std::size_t>(colors); ++c) {
    for (std::size_t b = 0; b < planes; ++b)
      if (((c >> b) & 1U) != 0) plane[b] |= board.color[c];
  }
  return plane;
}

using LaneMask = unsigned;  // bit i: lane i
constexpr LaneMask all_lanes = (1U << lane_count) - 1;

// A lane comparison's result (all ones where true) as words.
template <class Comparison>
inline Lanes as_lanes(Comparison compared) {
  return std::bit_cast<Lanes>(compared);
}

// All ones in the lanes whose word is not zero. AVX-512 compares into mask registers;
// without it GCC 12 compares 64-byte vectors lane by lane in scalar code, so the others
// take arithmetic.
template <Isa isa>
inline Lanes nonzero_mask(Lanes words) {
  if constexpr (isa == Isa::avx512) {
    return as_lanes(words != 0);
  } else {
    return -((words | -words) >> 63U);
  }
}

// All ones in the lanes where a and b are equal.
template <Isa isa>
inline Lanes equal_mask(Lanes a, Lanes b) {
  if constexpr (isa == Isa::avx512) {
    return as_lanes(a == b);
  } else {
    return ~nonzero_mask<isa>(a ^ b);
  }
}

// A lane vector of all ones where `mask` has the lane's bit.
template <Isa isa>
inline Lanes lanes_of(LaneMask mask) {
  constexpr Lanes lane_bit = {1, 2, 4, 8, 16, 32, 64, 128};
  return nonzero_mask<isa>(lane_bit & mask);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline LaneMask nonzero_avx512(
    Lanes words) {
  const auto v = std::bit_cast<__m512i>(words);
  return _mm512_test_epi64_mask(v, v);
}
// By halves: GCC 12 would compare the 64-byte vector lane by lane in scalar code.
using HalfLanes = u64 __attribute__((vector_size(32)));
__attribute__((target("avx2"))) inline LaneMask nonzero_avx2(HalfLanes words) {
  return static_cast<LaneMask>(_mm256_movemask_pd(std::bit_cast<__m256d>(words != 0)));
}
__attribute__((target("avx2"))) inline LaneMask nonzero_avx2(Lanes words) {
  return nonzero_avx2(__builtin_shufflevector(words, words, 0, 1, 2, 3)) |
         (nonzero_avx2(__builtin_shufflevector(words, words, 4, 5, 6, 7)) << 4U);
}
#endif

// The lanes whose word is non-zero.
template <Isa isa>
inline LaneMask nonzero_lanes(Lanes words) {
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (isa == Isa::avx512) return nonzero_avx512(words);
  if constexpr (isa == Isa::avx2) return nonzero_avx2(words);
#endif
  LaneMask mask = 0;
  for (int lane = 0; lane < lane_count; ++lane)
    mask |= static_cast<LaneMask>(words[lane] != 0) << static_cast<unsigned>(lane);
  return mask;
}

#if defined(__x86_64__) || defined(__i386__)
// AVX-512 computes each lane's draws ahead, eight consecutive ones at once (its stream
// advances by a constant per draw), as codes: a draw's direction and cell as the index of
// its bit in the lane's four movable masks laid end to end (direction * 64 * N + the
// cell's bit), so that 64 draws are tested against a board by a few word permutes. AVX2
// and portable code, without 32-bit multiplies and word permutes on 64-byte vectors, draw
// one at a time (measured faster there).

// The products of the lanes' low 32 bits (GCC would multiply all 64 bits: three
// instructions). maskz: GCC 12's _mm512_mul_epu32 warns of its own undefined operand.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline Lanes mul32(Lanes a, Lanes b) {
  return std::bit_cast<Lanes>(
      _mm512_maskz_mul_epu32(0xff, std::bit_cast<__m512i>(a), std::bit_cast<__m512i>(b)));
}

// Each word's high half moved to its low half (`words >> 32`), and with `low` given its
// low half moved up over low's (`words << 32 | (low & 0xffffffff)`): dword shuffles,
// which run beside the multiplies and shifts (one port takes those on 64-byte vectors).
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline Lanes high_half(Lanes words) {
  return std::bit_cast<Lanes>(
      _mm512_maskz_shuffle_epi32(0x5555, std::bit_cast<__m512i>(words), _MM_PERM_CDAB));
}
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline Lanes low_half_over(
    Lanes words, Lanes low) {
  return std::bit_cast<Lanes>(_mm512_mask_shuffle_epi32(
      std::bit_cast<__m512i>(low), 0xaaaa, std::bit_cast<__m512i>(words), _MM_PERM_CDAB));
}

// PlayoutStream's output for eight states at once (already advanced): the 128-bit product
// from the four products of 32-bit halves (summed so that no sum overflows), its two
// halves xor-ed.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline Lanes stream_output(
    Lanes state) {
  const Lanes other = state ^ PlayoutStream::mix;
  constexpr u64 low32 = 0xffffffffU;
  // mul32 reads the low halves only: the high halves moved down need no clearing.
  const Lanes state_high = high_half(state);
  const Lanes other_high = high_half(other);
  const Lanes low = mul32(state, other);
  const Lanes cross = mul32(state_high, other) + high_half(low);
  const Lanes middle = (cross & low32) + mul32(state, other_high);
  const Lanes high = mul32(state_high, other_high) + high_half(cross) + high_half(middle);
  return high ^ low_half_over(middle, low);
}

// With AVX-512 IFMA, the same output from seven 52-bit multiply-adds: the states in a low
// limb of 52 bits (the instructions read those only) and a high one of 12, the partial
// products summed into limbs at 0, 52 and 104 (none overflows: at most three of 52 bits
// each).
#define LEVELFORGE_IFMA_TARGET target("avx512f,avx512dq,avx512bw,avx512vl,avx512ifma")
__attribute__((LEVELFORGE_IFMA_TARGET)) inline Lanes madd52lo(Lanes sum, Lanes a, Lanes b) {
  return std::bit_cast<Lanes>(_mm512_madd52lo_epu64(
      std::bit_cast<__m512i>(sum), std::bit_cast<__m512i>(a), std::bit_cast<__m512i>(b)));
}
__attribute__((LEVELFORGE_IFMA_TARGET)) inline Lanes madd52hi(Lanes sum, Lanes a, Lanes b) {
  return std::bit_cast<Lanes>(_mm512_madd52hi_epu64(
      std::bit_cast<__m512i>(sum), std::bit_cast<__m512i>(a), std::bit_cast<__m512i>(b)));
}
__attribute__((LEVELFORGE_IFMA_TARGET)) inline Lanes stream_output_ifma52(Lanes state) {
  const Lanes other = state ^ PlayoutStream::mix;
  const Lanes state_high = state >> 52U;
  const Lanes other_high = other >> 52U;
  const Lanes zero{};
  const Lanes at0 = madd52lo(zero, state, other);
  const Lanes at52 =
      madd52lo(madd52lo(madd52hi(zero, state, other), state, other_high), state_high, other);
  const Lanes at104 = madd52lo(madd52hi(madd52hi(zero, state, other_high), state_high, other),
                               state_high, other_high);
  // at0 fills bits 0-51 alone, so the low half takes at52's bits by an or.
  return ((at52 >> 12U) + (at104 << 40U)) ^ (at0 | (at52 << 52U));
}

// The eight codes of `code` (one a lane, each below 2^16) stored as 16-bit words at `out`.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline void store_codes(
    Lanes code, std::uint16_t* out) {
  // maskz: GCC 12's _mm512_cvtepi64_epi16 warns of its own undefined operand.
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   _mm512_maskz_cvtepi64_epi16(0xff, std::bit_cast<__m512i>(code)));
}

// A lane's movable masks as 16-bit words, in up to three vectors (32 words each).
template <std::size_t N>
struct CodeTable {
  static constexpr std::size_t vectors = (4 * N + 7) / 8;
  std::array<Lanes, vectors> words;
};

template <std::size_t N>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline CodeTable<N> load_table(
    const u64* masks) {
  CodeTable<N> t;
  for (std::size_t i = 0; i < CodeTable<N>::vectors; ++i)
    t.words[i] = std::bit_cast<Lanes>(_mm512_load_si512(masks + 8 * i));
  return t;
}

// Of 32 codes, those whose bit is set in the table.
template <std::size_t N>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline __mmask32 codes_set(
    const CodeTable<N>& t, __m512i codes) {
  const auto table = [&t](std::size_t i) { return std::bit_cast<__m512i>(t.words[i]); };
  const __m512i at = _mm512_srli_epi16(codes, 4);
  __m512i word;
  if constexpr (CodeTable<N>::vectors == 1) {
    word = _mm512_permutexvar_epi16(at, table(0));
  } else {
    word = _mm512_permutex2var_epi16(table(0), at, table(1));
    if constexpr (CodeTable<N>::vectors == 3) {
      const __mmask32 high = _mm512_test_epi16_mask(at, _mm512_set1_epi16(64));
      word = _mm512_mask_permutexvar_epi16(word, high, at, table(2));
    }
  }
  const __m512i bit =
      _mm512_sllv_epi16(_mm512_set1_epi16(1), _mm512_and_si512(codes, _mm512_set1_epi16(15)));
  return _mm512_test_epi16_mask(word, bit);
}

// scores[lane] += table[counts[lane]] for the lanes of `lanes` (a gather), when every such
// count is inside the table; false (nothing added) otherwise.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline bool add_table_scores(
    LaneMask lanes, Lanes counts, const std::vector<double>& table, double* scores) {
  const auto mask = static_cast<__mmask8>(lanes);
  const auto index = std::bit_cast<__m512i>(counts);
  if (_mm512_mask_cmpge_epu64_mask(mask, index,
                                   _mm512_set1_epi64(static_cast<long long>(table.size()))) != 0)
    return false;
  const __m512d add = _mm512_mask_i64gather_pd(_mm512_setzero_pd(), mask, index, table.data(), 8);
  _mm512_storeu_pd(scores, _mm512_add_pd(_mm512_loadu_pd(scores), add));
  return true;
}

// Set bits per lane (popcount_words' result) by AVX-512BW's byte shuffles: a table of the
// bit counts of nibbles, the bytes' counts summed per word.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline Lanes popcount_avx512(
    Lanes words) {
  const auto v = std::bit_cast<__m512i>(words);
  const __m512i nibble_counts = _mm512_set4_epi32(0x04030302, 0x03020201, 0x03020201, 0x02010100);
  const __m512i low_nibbles = _mm512_set1_epi8(0x0f);
  const __m512i low = _mm512_and_si512(v, low_nibbles);
  const __m512i high = _mm512_and_si512(_mm512_srli_epi16(v, 4), low_nibbles);
  const __m512i counts = _mm512_add_epi8(_mm512_shuffle_epi8(nibble_counts, low),
                                         _mm512_shuffle_epi8(nibble_counts, high));
  return std::bit_cast<Lanes>(_mm512_sad_epu8(counts, _mm512_setzero_si512()));
}

// The lanes of `lanes` whose count equals `value`.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline LaneMask lanes_equal(
    LaneMask lanes, const int* counts, int value) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(counts));
  return _mm256_mask_cmpeq_epi32_mask(static_cast<__mmask8>(lanes), v, _mm256_set1_epi32(value));
}

// Of the 64 codes from `at`, those whose bit is set in the table (bit i: code i).
template <std::size_t N>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline u64 codes_set(
    const CodeTable<N>& t, const std::uint16_t* at) {
  const __mmask32 low = codes_set(t, _mm512_loadu_si512(at));
  const __mmask32 high = codes_set(t, _mm512_loadu_si512(at + 32));
  return _cvtmask64_u64(_mm512_kunpackd(high, low));
}
#endif

template <std::size_t N, Isa isa>
class Kernel {
 public:
  Kernel(const Board& start, const Rules& rules, const std::vector<double>& table,
         Products products)
      : table_(table),
        shape_{start.width, start.height, rules.colors, static_cast<unsigned>(start.width + 1)},
        cells_(start.width * start.height),
        moves_(rules.moves),
        refill_(rules.refill == Refill::random),
        products_(products),
        row_of_cell_(65536U / static_cast<unsigned>(start.width) + 1) {
    for (int cell = 0; cell < cells_; ++cell) {
      const auto bit = static_cast<unsigned>(cell + cell / start.width);
      // make_codes computes the row by a multiply; it must agree with the division.
      if (bit !=
          static_cast<unsigned>(cell) + ((static_cast<unsigned>(cell) * row_of_cell_) >> 16U))
        throw std::logic_error("match3::lockstep: the row of a cell by multiplication is off");
      bit_of_[static_cast<std::size_t>(cell)] = static_cast<std::uint16_t>(bit);
      inside_.w[bit / 64] |= u64{1} << (bit % 64);
      const auto color = start.cells[static_cast<std::size_t>(cell)];
      if (color == empty_cell) continue;
      start_.color[color].set(bit);
      start_.filled.set(bit);
    }
    shape_.update_movable(start_);
    start_planes_ = planes_of(start_, shape_.colors);
    for (std::size_t d = 0; d < 4; ++d) {
      for (std::size_t w = 0; w < N; ++w) start_table_[d * N + w] = start_.movable[d].w[w];
    }
    for (std::size_t i = 0; i < lane_count; ++i)
      draw_steps_[i] = (i + 1) * PlayoutStream::increment;
  }

  void play(std::span<const std::uint64_t> seeds, std::span<double> scores) {
    // With NoMatch::undo a board without a matching move never changes: no draws at all.
    if (shape_.moves_left(start_) == 0) {
      for (auto& score : scores) score = 0;
      return;
    }
    next_seed_ = 0;
    seeds_ = seeds;
    scores_ = scores;
    live_ = all_lanes;
    fresh_ = 0;
    take_seeds(all_lanes);
    while (live_ != 0) {
      for (LaneMask rest = live_; rest != 0; rest &= rest - 1) draw(__builtin_ctz(rest));
      if (live_ != 0) play_matches(live_);
    }
  }

 private:
  // Draws the lane's moves until one makes a run (the lane then waits, its move kept),
  // taking the next seed each time a playout ends, or until no seed is left (the lane goes
  // idle).
  void draw(int lane) {
    const auto slot = static_cast<std::size_t>(lane);
    const LaneMask bit = 1U << static_cast<unsigned>(lane);
    for (;;) {
      if (draw_until_run(slot, (fresh_ & bit) != 0)) return;
      finish(bit);
      if ((live_ & bit) == 0) return;
    }
  }

  // The lane's draws from its stream on its board (the start board when `fresh`), up to
  // its last move; true when a move makes a run (then kept, the stream after it).
  bool draw_until_run(std::size_t slot, bool fresh) {
#if defined(__x86_64__) || defined(__i386__)
    if constexpr (isa == Isa::avx512) return draw_by_codes(slot, fresh);
#endif
    u64 stream = stream_[slot];
    int made = moves_made_[slot];
    if (!draw_one_by_one(slot, fresh, stream, made)) return false;
    PlayoutStream rng(stream);
    const u64 x = rng();
    stream_[slot] = rng.state();
    moves_made_[slot] = made;
    move_bit_[slot] = bit_of_[static_cast<std::size_t>(draw_choice(x, cells_))];
    move_direction_[slot] = x >> 62U;
    return true;
  }

  // Word w of the lane's movable mask in `direction`.
  [[nodiscard]] u64 movable_word(std::size_t slot, bool fresh, std::size_t direction,
                                 std::size_t w) const {
    return fresh ? start_.movable[direction].w[w]
                 : state_.movable[direction].w[w][static_cast<int>(slot)];
  }

  // The bitboard kernel's loop. Leaves `stream` before the move that makes a run and
  // `made` after it; false when none does.
  bool draw_one_by_one(std::size_t slot, bool fresh, u64& stream, int& made) const {
    std::array<std::array<u64, N>, 4> movable;
    for (std::size_t d = 0; d < 4; ++d) {
      for (std::size_t w = 0; w < N; ++w) movable[d][w] = movable_word(slot, fresh, d, w);
    }
    PlayoutStream rng(stream);
    while (made < moves_) {
      ++made;
      const PlayoutStream before = rng;
      const u64 x = rng();
      const unsigned bit = bit_of_[static_cast<std::size_t>(draw_choice(x, cells_))];
      if (((movable[x >> 62U][bit / 64] >> (bit % 64)) & 1U) == 0) [[likely]]
        continue;
      stream = before.state();
      return true;
    }
    return false;
  }

#if defined(__x86_64__) || defined(__i386__)
  // draw_one_by_one on the lane's codes, 64 at a time.
  bool draw_by_codes(std::size_t slot, bool fresh) {
    const CodeTable<N> table =
        load_table<N>(fresh ? start_table_.data() : lane_tables_[slot].data());
    int made = moves_made_[slot];
    for (;;) {
      if (made == code_end_[slot]) {
        if (made == moves_) {
          moves_made_[slot] = made;
          return false;
        }
        make_codes(slot, made);
      }
      const int offset = made - code_start_[slot];
      const int ahead = code_end_[slot] - made;
      u64 runs = codes_set(table, codes_[slot].data() + offset);
      runs &= ~u64{0} >> static_cast<unsigned>(64 - std::min(ahead, 64));  // ahead > 0; no branch
      if (runs != 0) {
        const int at = offset + __builtin_ctzll(runs);
        const unsigned code = codes_[slot][static_cast<std::size_t>(at)];
        move_direction_[slot] = code / (64 * N);
        move_bit_[slot] = code % (64 * N);
        moves_made_[slot] = code_start_[slot] + at + 1;
        stream_[slot] = code_state_[slot] + PlayoutStream::increment * static_cast<u64>(at + 1);
        return true;
      }
      made += std::min(ahead, 64);
    }
  }

  // The lane's codes from move `from` on (up to code_block of them; the stream's state
  // before the move follows from the last codes' or, after a refill, is code_state_).
  void make_codes(std::size_t slot, int from) {
    const u64 state =
        code_state_[slot] + PlayoutStream::increment * static_cast<u64>(from - code_start_[slot]);
    const int count = std::min(code_block, moves_ - from);
    code_state_[slot] = state;
    code_start_[slot] = from;
    code_end_[slot] = from + count;
    if (products_ == Products::ifma52) return make_codes_ifma52(state, count, codes_[slot].data());
    const Lanes cells = Lanes{} + static_cast<u64>(cells_);
    const Lanes row_of_cell = Lanes{} + row_of_cell_;
    Lanes states = state + draw_steps_;
    std::uint16_t* out = codes_[slot].data();
    for (int i = 0; i < count; i += lane_count) {
      const Lanes x = stream_output(states);
      const Lanes cell = high_half(mul32(x, cells));
      const Lanes bit = cell + (mul32(cell, row_of_cell) >> 16U);
      if constexpr (std::has_single_bit(N)) {  // the direction's bits or-ed in: one ternlog
        store_codes(direction_offset(x) | bit, out + i);
      } else {
        store_codes((x >> 62U) * (64 * N) + bit, out + i);
      }
      states += PlayoutStream::increment * lane_count;
    }
  }

  // make_codes' loop by multiply-adds, `count` codes from the stream's state `state`. The
  // cell's row, cell / width, is also (x * height) >> 32 (x the draw's low 32 bits: the
  // floor of a floor quotient is the floor of the whole), so its bit, cell + row, is the
  // sum of two high products, added to the direction's offset. The multipliers are scaled
  // by 2^20: the high part of a 52-bit product is then the product >> 32. (Shifts and
  // multiply-adds share one port; masks do not.)
  __attribute__((LEVELFORGE_IFMA_TARGET, noinline)) void make_codes_ifma52(
      u64 state, int count, std::uint16_t* out) const {
    const Lanes cells = Lanes{} + (static_cast<u64>(cells_) << 20U);
    const Lanes rows = Lanes{} + (static_cast<u64>(shape_.height) << 20U);
    Lanes states = state + draw_steps_;
    for (int i = 0; i < count; i += lane_count) {
      const Lanes x = stream_output_ifma52(states);
      const Lanes low = x & 0xffffffffU;
      Lanes offset;
      if constexpr (std::has_single_bit(N)) {
        offset = direction_offset(x);
      } else {
        offset = madd52lo(Lanes{}, x >> 62U, Lanes{} + 64 * N);
      }
      store_codes(madd52hi(madd52hi(offset, low, cells), low, rows), out + i);
      states += PlayoutStream::increment * lane_count;
    }
  }

  // For N a power of two, a draw's direction times 64 * N (its codes' offset) by a shift
  // and a mask.
  static Lanes direction_offset(Lanes x) {
    static_assert(std::has_single_bit(N));
    return (x >> (56U - std::countr_zero(N))) & (u64{3} << (6U + std::countr_zero(N)));
  }
#endif

  // The waiting lanes' moves: swap, cascade, new movable masks, scores.
  void play_matches(LaneMask waiting) {
    if (fresh_ != 0) start_lanes();
    LaneBoards<N> state = state_;  // a local copy the compiler can keep in registers
    const Lanes lanes = lanes_of<isa>(waiting);
    Lanes move_bit;
    Lanes move_direction;
    __builtin_memcpy(&move_bit, move_bit_.data(), sizeof move_bit);
    __builtin_memcpy(&move_direction, move_direction_.data(), sizeof move_direction);
    const Lanes stride = Lanes{} + shape_.stride;
    const auto towards = [&](Direction d) {
      return equal_mask<isa>(move_direction, Lanes{} + static_cast<u64>(d));
    };
    const Lanes step = (towards(up) & -stride) | (towards(down) & stride) |
                       (towards(left) & ~Lanes{}) | (towards(right) & 1U);
    const Lanes other_bit = move_bit + step;
    const Lanes one = Lanes{} + 1U;
    LaneBits<N> p;
    LaneBits<N> q;
    for (std::size_t w = 0; w < N; ++w) {
      p.w[w] = (one << (move_bit & 63U)) & equal_mask<isa>(move_bit >> 6U, Lanes{} + w);
      q.w[w] = (one << (other_bit & 63U)) & equal_mask<isa>(other_bit >> 6U, Lanes{} + w);
    }
    const LaneBits<N> both = p | q;
    for (auto& m : state.plane) {
      const Lanes differ =
          (nonzero_mask<isa>((m & p).folded()) ^ nonzero_mask<isa>((m & q).folded())) & lanes;
      for (std::size_t w = 0; w < N; ++w) m.w[w] ^= both.w[w] & differ;
    }
    // Only the waiting lanes cascade (the others are idle). Their "inside" is their filled
    // cells: nothing there can fall.
    LaneBits<N> only_waiting;
    for (std::size_t w = 0; w < N; ++w) only_waiting.w[w] = lanes;
    const LaneBits<N> inside = (inside_ & only_waiting) | andnot(state.filled, only_waiting);
    Lanes removed = {};
    for (;;) {
      const LaneBits<N> run = runs(state) & only_waiting;
      if (nonzero_lanes<isa>(run.folded()) == 0) break;
#if defined(__x86_64__) || defined(__i386__)
      if constexpr (isa == Isa::avx512) {
        for (std::size_t w = 0; w < N; ++w) removed += popcount_avx512(run.w[w]);
      } else
#endif
      {
        removed += run.count_words();
      }
      for (auto& m : state.plane) m = andnot(m, run);
      state.filled = andnot(state.filled, run);
      fall(state, inside);
      if (refill_) {
        for (LaneMask lane = waiting; lane != 0; lane &= lane - 1)
          refill(state, __builtin_ctz(lane));
      }
    }
    const LaneMask stuck = ~update_movable(state);
    state_ = state;
    if constexpr (isa == Isa::avx512) {
      make_lane_tables(state.movable);
    }
    LaneMask done = waiting & stuck;
#if defined(__x86_64__) || defined(__i386__)
    if constexpr (isa == Isa::avx512) {
      // The scalar loop's loads of single lanes would wait for the vectors' stores.
      done |= lanes_equal(waiting, moves_made_.data(), moves_);
      if (add_table_scores(waiting, removed, table_, score_.data())) {
        if (done != 0) finish(done);
        return;
      }
      done = waiting & stuck;
    }
#endif
    for (LaneMask rest = waiting; rest != 0; rest &= rest - 1) {
      const int lane = __builtin_ctz(rest);
      const auto slot = static_cast<std::size_t>(lane);
      score_[slot] += move_score(table_, static_cast<int>(removed[lane]));
      if (moves_made_[slot] == moves_) done |= 1U << static_cast<unsigned>(lane);
    }
    if (done != 0) finish(done);
  }

  // The boards' movable masks (Shape::update_movable, on their colors spelled out); the
  // lanes with a move left.
  LaneMask update_movable(LaneBoards<N>& s) {
    LaneState<N>& colored = colored_;
    colored.filled = s.filled;
#pragma GCC unroll 8  // constant colors: each spelled out by one ternary logic instruction
    for (std::size_t c = 0; c < max_colors; ++c) {
      if (c == static_cast<std::size_t>(shape_.colors)) break;
      colored.color[c] = color_cells(s.plane, s.filled, c);
    }
    shape_.update_movable(colored);
    s.movable = colored.movable;
    return nonzero_lanes<isa>(shape_.moves_left(colored));
  }

  // lane_tables_ from the lanes' movable masks (a transpose, in registers).
  void make_lane_tables(const std::array<LaneBits<N>, 4>& movable) {
    constexpr std::size_t words = 4 * N;
    const auto vector = [&movable](std::size_t i) -> const Lanes& {
      return movable[i / N].w[i % N];
    };
    for (std::size_t group = 0; group < words; group += 8) {
      const std::array<Lanes, lane_count> low =
          transposed_fours(vector(group), vector(group + 1), vector(group + 2), vector(group + 3));
      if (group + 4 >= words) {
        for (std::size_t lane = 0; lane < lane_count; ++lane)
          __builtin_memcpy(&lane_tables_[lane][group], &low[lane], sizeof(Lanes));
        continue;
      }
      const std::array<Lanes, lane_count> high = transposed_fours(
          vector(group + 4), vector(group + 5), vector(group + 6), vector(group + 7));
      for (std::size_t lane = 0; lane < lane_count; ++lane) {
        const Lanes row = __builtin_shufflevector(low[lane], high[lane], 0, 1, 2, 3, 8, 9, 10, 11);
        __builtin_memcpy(&lane_tables_[lane][group], &row, sizeof(Lanes));
      }
    }
  }

  // Lane i's words of the four vectors, {a[i], b[i], c[i], d[i]} twice, in vector i.
  static std::array<Lanes, lane_count> transposed_fours(const Lanes& a, const Lanes& b,
                                                        const Lanes& c, const Lanes& d) {
    const Lanes low_ab = __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
    const Lanes high_ab = __builtin_shufflevector(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
    const Lanes low_cd = __builtin_shufflevector(c, d, 0, 8, 1, 9, 2, 10, 3, 11);
    const Lanes high_cd = __builtin_shufflevector(c, d, 4, 12, 5, 13, 6, 14, 7, 15);
    return {__builtin_shufflevector(low_ab, low_cd, 0, 1, 8, 9, 0, 1, 8, 9),
            __builtin_shufflevector(low_ab, low_cd, 2, 3, 10, 11, 2, 3, 10, 11),
            __builtin_shufflevector(low_ab, low_cd, 4, 5, 12, 13, 4, 5, 12, 13),
            __builtin_shufflevector(low_ab, low_cd, 6, 7, 14, 15, 6, 7, 14, 15),
            __builtin_shufflevector(high_ab, high_cd, 0, 1, 8, 9, 0, 1, 8, 9),
            __builtin_shufflevector(high_ab, high_cd, 2, 3, 10, 11, 2, 3, 10, 11),
            __builtin_shufflevector(high_ab, high_cd, 4, 5, 12, 13, 4, 5, 12, 13),
            __builtin_shufflevector(high_ab, high_cd, 6, 7, 14, 15, 6, 7, 14, 15)};
  }

  // Shape::runs on the planes: a run starts at q where q and the next cell, and the next
  // and the one after, are filled and agree in every plane.
  [[nodiscard]] LaneBits<N> runs(const LaneBoards<N>& s) const {
    const unsigned k1 = shape_.stride;
    const unsigned k2 = 2 * shape_.stride;
    LaneBits<N> same_h = s.filled & shr(s.filled, 1);  // q and q + 1: one color
    LaneBits<N> same_v = s.filled & shr(s.filled, k1);
    for (const auto& m : s.plane) {
      same_h = andnot(same_h, m ^ shr(m, 1));
      same_v = andnot(same_v, m ^ shr(m, k1));
    }
    const LaneBits<N> starts_h = same_h & shr(same_h, 1);   // first cells of horizontal runs
    const LaneBits<N> starts_v = same_v & shr(same_v, k1);  // top cells of vertical ones
    return starts_h | shl(starts_h, 1) | shl(starts_h, 2) | starts_v | shl(starts_v, k1) |
           shl(starts_v, k2);
  }

  // Shape::gravity's end state without its loop, in log2(height) steps: each block falls
  // by the number of empty cells below it, one bit of that number a step (Hacker's
  // Delight's compress, figure 7-10, down each column). The loop would run as many rounds
  // as the longest fall in any lane, and mispredict its end.
  void fall(LaneBoards<N>& s, const LaneBits<N>& inside) const {
    const unsigned k = shape_.stride;
    const auto height = static_cast<unsigned>(shape_.height);
    // Bit q: q + k is empty (of the empties not yet accounted for); xor-ed down each
    // column, the parity of the fall still ahead of the block at q.
    LaneBits<N> below = shr(andnot(inside, s.filled), k);
    for (unsigned rows = 1; rows < height; rows *= 2) {
      // A block falls further iff an empty not yet accounted for lies below it. Falls of
      // four rows or more are rare (a wave seldom empties four cells of a column), so
      // before those steps that is checked exactly: the prefix "a block at q or above".
      if (rows >= 4) {
        LaneBits<N> block_above = s.filled;
        for (unsigned span = 1; span < height; span *= 2)
          block_above |= shl_far(block_above, span * k);
        if (nonzero_lanes<isa>((block_above & below).folded()) == 0) return;
      }
      LaneBits<N> odd = below;
      for (unsigned span = 1; span < height; span *= 2) odd = odd ^ shr_far(odd, span * k);
      const LaneBits<N> moving = odd & s.filled;
      below = andnot(below, odd);
      const unsigned by = rows * k;
      s.filled = (s.filled ^ moving) | shl_far(moving, by);
      for (auto& m : s.plane) {
        const LaneBits<N> moved = m & moving;
        m = (m ^ moved) | shl_far(moved, by);
      }
    }
  }

  // The lane's board refilled from the lane's own stream (Shape::refill, on its words).
  void refill(LaneBoards<N>& state, int lane) {
    const auto take = [lane](Bits<N>& to, const LaneBits<N>& from) {
      for (std::size_t w = 0; w < N; ++w) to.w[w] = from.w[w][lane];
    };
    const auto put = [lane](LaneBits<N>& to, const Bits<N>& from) {
      for (std::size_t w = 0; w < N; ++w) to.w[w][lane] = from.w[w];
    };
    std::array<Bits<N>, planes> plane;
    for (std::size_t b = 0; b < planes; ++b) take(plane[b], state.plane[b]);
    State<N> board;
    take(board.filled, state.filled);
    for (std::size_t c = 0; c < static_cast<std::size_t>(shape_.colors); ++c)
      board.color[c] = color_cells(plane, board.filled, c);
    const auto slot = static_cast<std::size_t>(lane);
    PlayoutStream stream(stream_[slot]);
    shape_.refill(board, stream);
    stream_[slot] = stream.state();
    // The lane's codes drawn ahead were for a stream the refill has moved on.
    drop_codes(slot);
    plane = planes_of(board, shape_.colors);
    for (std::size_t b = 0; b < planes; ++b) put(state.plane[b], plane[b]);
    put(state.filled, board.filled);
  }

  // The lane has no codes drawn ahead: draw_by_codes makes them from its stream as it
  // stands (stream_, before move moves_made_).
  void drop_codes(std::size_t slot) {
    code_state_[slot] = stream_[slot];
    code_start_[slot] = moves_made_[slot];
    code_end_[slot] = moves_made_[slot];
  }

  // The lanes' playouts are over: their scores go out, and each takes the next seed.
  void finish(LaneMask lanes) {
    for (LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
      const auto slot = static_cast<std::size_t>(__builtin_ctz(rest));
      scores_[seed_of_[slot]] = score_[slot];
    }
    take_seeds(lanes);
  }

  // Each of the lanes starts the next playout (its board the start board, written into
  // the lanes at their next match), or goes idle when every seed has one.
  void take_seeds(LaneMask lanes) {
    for (LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
      const int lane = __builtin_ctz(rest);
      const auto slot = static_cast<std::size_t>(lane);
      const LaneMask bit = 1U << static_cast<unsigned>(lane);
      if (next_seed_ == seeds_.size()) {
        live_ &= ~bit;
        continue;
      }
      seed_of_[slot] = next_seed_;
      stream_[slot] = seeds_[next_seed_++];
      score_[slot] = 0;
      moves_made_[slot] = 0;
      drop_codes(slot);
#if defined(__x86_64__) || defined(__i386__)
      // Now rather than at the lane's first draw, where the test for it would mispredict.
      if constexpr (isa == Isa::avx512) make_codes(slot, 0);
#endif
      fresh_ |= bit;
    }
  }

  // The fresh lanes' boards become the start board (a blend per word: writing single lanes
  // into vectors in memory would stall every later load of them).
  void start_lanes() {
    const Lanes chosen = lanes_of<isa>(fresh_);
    const auto blend = [&](LaneBits<N>& lane_bits, const Bits<N>& start) {
      for (std::size_t w = 0; w < N; ++w)
        lane_bits.w[w] = ((Lanes{} + start.w[w]) & chosen) | (lane_bits.w[w] & ~chosen);
    };
    for (std::size_t b = 0; b < planes; ++b) blend(state_.plane[b], start_planes_[b]);
    blend(state_.filled, start_.filled);
    fresh_ = 0;
  }

  const std::vector<double>& table_;
  bitboard::Shape shape_;
  int cells_;
  int moves_;
  bool refill_;
  Products products_;   // make_codes' (AVX-512 only)
  u64 row_of_cell_;     // cell * row_of_cell_ >> 16 is cell / width for every cell
  Lanes draw_steps_{};  // the stream's steps to the next eight draws
  // The movable masks, word w of direction d at d * N + w (draw_by_codes' tables; rows of
  // whole vectors, the words past 4 * N unused), of the start board and of each lane's.
  static constexpr std::size_t table_words = 8 * ((4 * N + 7) / 8);
  alignas(64) std::array<u64, table_words> start_table_{};
  alignas(64) std::array<std::array<u64, table_words>, lane_count> lane_tables_{};
  // Each lane's codes (draw_by_codes) for its moves code_start_ to code_end_ (the stream's
  // state before the first in code_state_), with room for a last read of 64.
  static constexpr int code_block = 256;
  alignas(64) std::array<std::array<std::uint16_t, code_block + 64>, lane_count> codes_{};
  std::array<int, lane_count> code_start_{};
  std::array<int, lane_count> code_end_{};
  std::array<u64, lane_count> code_state_{};
  std::array<std::uint16_t, max_side * max_side> bit_of_{};  // reading-order cell -> bit
  LaneBits<N> inside_;                                       // the board's cells, in every lane
  State<N> start_;
  std::array<Bits<N>, planes> start_planes_;

  LaneBoards<N> state_;
  // update_movable's boards by colors: a member, since a local one would be cleared (all
  // eight colors and the movable masks) at every call.
  LaneState<N> colored_;
  LaneMask fresh_ = 0;  // lanes whose board is the start board, not yet in state_
  std::array<u64, lane_count> stream_{};
  std::array<int, lane_count> moves_made_{};
  std::array<u64, lane_count> move_bit_{};        // a waiting lane's move: its cell's bit
  std::array<u64, lane_count> move_direction_{};  // and direction
  std::array<double, lane_count> score_{};
  std::array<std::size_t, lane_count> seed_of_{};
  LaneMask live_ = 0;
  std::size_t next_seed_ = 0;
  std::span<const std::uint64_t> seeds_;
  std::span<double> scores_;
};

template <Isa isa>
inline void play_board(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
                       const std::vector<double>& score_table, std::span<double> scores,
                       Products products) {
  const int bits = start.height * (start.width + 1);
  switch ((bits + 63) / 64) {
    case 1: return Kernel<1, isa>(start, rules, score_table, products).play(seeds, scores);
    case 2: return Kernel<2, isa>(start, rules, score_table, products).play(seeds, scores);
    case 3: return Kernel<3, isa>(start, rules, score_table, products).play(seeds, scores);
    case 4: return Kernel<4, isa>(start, rules, score_table, products).play(seeds, scores);
    default: return Kernel<5, isa>(start, rules, score_table, products).play(seeds, scores);
  }
}

// One copy of the kernel per instruction set, everything inlined into it (flatten), so the
// lane vectors live in that set's registers.
#if defined(__x86_64__) || defined(__i386__)
[[gnu::flatten]] __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,popcnt,bmi2"))) void
play_avx512(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
            const std::vector<double>& score_table, std::span<double> scores, Products products) {
  play_board<Isa::avx512>(start, rules, seeds, score_table, scores, products);
}
[[gnu::flatten]] __attribute__((target("avx2,popcnt,bmi2"))) void play_avx2(
    const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
    const std::vector<double>& score_table, std::span<double> scores) {
  play_board<Isa::avx2>(start, rules, seeds, score_table, scores, Products::mul32);
}
#endif
[[gnu::flatten]] void play_portable(const Board& start, const Rules& rules,
                                    std::span<const std::uint64_t> seeds,
                                    const std::vector<double>& score_table,
                                    std::span<double> scores) {
  play_board<Isa::portable>(start, rules, seeds, score_table, scores, Products::mul32);
}

}  // namespace

bool plays(const Rules& rules) {
  return rules.player == Player::random && rules.no_match == NoMatch::undo &&
         rules.score_per == ScorePer::move;
}

bool supported(Products products) { return products == Products::mul32 || avx512_ifma_supported(); }

Products best_products() {
  static const Products best = supported(Products::ifma52) ? Products::ifma52 : Products::mul32;
  return best;
}

std::string_view products_name(Products products) {
  return products == Products::ifma52 ? "ifma52" : "mul32";
}

void play_many(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
               const std::vector<double>& score_table, std::span<double> scores, Isa isa,
               Products products) {
  if (!plays(rules))
    throw std::invalid_argument("match3::lockstep: plays the random player with no_match: undo");
  if (!isa_supported(isa)) {
    throw std::invalid_argument("match3::lockstep: this CPU lacks " + std::string(isa_name(isa)));
  }
#if defined(__x86_64__) || defined(__i386__)
  if (isa == Isa::avx512) {
    if (!supported(products))
      throw std::invalid_argument("match3::lockstep: this CPU lacks AVX-512 IFMA (ifma52)");
    return play_avx512(start, rules, seeds, score_table, scores, products);
  }
  if (isa == Isa::avx2) return play_avx2(start, rules, seeds, score_table, scores);
#endif
  play_portable(start, rules, seeds, score_table, scores);
}

}  // namespace levelforge::match3::lockstep

#undef LEVELFORGE_IFMA_TARGET
