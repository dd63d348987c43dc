// runner/output/output_writers: which ranks open the result file.
#include "runner/output/output_writers.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace levelforge {
namespace {

using Hosts = std::vector<std::string>;
using Ranks = std::vector<int>;

TEST(WriterRanks, OnePerNodeIsTheFirstRankOfEachHost) {
  // Ranks placed round robin over two hosts, then a third host's block.
  const Hosts hosts{"a", "b", "a", "b", "c", "c"};
  EXPECT_EQ(writer_ranks(hosts, {}), (Ranks{0, 1, 4}));
}

TEST(WriterRanks, EveryNthRankOfAHostInItsRankOrder) {
  const Hosts hosts{"a", "b", "a", "b", "a", "a", "b"};
  // a: ranks 0 2 4 5 -> 0, 4; b: ranks 1 3 6 -> 1, 6.
  EXPECT_EQ(writer_ranks(hosts, {2}), (Ranks{0, 1, 4, 6}));
  EXPECT_EQ(writer_ranks(hosts, {1}), (Ranks{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(writer_ranks(hosts, {100}), (Ranks{0, 1}));
}

TEST(WriterRanks, OneHostOneWriterUnlessAsked) {
  const Hosts hosts(32, "node001");
  EXPECT_EQ(writer_ranks(hosts, {}), Ranks{0});
  EXPECT_EQ(writer_ranks(hosts, {16}), (Ranks{0, 16}));
}

TEST(OutputWriters, ParsesNodeAndCounts) {
  EXPECT_EQ(parse_output_writers("node").ranks_per_writer, 0);
  EXPECT_EQ(parse_output_writers("4").ranks_per_writer, 4);
  EXPECT_EQ(output_writers_name(parse_output_writers("node")), "node");
  EXPECT_EQ(output_writers_name(parse_output_writers("12")), "12");
}

TEST(OutputWriters, RefusesWhatIsNotACount) {
  for (const auto* text : {"0", "-2", "", "nodes", "3x", "2.5"}) {
    try {
      (void)parse_output_writers(text);
      ADD_FAILURE() << text;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(std::string("'") + text + "'"), std::string::npos)
          << error.what();
    }
  }
}

}  // namespace
}  // namespace levelforge
