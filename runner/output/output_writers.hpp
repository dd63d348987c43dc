#pragma once
// Which ranks open the result file. Every rank opening one shared file makes the parallel
// file system serve P clients and MPI-IO's collective buffering shuffle P ranks' pieces;
// instead rows travel to a few writers (one per node by default) and only they open it.

#include <cstdint>
#include <string>
#include <vector>

namespace levelforge {

struct OutputWriters {
  // Ranks of one host served by one writer; 0: the whole host (one writer per node).
  std::int64_t ranks_per_writer = 0;
};

// "node" or a positive count; throws std::invalid_argument naming the text otherwise.
[[nodiscard]] OutputWriters parse_output_writers(const std::string& text);
[[nodiscard]] std::string output_writers_name(OutputWriters writers);

// The ranks that write, increasing, from each rank's host name (`hosts[r]` of rank r): on
// each host, the first of every `ranks_per_writer` of its ranks in rank order. Rank 0 always
// writes.
[[nodiscard]] std::vector<int> writer_ranks(const std::vector<std::string>& hosts,
                                            OutputWriters writers);

}  // namespace levelforge
