#pragma once
// How the exhaustive driver cuts each task's index range into chunks. Chunk ids run over
// all tasks, task by task, so a chunk id names its task and indices wherever the chunk is
// visited, saved, failed or read back from a shard.
//
// The queue hands chunks out in id order, so the run ends with the last task's last chunks,
// and ranks that find the queue empty wait for the others' last chunk: with 20 chunks on 4
// ranks, a tenth of the run. So the last task ends in a tail of smaller chunks (halving from
// half a chunk down to a sixteenth, over the last two to three chunks' worth of indices),
// and the ranks finish within about a sixteenth of a chunk. The plan depends on the config
// alone, never on the rank count: a checkpoint resumes on any number of ranks.

#include <cstdint>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/drivers/exhaustive/exhaustive_spec.hpp"
#include "runner/drivers/point_facts.hpp"

namespace levelforge {

struct TaskRange {
  std::uint64_t begin;
  std::uint64_t end;
  std::uint64_t chunk;        // indices per chunk, before the tail
  std::uint64_t first_chunk;  // id of the task's first chunk
  std::uint64_t tail_begin;   // where the tail's smaller chunks start (end: no tail)
};

class ChunkPlan {
 public:
  // `facts`: of each point, its index space.
  ChunkPlan(const config::Experiment& experiment, const std::vector<PointFacts>& facts);

  [[nodiscard]] std::uint64_t task_count() const { return ranges_.size(); }
  [[nodiscard]] std::uint64_t chunk_count() const { return chunk_count_; }
  [[nodiscard]] const TaskRange& range(std::uint64_t task) const { return ranges_[task]; }
  [[nodiscard]] std::uint64_t task_of(std::uint64_t chunk) const;
  [[nodiscard]] IndexRange bounds(std::uint64_t chunk) const;
  // The chunk of `task` that holds `index`, an index of the task's range.
  [[nodiscard]] std::uint64_t chunk_of(std::uint64_t task, std::uint64_t index) const;

 private:
  // Cuts the last task's range into whole chunks, then the tail.
  void cut_tail();

  std::vector<TaskRange> ranges_;
  std::uint64_t chunk_count_ = 0;
  std::vector<std::uint64_t> tail_starts_;  // of the tail's chunks, then the task's end
};

}  // namespace levelforge
