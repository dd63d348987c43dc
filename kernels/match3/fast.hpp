#pragma once
// The bitboard Match-3 playout kernel: the same rules as the scalar reference
// (kernels/match3/reference.hpp, docs/match3.md), bit for bit, only faster.
//
// A board is one bitboard per color plus a mask of filled cells, with a guard column
// (row stride width + 1) so that horizontal shifts never wrap into the next row; runs
// are found with shifts and masks, blocks fall with bit operations. For every direction
// a "movable" mask holds the cells whose move in that direction makes a run; it is
// recomputed only when the board changes, so a random move that changes nothing (most
// of them) costs one draw and one bit test.

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/match3/rules.hpp"

namespace levelforge::match3::fast {

// Plays one playout per seed from `start`; scores[i] is the playout of seeds[i], equal to
// reference::play(start, rules, seeds[i], score_table). The board's own width and height
// are used (as the reference does); scores.size() must equal seeds.size(). Where
// plays_lockstep(rules), in lock-step (lockstep.hpp); everything else on the bitboard kernel.
void play_many(const Board& start, const Rules& rules, std::span<const std::uint64_t> seeds,
               const std::vector<double>& score_table, std::span<double> scores);
// Whether play_many plays these rules in lock-step on this CPU: on AVX-512, the rules
// lockstep::plays, where it is measured faster at every board size.
[[nodiscard]] bool plays_lockstep(const Rules& rules);
// The bitboard kernel alone, one playout at a time, for any rules.
void play_many_bitboard(const Board& start, const Rules& rules,
                        std::span<const std::uint64_t> seeds,
                        const std::vector<double>& score_table, std::span<double> scores);

// One playout (play_many with a single seed).
double play(const Board& start, const Rules& rules, std::uint64_t seed,
            const std::vector<double>& score_table);

}  // namespace levelforge::match3::fast
