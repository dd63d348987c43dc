#include "kernels/match3/evaluation.hpp"

#include <cmath>
#include <numeric>

#include "kernels/match3/fast.hpp"

namespace levelforge::match3 {

PlayoutStats summarize(std::span<const double> scores, double threshold) {
  const auto count = static_cast<double>(scores.size());
  const double mean = std::accumulate(scores.begin(), scores.end(), 0.0) / count;
  double squares = 0;
  std::size_t above = 0;
  for (double score : scores) {
    squares += (score - mean) * (score - mean);
    if (score > threshold) ++above;
  }
  const double std = scores.size() > 1 ? std::sqrt(squares / (count - 1)) : 0.0;
  const double p_normal = std > 0 ? 0.5 * std::erfc((threshold - mean) / (std * std::sqrt(2.0)))
                                  : (mean > threshold ? 1.0 : 0.0);
  return {mean, std, p_normal, static_cast<double>(above) / count};
}

std::vector<double> play_scores(const Board& board, const Rules& rules, std::int64_t playouts,
                                const std::vector<double>& score_table, Rng& rng) {
  std::vector<std::uint64_t> seeds(static_cast<std::size_t>(playouts));
  for (auto& seed : seeds) seed = rng();
  std::vector<double> scores(seeds.size());
  fast::play_many(board, rules, seeds, score_table, scores);
  return scores;
}

}  // namespace levelforge::match3
