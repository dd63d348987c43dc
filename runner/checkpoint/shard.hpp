#pragma once
// `--shard I/N`: one of N independent jobs (a Slurm array) does the units of work
// u = I, I + N, I + 2N, ... (tasks for ga and sweep, chunks for exhaustive), into a file
// of its own that `levelforge merge` combines with the others.

#include <cstdint>
#include <string>

namespace levelforge {

struct ShardSpec {
  std::uint64_t index = 0;
  std::uint64_t count = 1;

  [[nodiscard]] bool sharded() const { return count > 1; }
  [[nodiscard]] bool owns(std::uint64_t unit) const { return unit % count == index; }
  // "results/x.h5" -> "results/x.shard-0-of-3.h5"; unchanged when not sharded.
  [[nodiscard]] std::string output_for(const std::string& output) const;
  // "I/N", "" when not sharded.
  [[nodiscard]] std::string text() const;

  // "I/N" with 0 <= I < N; throws std::invalid_argument naming the problem.
  static ShardSpec parse(const std::string& text);
};

}  // namespace levelforge
