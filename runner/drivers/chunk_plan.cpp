#include "runner/drivers/chunk_plan.hpp"

#include <algorithm>
#include <iterator>

namespace levelforge {

ChunkPlan::ChunkPlan(const config::Experiment& experiment,
                     const std::vector<std::unique_ptr<ExhaustiveModel>>& models) {
  for (std::uint64_t task = 0; task < experiment.task_count(); ++task) {
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto& driver = experiment.points[point].driver;
    const auto [begin, end] = exhaustive_range(driver, models[point]->index_count());
    const auto chunk = static_cast<std::uint64_t>(driver.integer("chunk"));
    ranges_.push_back({begin, end, chunk, chunk_count_});
    chunk_count_ += (end - begin + chunk - 1) / chunk;
  }
}

std::uint64_t ChunkPlan::task_of(std::uint64_t chunk) const {
  const auto after = std::upper_bound(
      ranges_.begin(), ranges_.end(), chunk,
      [](std::uint64_t id, const TaskRange& range) { return id < range.first_chunk; });
  return static_cast<std::uint64_t>(std::distance(ranges_.begin(), after) - 1);
}

IndexRange ChunkPlan::bounds(std::uint64_t chunk) const {
  const auto& range = ranges_[task_of(chunk)];
  const auto begin = range.begin + (chunk - range.first_chunk) * range.chunk;
  return {begin, std::min(range.end, begin + range.chunk)};
}

std::uint64_t ChunkPlan::chunk_of(std::uint64_t task, std::uint64_t index) const {
  const auto& range = ranges_[task];
  return range.first_chunk + (index - range.begin) / range.chunk;
}

}  // namespace levelforge
