// runner/drivers/exhaustive_output's solution offsets under 1, 2 and 3 ranks: chunks held by
// ranks in scrambled order get the first row that counting every earlier chunk gives.
#include "runner/drivers/exhaustive/exhaustive_output.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/api/record.hpp"
#include "kernels/api/reductions.hpp"
#include "runner/checkpoint/segment.hpp"

namespace levelforge {
namespace exhaustive_output_test {

// Chunk c has (c * 7) % 5 solutions (0 for some); rank (c * 5 + 3) % P holds it, chunks
// added in descending order, as dynamic scheduling and resumes leave them.
TEST(SolutionStore, OffsetsCountEveryEarlierChunkOnAnyRank) {
  const auto world = mpi::Comm::world();
  const ExhaustiveSpec::Binding capability{{}, RecordLayout({int_field("value", "a value")}), {}};
  for (const std::uint64_t chunk_count : {1U, 2U, 17U, 400U}) {
    SolutionStore store(capability);
    const auto holder = [&](std::uint64_t chunk) {
      return static_cast<int>((chunk * 5 + 3) % static_cast<std::uint64_t>(world.size()));
    };
    const auto solutions_of = [](std::uint64_t chunk) { return (chunk * 7) % 5; };
    for (auto chunk = chunk_count; chunk-- > 0;) {
      if (holder(chunk) != world.rank()) continue;
      Reductions found(capability.reductions, &capability.solutions);
      for (std::uint64_t i = 0; i < solutions_of(chunk); ++i) {
        found.begin_index(chunk * 10 + i);
        found.solution({static_cast<std::int64_t>(i)});
      }
      store.add(chunk, 0, found);
      ASSERT_EQ(found.solution_count(), 0U);
    }
    const auto offsets = store.offsets(chunk_count, world);
    std::uint64_t total = 0;
    for (std::uint64_t chunk = 0; chunk < chunk_count; ++chunk) {
      if (holder(chunk) == world.rank() && solutions_of(chunk) > 0) {
        ASSERT_TRUE(offsets.first_row.contains(chunk)) << "chunk " << chunk;
        EXPECT_EQ(offsets.first_row.at(chunk), total) << "chunk " << chunk;
      }
      total += solutions_of(chunk);
    }
    EXPECT_EQ(offsets.total_rows, total) << chunk_count << " chunks";
  }
}

// Rows written in place by the kernel (receive_from) and rows copied from the reductions'
// own make the same saved rows; a chunk that failed leaves none.
TEST(SolutionStore, RowsWrittenInPlaceEqualRowsCopied) {
  const ExhaustiveSpec::Binding capability{
      {}, RecordLayout({text_field("name", 4, "a name"), int_field("value", "a value")}), {}};
  SolutionStore in_place(capability);
  SolutionStore copied(capability);
  const auto visit = [&](Reductions& found, std::uint64_t chunk) {
    for (std::uint64_t i = 0; i < chunk % 3; ++i) {
      found.begin_index(chunk * 10 + i);
      found.solution_row()
          .text(0, std::string(i + 1, 'a'))
          .integer(1, static_cast<std::int64_t>(chunk));
    }
  };
  Reductions written(capability.reductions, &capability.solutions);
  Reductions kept(capability.reductions, &capability.solutions);
  for (std::uint64_t chunk = 0; chunk < 7; ++chunk) {
    in_place.receive_from(written);
    visit(written, chunk);
    if (chunk == 5) {  // fails: its rows are dropped
      written.clear_solutions();
      continue;
    }
    in_place.add(chunk, chunk / 2, written);
    visit(kept, chunk);
    copied.add(chunk, chunk / 2, kept);
  }
  Segment a;
  Segment b;
  in_place.save_new(a);
  copied.save_new(b);
  const auto rows = a.bytes("solutions");
  const auto expected = b.bytes("solutions");
  EXPECT_TRUE(std::equal(rows.begin(), rows.end(), expected.begin(), expected.end()));
  const auto chunks = a.ints("solution_chunks");
  const auto expected_chunks = b.ints("solution_chunks");
  EXPECT_EQ(std::vector<std::int64_t>(chunks.begin(), chunks.end()),
            std::vector<std::int64_t>(expected_chunks.begin(), expected_chunks.end()));
  EXPECT_EQ(std::vector<std::int64_t>(chunks.begin(), chunks.end()),
            (std::vector<std::int64_t>{1, 1, 2, 2, 4, 1}));
  EXPECT_EQ(rows.size(), 4 * (16 + 12));
}

}  // namespace exhaustive_output_test
}  // namespace levelforge
