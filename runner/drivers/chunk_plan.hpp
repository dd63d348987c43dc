#pragma once
// How the exhaustive driver cuts each task's index range into chunks. Chunk ids run over
// all tasks, task by task, so a chunk id names its task and indices wherever the chunk is
// visited, saved, failed or read back from a shard.

#include <cstdint>
#include <memory>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/engine/driver_specs.hpp"
#include "runner/engine/models.hpp"

namespace levelforge {

struct TaskRange {
  std::uint64_t begin;
  std::uint64_t end;
  std::uint64_t chunk;        // indices per chunk
  std::uint64_t first_chunk;  // id of the task's first chunk
};

class ChunkPlan {
 public:
  ChunkPlan(const config::Experiment& experiment,
            const std::vector<std::unique_ptr<ExhaustiveModel>>& models);

  [[nodiscard]] std::uint64_t task_count() const { return ranges_.size(); }
  [[nodiscard]] std::uint64_t chunk_count() const { return chunk_count_; }
  [[nodiscard]] const TaskRange& range(std::uint64_t task) const { return ranges_[task]; }
  [[nodiscard]] std::uint64_t task_of(std::uint64_t chunk) const;
  [[nodiscard]] IndexRange bounds(std::uint64_t chunk) const;
  // The chunk of `task` that holds `index`, an index of the task's range.
  [[nodiscard]] std::uint64_t chunk_of(std::uint64_t task, std::uint64_t index) const;

 private:
  std::vector<TaskRange> ranges_;
  std::uint64_t chunk_count_ = 0;
};

}  // namespace levelforge
