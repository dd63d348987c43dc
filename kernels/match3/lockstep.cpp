#include "kernels/match3/lockstep.hpp"

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

using LaneMask = unsigned;  // bit i: lane i
constexpr LaneMask all_lanes = (1U << lane_count) - 1;
// Process the waiting lanes' moves together once this many wait.
constexpr int waiting_batch = lane_count / 2;

// PlayoutStream's output for eight states at once (already advanced): the 128-bit product
// from 32-bit halves, its two halves xor-ed.
inline Lanes stream_output(Lanes state) {
  const Lanes other = state ^ PlayoutStream::mix;
  constexpr u64 low32 = 0xffffffffU;
  const Lanes al = state & low32;
  const Lanes ah = state >> 32U;
  const Lanes bl = other & low32;
  const Lanes bh = other >> 32U;
  const Lanes ll = al * bl;
  const Lanes lh = al * bh;
  const Lanes hl = ah * bl;
  const Lanes middle = (ll >> 32U) + (lh & low32) + (hl & low32);
  const Lanes high = ah * bh + (lh >> 32U) + (hl >> 32U) + (middle >> 32U);
  return high ^ (state * other);
}

// A lane comparison's result (all ones where true) as words.
template <class Comparison>
inline Lanes as_lanes(Comparison compared) {
  return std::bit_cast<Lanes>(compared);
}

