#include "runner/drivers/exhaustive/chunk_plan.hpp"

#include <algorithm>
#include <iterator>

namespace levelforge {

ChunkPlan::ChunkPlan(const config::Experiment& experiment, const std::vector<PointFacts>& facts) {
  for (std::uint64_t task = 0; task < experiment.task_count(); ++task) {
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto& driver = experiment.points[point].driver;
    const auto [begin, end] = exhaustive_range(driver, facts[point].index_count);
    const auto chunk = static_cast<std::uint64_t>(driver.integer("chunk"));
    ranges_.push_back({begin, end, chunk, chunk_count_, end});
    chunk_count_ += (end - begin + chunk - 1) / chunk;
  }
  if (!ranges_.empty()) cut_tail();
}

void ChunkPlan::cut_tail() {
  constexpr std::uint64_t whole_chunks_in_tail = 2;
  constexpr std::uint64_t smallest_part = 16;  // the tail's chunks end at chunk / 16
  auto& last = ranges_.back();
  const auto size = last.end - last.begin;
  const auto body_chunks =
      size / last.chunk > whole_chunks_in_tail ? size / last.chunk - whole_chunks_in_tail : 0;
  last.tail_begin = last.begin + body_chunks * last.chunk;
  chunk_count_ = last.first_chunk + body_chunks;
  auto piece = last.chunk;
  for (auto start = last.tail_begin; start < last.end; start += piece) {
    piece = std::max<std::uint64_t>({piece / 2, last.chunk / smallest_part, 1});
    piece = std::min(piece, last.end - start);
    tail_starts_.push_back(start);
    ++chunk_count_;
  }
  tail_starts_.push_back(last.end);
}

std::uint64_t ChunkPlan::task_of(std::uint64_t chunk) const {
  const auto after = std::upper_bound(
      ranges_.begin(), ranges_.end(), chunk,
      [](std::uint64_t id, const TaskRange& range) { return id < range.first_chunk; });
  return static_cast<std::uint64_t>(std::distance(ranges_.begin(), after) - 1);
}

IndexRange ChunkPlan::bounds(std::uint64_t chunk) const {
  const auto& range = ranges_[task_of(chunk)];
  const auto body_chunks = (range.tail_begin - range.begin) / range.chunk;
  const auto position = chunk - range.first_chunk;
  if (position >= body_chunks && range.tail_begin < range.end) {
    const auto piece = static_cast<std::size_t>(position - body_chunks);
    return {tail_starts_[piece], tail_starts_[piece + 1]};
  }
  const auto begin = range.begin + position * range.chunk;
  return {begin, std::min(range.end, begin + range.chunk)};
}

std::uint64_t ChunkPlan::chunk_of(std::uint64_t task, std::uint64_t index) const {
  const auto& range = ranges_[task];
  if (index < range.tail_begin) return range.first_chunk + (index - range.begin) / range.chunk;
  const auto after = std::upper_bound(tail_starts_.begin(), tail_starts_.end(), index);
  return range.first_chunk + (range.tail_begin - range.begin) / range.chunk +
         static_cast<std::uint64_t>(after - tail_starts_.begin() - 1);
}

}  // namespace levelforge
