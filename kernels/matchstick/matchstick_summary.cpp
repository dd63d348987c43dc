// The matchstick kernel's summary for `levelforge inspect`: how many puzzles the run visited,
// how many were true already, how many are good puzzles, and the solutions per puzzle.

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/matchstick/matchstick.hpp"

namespace levelforge::kernels {

std::vector<std::string> Matchstick::summarize(const ResultTables& results) {
  const auto* counts = results.find("exhaustive/counts");
  if (counts == nullptr || counts->rows().empty()) return {};
  const auto total = [&](std::string_view column) {
    double sum = 0;
    for (const double value : counts->numbers(column)) sum += value;
    return static_cast<std::int64_t>(sum);
  };
  const std::int64_t puzzles = total("puzzles");
  const auto share = [&](std::int64_t part) {
    return puzzles == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(puzzles);
  };
  const std::int64_t already_true = total("true_puzzles");
  const std::int64_t good_puzzles = total("good");
  const std::int64_t solution_total = total("solutions");
  return {
      fmt::format("puzzles: {}; already true: {} ({:.1f}%); good (false, exactly one solution): "
                  "{} ({:.1f}%)",
                  puzzles, already_true, share(already_true), good_puzzles, share(good_puzzles)),
      fmt::format(
          "solutions: {} ({:.3g} per puzzle)", solution_total,
          puzzles == 0 ? 0.0 : static_cast<double>(solution_total) / static_cast<double>(puzzles)),
  };
}

}  // namespace levelforge::kernels