// A lane vector of all ones where `mask` has the lane's bit.
inline Lanes lanes_of(LaneMask mask) {
  constexpr Lanes lane_bit = {1, 2, 4, 8, 16, 32, 64, 128};
  return as_lanes((lane_bit & mask) != 0);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) inline LaneMask nonzero_avx512(
    Lanes words) {
  const auto v = std::bit_cast<__m512i>(words);
  return _mm512_test_epi64_mask(v, v);
}
__attribute__((target("avx2"))) inline LaneMask nonzero_avx2(Lanes words) {
  const auto set = as_lanes(words != 0);
  __m256d halves[2];  // NOLINT(modernize-avoid-c-arrays): std::array drops __m256d's alignment
  __builtin_memcpy(halves, &set, sizeof set);
  const auto low = static_cast<LaneMask>(_mm256_movemask_pd(halves[0]));
  const auto high = static_cast<LaneMask>(_mm256_movemask_pd(halves[1]));
  return low | (high << 4U);
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

template <std::size_t N, Isa isa>
class Kernel {
 public:
  Kernel(const Board& start, const Rules& rules, const std::vector<double>& table)
      : table_(table),
        shape_{start.width, start.height, rules.colors, static_cast<unsigned>(start.width + 1)},
        cells_(static_cast<u64>(start.width) * static_cast<u64>(start.height)),
        moves_(static_cast<u64>(rules.moves)),
        refill_(rules.refill == Refill::random),
        row_of_cell_(65536U / static_cast<unsigned>(start.width) + 1) {
    for (int cell = 0; cell < start.width * start.height; ++cell) {
      const auto bit = static_cast<unsigned>(cell + cell / start.width);
      // bit_of (below) computes the row by a multiply; it must agree with the division.
      if (bit != bit_of_cell(static_cast<u64>(cell)))
        throw std::logic_error("match3::lockstep: the row of a cell by multiplication is off");
      inside_.w[bit / 64] |= u64{1} << (bit % 64);
      const auto color = start.cells[static_cast<std::size_t>(cell)];
      if (color == empty_cell) continue;
      start_.color[color].set(bit);
      start_.filled.set(bit);
    }
    shape_.update_movable(start_);
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
    take_seeds(all_lanes);
    LaneMask waiting = 0;
    while (live_ != 0) {
      const LaneMask drawing = live_ & ~waiting;
      if (drawing != 0) waiting |= draw(drawing);
      if (waiting != 0 && (__builtin_popcount(waiting) >= waiting_batch || waiting == live_)) {
        play_matches(waiting);
        waiting = 0;
      }
    }
  }

 private:
  [[nodiscard]] Lanes bit_of_cell(Lanes cell) const {
    return cell + ((cell * row_of_cell_) >> 16U);
  }
  [[nodiscard]] unsigned bit_of_cell(u64 cell) const {
    return static_cast<unsigned>(cell + ((cell * row_of_cell_) >> 16U));
  }

  // One move in each `drawing` lane; returns the lanes whose move makes a run (they wait,
  // their cell and direction kept). A lane that made its last move without one is done.
  LaneMask draw(LaneMask drawing) {
    const Lanes active = lanes_of(drawing);
    stream_ += active & PlayoutStream::increment;
    moves_made_ -= active;  // + 1 in the active lanes
    const Lanes x = stream_output(stream_);
    const Lanes bit = bit_of_cell(((x & 0xffffffffU) * cells_) >> 32U);
    const Lanes direction = x >> 62U;
    const Lanes word = bit >> 6U;
    const Lanes shift = bit & 63U;
    Lanes hit = {};
    for (std::size_t d = 0; d < 4; ++d) {
      const Lanes in_direction = as_lanes(direction == u64{d});
      for (std::size_t w = 0; w < N; ++w) {
        const Lanes chosen = in_direction & as_lanes(word == u64{w});
        hit |= (state_.movable[d].w[w] >> shift) & chosen;
      }
    }
    const LaneMask matched = nonzero_lanes<isa>(hit & active & 1U);
    const Lanes keep = lanes_of(matched);
    move_bit_ = (bit & keep) | (move_bit_ & ~keep);
    move_direction_ = (direction & keep) | (move_direction_ & ~keep);
    const LaneMask last_move = nonzero_lanes<isa>(as_lanes(moves_made_ == moves_));
    if (const LaneMask done = drawing & ~matched & last_move; done != 0) finish(done);
    return matched;
  }

  // The waiting lanes' moves: swap, cascade, new movable masks, scores.
  void play_matches(LaneMask waiting) {
    LaneState<N> state = state_;  // a local copy the compiler can keep in registers
    const Lanes lanes = lanes_of(waiting);
    const Lanes stride = Lanes{} + shape_.stride;
    const auto towards = [&](Direction d) {
      return as_lanes(move_direction_ == static_cast<u64>(d));
    };
    const Lanes step = (towards(up) & -stride) | (towards(down) & stride) |
                       (towards(left) & ~Lanes{}) | (towards(right) & 1U);
    const Lanes other_bit = move_bit_ + step;
    const Lanes one = Lanes{} + 1U;
    LaneBits<N> p;
    LaneBits<N> q;
    for (std::size_t w = 0; w < N; ++w) {
      p.w[w] = (one << (move_bit_ & 63U)) & as_lanes(move_bit_ >> 6U == u64{w});
      q.w[w] = (one << (other_bit & 63U)) & as_lanes(other_bit >> 6U == u64{w});
    }
    const LaneBits<N> both = p | q;
    for (int c = 0; c < shape_.colors; ++c) {
      auto& m = state.color[static_cast<std::size_t>(c)];
      const Lanes differ = as_lanes(((m & p).folded() != 0) ^ ((m & q).folded() != 0)) & lanes;
      for (std::size_t w = 0; w < N; ++w) m.w[w] ^= both.w[w] & differ;
    }
    // Only the waiting lanes cascade: another lane's board may still hold the runs and
    // floating blocks it started with (InitialRuns::keep, holes), which only its own first
    // match resolves. Its "inside" is its filled cells: nothing there can fall.
    LaneBits<N> only_waiting;
    for (std::size_t w = 0; w < N; ++w) only_waiting.w[w] = lanes;
    const LaneBits<N> inside = (inside_ & only_waiting) | andnot(state.filled, only_waiting);
    Lanes removed = {};
    for (;;) {
      const LaneBits<N> run = shape_.runs(state) & only_waiting;
      if (!run.any()) break;
      removed += run.count_words();
      shape_.remove(state, run);
      shape_.gravity(state, inside);
      if (refill_) {
        for (LaneMask lane = waiting; lane != 0; lane &= lane - 1)
          refill(state, __builtin_ctz(lane));
      }
    }
    shape_.update_movable(state);
    state_ = state;
    const LaneMask stuck = ~nonzero_lanes<isa>(shape_.moves_left(state));
    const LaneMask last_move = nonzero_lanes<isa>(as_lanes(moves_made_ == moves_));
    for (LaneMask left_to_score = waiting; left_to_score != 0; left_to_score &= left_to_score - 1) {
      const int lane = __builtin_ctz(left_to_score);
      score_[static_cast<std::size_t>(lane)] += move_score(table_, static_cast<int>(removed[lane]));
    }
    if (const LaneMask done = waiting & (stuck | last_move); done != 0) finish(done);
  }

  // The lane's board refilled from the lane's own stream (Shape::refill, on its words).
  void refill(LaneState<N>& state, int lane) {
    State<N> board;
    const auto take = [lane](Bits<N>& to, const LaneBits<N>& from) {
      for (std::size_t w = 0; w < N; ++w) to.w[w] = from.w[w][lane];
    };
    const auto put = [lane](LaneBits<N>& to, const Bits<N>& from) {
      for (std::size_t w = 0; w < N; ++w) to.w[w][lane] = from.w[w];
    };
    const auto colors = static_cast<std::size_t>(shape_.colors);
    for (std::size_t c = 0; c < colors; ++c) take(board.color[c], state.color[c]);
    take(board.filled, state.filled);
    PlayoutStream stream(stream_[lane]);
    shape_.refill(board, stream);
    stream_[lane] = stream.state();
    for (std::size_t c = 0; c < colors; ++c) put(state.color[c], board.color[c]);
    put(state.filled, board.filled);
  }

  // The lanes' playouts are over: their scores go out, and each takes the next seed.
  void finish(LaneMask lanes) {
    for (LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
      const auto slot = static_cast<std::size_t>(__builtin_ctz(rest));
      scores_[seed_of_[slot]] = score_[slot];
    }
    take_seeds(lanes);
  }

  // Each of the lanes starts the next playout, or goes idle when every seed has one.
  void take_seeds(LaneMask lanes) {
    LaneMask started = 0;
    for (LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
      const int lane = __builtin_ctz(rest);
      const auto slot = static_cast<std::size_t>(lane);
      const LaneMask bit = 1U << static_cast<unsigned>(lane);
      if (next_seed_ == seeds_.size()) {
        live_ &= ~bit;
        continue;
      }
      seed_of_[slot] = next_seed_;
      stream_[lane] = seeds_[next_seed_++];
      score_[slot] = 0;
      started |= bit;
    }
    if (started != 0) start_lanes(started);
  }

  // The lanes' boards become the start board (a blend per word: writing single lanes into
  // vectors in memory would stall every later load of them).
  void start_lanes(LaneMask lanes) {
    const Lanes chosen = lanes_of(lanes);
    const auto blend = [&](LaneBits<N>& lane_bits, const Bits<N>& start) {
      for (std::size_t w = 0; w < N; ++w)
        lane_bits.w[w] = ((Lanes{} + start.w[w]) & chosen) | (lane_bits.w[w] & ~chosen);
    };
    for (std::size_t c = 0; c < max_colors; ++c) blend(state_.color[c], start_.color[c]);
    blend(state_.filled, start_.filled);
    for (std::size_t d = 0; d < 4; ++d) blend(state_.movable[d], start_.movable[d]);
    moves_made_ &= ~chosen;
  }

  const std::vector<double>& table_;
  bitboard::Shape shape_;
  u64 cells_;
  u64 moves_;
  bool refill_;
  u64 row_of_cell_;     // cell * row_of_cell_ >> 16 is cell / width for every cell
  LaneBits<N> inside_;  // the board's cells, in every lane
  State<N> start_;

  LaneState<N> state_;
  Lanes stream_ = {};
  Lanes moves_made_ = {};
  Lanes move_bit_ = {};        // a waiting lane's move: its cell's bit
  Lanes move_direction_ = {};  // and direction
  std::array<double, lane_count> score_{};
  std::array<std::size_t, lane_count> seed_of_{};
  LaneMask live_ = 0;
  std::size_t next_seed_ = 0;
  std::span<const std::uint64_t> seeds_;
  std::span<double> scores_;
};

template <Isa isa>
inline void play_board(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
                       const std::vector<double>& score_table, std::span<double> scores) {
  const int bits = start.height * (start.width + 1);
  switch ((bits + 63) / 64) {
    case 1: return Kernel<1, isa>(start, rules, score_table).play(seeds, scores);
    case 2: return Kernel<2, isa>(start, rules, score_table).play(seeds, scores);
    case 3: return Kernel<3, isa>(start, rules, score_table).play(seeds, scores);
    case 4: return Kernel<4, isa>(start, rules, score_table).play(seeds, scores);
    default: return Kernel<5, isa>(start, rules, score_table).play(seeds, scores);
  }
}

// One copy of the kernel per instruction set, everything inlined into it (flatten), so the
// lane vectors live in that set's registers.
#if defined(__x86_64__) || defined(__i386__)
[[gnu::flatten]] __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,popcnt,bmi2"))) void
play_avx512(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
            const std::vector<double>& score_table, std::span<double> scores) {
  play_board<Isa::avx512>(start, rules, seeds, score_table, scores);
}
[[gnu::flatten]] __attribute__((target("avx2,popcnt,bmi2"))) void play_avx2(
    const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
    const std::vector<double>& score_table, std::span<double> scores) {
  play_board<Isa::avx2>(start, rules, seeds, score_table, scores);
}
#endif
[[gnu::flatten]] void play_portable(const Board& start, const Rules& rules,
                                    std::span<const std::uint64_t> seeds,
                                    const std::vector<double>& score_table,
                                    std::span<double> scores) {
  play_board<Isa::portable>(start, rules, seeds, score_table, scores);
}

}  // namespace

bool plays(const Rules& rules) {
  return rules.player == Player::random && rules.no_match == NoMatch::undo &&
         rules.score_per == ScorePer::move;
}

void play_many(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
               const std::vector<double>& score_table, std::span<double> scores, Isa isa) {
  if (!plays(rules))
    throw std::invalid_argument("match3::lockstep: plays the random player with no_match: undo");
  if (!isa_supported(isa)) {
    throw std::invalid_argument("match3::lockstep: this CPU lacks " + std::string(isa_name(isa)));
  }
#if defined(__x86_64__) || defined(__i386__)
  if (isa == Isa::avx512) return play_avx512(start, rules, seeds, score_table, scores);
  if (isa == Isa::avx2) return play_avx2(start, rules, seeds, score_table, scores);
#endif
  play_portable(start, rules, seeds, score_table, scores);
}

}  // namespace levelforge::match3::lockstep
