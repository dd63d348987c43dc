#pragma once
// Playouts of one board summarized as the paper does: mean and standard deviation of the
// score, the success probability under a normal assumption and counted directly.

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/match3/rules.hpp"

namespace levelforge::match3 {

struct PlayoutStats {
  double mean;
  double std;          // sample standard deviation (n - 1)
  double p_normal;     // P(score > threshold) for a normal with that mean and std
  double p_empirical;  // fraction of playouts with score > threshold
};

PlayoutStats summarize(std::span<const double> scores, double threshold);

// Plays `playouts` playouts of `board` with the bitboard kernel, each seeded by one draw
// of `rng` (the reference gives the same scores; the tests hold them equal).
std::vector<double> play_scores(const Board& board, const Rules& rules, std::int64_t playouts,
                                const std::vector<double>& score_table, Rng& rng);

}  // namespace levelforge::match3
