#pragma once
// The lock-step Match-3 playout kernel: eight playouts of one board at a time, one per
// SIMD lane, the same rules and scores as the scalar reference, bit for bit.
//
// Each lane holds one playout's board in the bitboard layout (bitboard.hpp), its colors as
// three bit planes, and its own random stream (PlayoutStream's). The lanes find their next
// move that makes a run (most moves change nothing) one lane after another. On AVX-512 a
// lane's draws are computed ahead, eight consecutive ones at once (its stream advances by
// a constant per draw; the products by IFMA's multiply-adds where the CPU has them), as
// codes: the index of the move's bit in the lane's four movable masks laid end to end;
// 64 codes are then tested against the lane's board by word permutes, and the first hit
// is the move. Elsewhere a lane draws one move at a time, as the bitboard kernel does.
// Once every lane waits with such a move, all of them swap, cascade and recompute their
// movable masks together, in vector registers. A lane whose playout ends takes the next
// seed, so the lanes stay full until the seeds run out. Refill::random draws a lane's new
// blocks one lane at a time (its stream decides how many draws each cascade takes), after
// which its codes are computed again from where its stream stands.
//
// It plays the random player with NoMatch::undo, scored per move (the paper's setting);
// fast::play_many sends every other rule set to the bitboard kernel.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/api/isa.hpp"
#include "kernels/match3/rules.hpp"

namespace levelforge::match3::lockstep {

[[nodiscard]] bool plays(const Rules& rules);

// How the AVX-512 path computes its draws' products: by 32-bit multiplies (every AVX-512
// CPU) or by AVX-512 IFMA's 52-bit multiply-adds (fewer instructions; Ice Lake Xeons and
// later, Zen 4). The other paths ignore it.
enum class Products { mul32, ifma52 };
[[nodiscard]] bool supported(Products products);
// ifma52 where this CPU has IFMA, else mul32.
[[nodiscard]] Products best_products();
[[nodiscard]] std::string_view products_name(Products products);

// fast::play_many's contract (the board and table already checked), on `isa`; throws
// std::invalid_argument for rules it does not play or an instruction set this CPU lacks.
void play_many(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
               const std::vector<double>& score_table, std::span<double> scores, Isa isa,
               Products products = best_products());

}  // namespace levelforge::match3::lockstep
