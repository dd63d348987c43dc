// The tiltmaze kernel's summary for `levelforge inspect`: how many of the run's mazes are
// solvable and how long their shortest solutions are.

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/tiltmaze/tiltmaze.hpp"

namespace levelforge::kernels {

namespace {

// "random mazes: 412 of 1000 solvable (41.2%); shortest solutions: median 7 tilts, longest 19"
// over the rows `keep` selects.
std::string mazes_line(const ResultTable& table, std::string_view what,
                       const std::vector<bool>& keep) {
  const auto solvable = table.numbers("solvable");
  const auto length = table.numbers("length");
  std::size_t count = 0;
  std::vector<double> lengths;
  for (std::size_t row = 0; row < solvable.size(); ++row) {
    if (!keep[row]) continue;
    ++count;
    if (solvable[row] != 0) lengths.push_back(length[row]);
  }
  std::string line = fmt::format("{}: {} of {} solvable", what, lengths.size(), count);
  if (count > 0) {
    line += fmt::format(" ({:.1f}%)",
                        100.0 * static_cast<double>(lengths.size()) / static_cast<double>(count));
  }
  if (!lengths.empty()) {
    std::sort(lengths.begin(), lengths.end());
    line += fmt::format("; shortest solutions: median {} tilts, longest {}",
                        lengths[lengths.size() / 2], lengths.back());
  }
  return line;
}

}  // namespace

std::vector<std::string> TiltMaze::summarize(const ResultTables& results) {
  std::vector<std::string> lines;
  if (const auto* records = results.find("sweep/records")) {
    lines.push_back(
        mazes_line(*records, "random mazes", std::vector<bool>(records->rows().size(), true)));
  }
  if (const auto* best = results.find("ga/best")) {
    // The best of each task (position 0), not every kept genome.
    const auto positions = best->numbers("position");
    std::vector<bool> first(positions.size());
    for (std::size_t row = 0; row < positions.size(); ++row) first[row] = positions[row] == 0;
    lines.push_back(mazes_line(*best, "each task's best maze", first));
  }
  return lines;
}

}  // namespace levelforge::kernels
