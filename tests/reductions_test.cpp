#include "kernels/api/reductions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "tests/top_entries.hpp"

namespace levelforge {
namespace reductions_test {
namespace {

std::vector<ReductionSpec> specs() {
  return {
      count_reduction("visited", "a counter"),
      count_reduction("other", "another counter"),
      // Four bins of width 0.5 over [-1, 1): exact binary boundaries.
      histogram_reduction("h", -1.0, 1.0, 4, "a histogram"),
      top_k_reduction("top", 3, {int_field("index", "the index offered")}, "a top-3"),
  };
}
constexpr std::size_t visited = 0;
constexpr std::size_t other = 1;
constexpr std::size_t hist = 2;
constexpr std::size_t top = 3;

using testing::scores_and_indices;

TEST(Reductions, StartEmpty) {
  const auto s = specs();
  Reductions r(s);
  EXPECT_EQ(r.counts(), (std::vector<std::int64_t>{0, 0, 0, 0}));
  ASSERT_EQ(r.histograms().size(), 4U);
  EXPECT_EQ(r.histograms()[hist], (std::vector<std::int64_t>(6, 0)));
  EXPECT_TRUE(r.histograms()[visited].empty());
  EXPECT_TRUE(r.tops()[top].empty());
  EXPECT_EQ(r.solution_count(), 0U);
}

TEST(Reductions, CountAddsAmountsToItsOwnCounterOnly) {
  const auto s = specs();
  Reductions r(s);
  r.count(visited);
  r.count(visited);
  r.count(other, 5);
  r.count(other, -2);
  EXPECT_EQ(r.counts()[visited], 2);
  EXPECT_EQ(r.counts()[other], 3);
  EXPECT_EQ(r.counts()[hist], 0);
}

TEST(Reductions, HistogramBinsEdgesUnderflowAndOverflow) {
  const auto s = specs();
  Reductions r(s);
  // bins: 0 underflow, 1 [-1,-0.5), 2 [-0.5,0), 3 [0,0.5), 4 [0.5,1), 5 overflow.
  r.histogram(hist, -1.0);                                      // exactly low -> 1
  r.histogram(hist, std::nextafter(-1.0, -2.0));                // just below low -> 0
  r.histogram(hist, -5.0);                                      // below low -> 0
  r.histogram(hist, -std::numeric_limits<double>::infinity());  // -> 0
  r.histogram(hist, -0.5);                                      // inner edge -> 2
  r.histogram(hist, std::nextafter(-0.5, -1.0));                // -> 1
  r.histogram(hist, 0.0);                                       // -> 3
  r.histogram(hist, 0.25);                                      // -> 3
  r.histogram(hist, 0.5);                                       // -> 4
  r.histogram(hist, std::nextafter(1.0, 0.0));                  // just below high -> 4
  r.histogram(hist, 1.0);                                       // high itself -> 5
  r.histogram(hist, 7.0);                                       // -> 5
  r.histogram(hist, std::numeric_limits<double>::infinity());   // -> 5
  r.histogram(hist, std::numeric_limits<double>::quiet_NaN());  // NaN -> 5
  EXPECT_EQ(r.histograms()[hist], (std::vector<std::int64_t>{3, 2, 1, 2, 2, 4}));
}

TEST(Reductions, HistogramJustBelowHighNeverOverflowsTheLastRegularBin) {
  // A width that is not a power of two: rounding in (value - low) / width must not push a
  // value below `high` into the overflow bin.
  const std::vector<ReductionSpec> s{histogram_reduction("h", 0.1, 0.7, 3, "")};
  Reductions r(s);
  r.histogram(0, std::nextafter(0.7, 0.0));
  r.histogram(0, 0.1);
  EXPECT_EQ(r.histograms()[0], (std::vector<std::int64_t>{0, 1, 0, 1, 0}));
}

TEST(Reductions, CollatzStyleIntegerBinsPutEachIntegerInItsOwnBin) {
  const std::vector<ReductionSpec> s{histogram_reduction("steps", 0, 1000, 1000, "")};
  Reductions r(s);
  for (int v = 0; v < 1000; ++v) r.histogram(0, static_cast<double>(v));
  r.histogram(0, 1000.0);
  const auto& bins = r.histograms()[0];
  ASSERT_EQ(bins.size(), 1002U);
  EXPECT_EQ(bins[0], 0);
  for (std::size_t b = 1; b <= 1000; ++b) ASSERT_EQ(bins[b], 1) << "bin " << b;
  EXPECT_EQ(bins[1001], 1);
}

TEST(Reductions, WeightedHistogramAddsTheWeightToOneBin) {
  const auto s = specs();
  Reductions r(s);
  r.histogram(hist, 0.25, 7);  // bin [0, 0.5): third regular bin, index 3
  r.histogram(hist, 0.3);
  r.histogram(hist, 5.0, 2);  // overflow
  EXPECT_EQ(r.histograms()[hist], (std::vector<std::int64_t>{0, 0, 0, 8, 0, 2}));
}

TEST(Reductions, HistogramCountsAddEachValuesTally) {
  const auto s = specs();
  Reductions r(s);
  const std::vector<std::int64_t> tally{0, 3, 0, 2};  // three 1s, two 3s (overflow: >= 1)
  r.histogram_counts(hist, tally);
  EXPECT_EQ(r.histograms()[hist], (std::vector<std::int64_t>{0, 0, 0, 0, 0, 5}));
  const std::vector<std::int64_t> zero_once{1};  // one 0: bin [0, 0.5)
  r.histogram_counts(hist, zero_once);
  EXPECT_EQ(r.histograms()[hist], (std::vector<std::int64_t>{0, 0, 0, 1, 0, 5}));
}

TEST(Reductions, TopFloorIsMinusInfinityUntilFullThenTheWorstKept) {
  const auto s = specs();
  Reductions r(s);
  const auto offer = [&](std::uint64_t index, double score) {
    r.begin_index(index);
    r.offer_top(top, score, [&] { return Record{static_cast<std::int64_t>(index)}; });
  };
  offer(0, 5.0);
  offer(1, 2.0);
  EXPECT_EQ(r.top_floor(top), -std::numeric_limits<double>::infinity());
  offer(2, 4.0);
  EXPECT_EQ(r.top_floor(top), 2.0);
  offer(3, 3.0);
  EXPECT_EQ(r.top_floor(top), 3.0);
}

TEST(Reductions, TopKKeepsTheKBestWithTiesBrokenBySmallerIndex) {
  const auto s = specs();
  Reductions r(s);
  int calls = 0;
  // Offers (index, score) in this order; the table has k = 3.
  const std::vector<std::pair<std::uint64_t, double>> offers{
      {0, 5.0},   // enters (table not full)                -> {5@0}
      {1, 3.0},   // enters                                  -> {5@0, 3@1}
      {2, 5.0},   // enters                                  -> {5@0, 5@2, 3@1}
      {3, 7.0},   // enters, evicts 3@1                      -> {7@3, 5@0, 5@2}
      {4, 3.0},   // rejected (worse than 5@2)
      {5, 5.0},   // rejected (ties 5@2 with a larger index)
      {6, 7.0},   // enters, evicts 5@2                      -> {7@3, 7@6, 5@0}
      {10, 7.0},  // enters, evicts 5@0                      -> {7@3, 7@6, 7@10}
      {4, 7.0},   // enters (ties 7@10, smaller index)       -> {7@3, 7@4, 7@6}
      {11, 7.0},  // rejected (ties 7@6, larger index)
      {7, 6.0},   // rejected (lower score)
  };
  for (const auto& [index, score] : offers) {
    r.begin_index(index);
    r.offer_top(top, score, [&, i = index] {
      ++calls;
      return Record{static_cast<std::int64_t>(i)};
    });
  }
  EXPECT_EQ(calls, 7);
  const auto sorted = r.sorted_top(top);
  EXPECT_EQ(scores_and_indices(sorted),
            (std::vector<std::pair<double, std::uint64_t>>{{7.0, 3}, {7.0, 4}, {7.0, 6}}));
  // Each kept record is the one made when its entry was offered.
  for (const auto& entry : sorted) {
    ASSERT_EQ(entry.record.size(), 1U);
    EXPECT_EQ(std::get<std::int64_t>(entry.record[0]), static_cast<std::int64_t>(entry.index));
  }
  // Unsorted table is a heap with the worst entry first.
  ASSERT_EQ(r.tops()[top].size(), 3U);
  EXPECT_EQ(r.tops()[top].front().index, 6U);
}

TEST(Reductions, MakeRecordIsNotCalledForRejectedEntries) {
  const auto s = specs();
  Reductions r(s);
  int calls = 0;
  const auto offer = [&](std::uint64_t index, double score) {
    r.begin_index(index);
    r.offer_top(top, score, [&] {
      ++calls;
      return Record{std::int64_t{0}};
    });
  };
  offer(0, 10.0);
  offer(1, 10.0);
  offer(2, 10.0);
  EXPECT_EQ(calls, 3);
  for (std::uint64_t i = 3; i < 100; ++i) offer(i, i % 2 == 0 ? 10.0 : 1.0);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(r.tops()[top].size(), 3U);
}

// Offers without a record (TopRecordKernel) keep the same entries as offers with one, in
// the same order, and leave the records empty for the runner to build.
TEST(Reductions, OffersWithoutRecordsKeepTheSameEntriesWithEmptyRecords) {
  const auto s = specs();
  Reductions with_records(s);
  Reductions scores_alone(s);
  const std::vector<std::pair<std::uint64_t, double>> offers{
      {0, 5.0}, {1, 3.0}, {2, 5.0}, {3, 7.0}, {4, 3.0}, {5, 5.0}, {6, 7.0}, {10, 7.0}, {4, 7.0}};
  for (const auto& [index, score] : offers) {
    with_records.begin_index(index);
    scores_alone.begin_index(index);
    const bool entered = with_records.offer_top(top, score, [] { return Record{std::int64_t{1}}; });
    EXPECT_EQ(scores_alone.offer_top(top, score), entered) << "index " << index;
    EXPECT_EQ(scores_alone.top_floor(top), with_records.top_floor(top)) << "index " << index;
  }
  const auto sorted = scores_alone.sorted_top(top);
  EXPECT_EQ(scores_and_indices(sorted),
            (std::vector<std::pair<double, std::uint64_t>>{{7.0, 3}, {7.0, 4}, {7.0, 6}}));
  for (const auto& entry : sorted) EXPECT_TRUE(entry.record.empty());
}

TEST(Reductions, SortedTopWithFewerThanKEntriesIsSortedAndLeavesTablesAlone) {
  const auto s = specs();
  Reductions r(s);
  r.begin_index(9);
  r.offer_top(top, 1.0, [] { return Record{std::int64_t{9}}; });
  r.begin_index(2);
  r.offer_top(top, 4.0, [] { return Record{std::int64_t{2}}; });
  const auto sorted = r.sorted_top(top);
  EXPECT_EQ(scores_and_indices(sorted),
            (std::vector<std::pair<double, std::uint64_t>>{{4.0, 2}, {1.0, 9}}));
  EXPECT_EQ(r.tops()[top].size(), 2U);
  EXPECT_TRUE(r.sorted_top(visited).empty());
}

TEST(Reductions, SolutionsCarryTheIndexSetByBeginIndex) {
  const auto s = specs();
  const RecordLayout layout({int_field("value", "a value")});
  Reductions r(s, &layout);
  r.solution({std::int64_t{1}});  // before any begin_index: index 0
  r.begin_index(42);
  r.solution({std::int64_t{2}});
  r.solution({std::int64_t{3}});
  r.begin_index(7);
  r.solution({std::int64_t{4}});
  ASSERT_EQ(r.solution_count(), 4U);
  const std::vector<std::uint64_t> indices{r.solution_index(0), r.solution_index(1),
                                           r.solution_index(2), r.solution_index(3)};
  EXPECT_EQ(indices, (std::vector<std::uint64_t>{0, 42, 42, 7}));
  EXPECT_EQ(r.solution_record(3), (Record{std::int64_t{4}}));
  EXPECT_EQ(r.solution_rows().size(), 4 * sizeof(std::int64_t));
  r.clear_solutions();
  EXPECT_EQ(r.solution_count(), 0U);
  EXPECT_TRUE(r.solution_rows().empty());
}

// A row written in place holds what a record of the same values packs to; unwritten text
// is empty.
TEST(Reductions, SolutionRowsWrittenInPlaceEqualRecords) {
  const auto s = specs();
  const RecordLayout layout({text_field("name", 6, "a name"), int_field("n", "a number"),
                             real_field("x", "a real"), text_field("note", 4, "a note")});
  Reductions r(s, &layout);
  r.begin_index(3);
  r.solution({std::string("ab"), std::int64_t{-5}, 0.25, std::string("")});
  r.solution_row().real(2, 0.25).text(0, "ab").integer(1, -5);
  ASSERT_EQ(r.solution_count(), 2U);
  EXPECT_EQ(r.solution_index(1), 3U);
  EXPECT_EQ(r.solution_record(1),
            (Record{std::string("ab"), std::int64_t{-5}, 0.25, std::string("")}));
  const auto rows = r.solution_rows();
  ASSERT_EQ(rows.size(), 2 * layout.row_size());
  EXPECT_TRUE(std::equal(rows.begin(), rows.begin() + 26, rows.begin() + 26));
}

// A solution that does not fit its fields throws and leaves no row; without fields none is
// taken.
TEST(Reductions, SolutionsThatDoNotFitLeaveNoRow) {
  const auto s = specs();
  const RecordLayout layout({text_field("name", 3, "a name"), int_field("n", "a number")});
  Reductions r(s, &layout);
  r.solution({std::string("abc"), std::int64_t{1}});
  EXPECT_THROW(r.solution({std::string("abcd"), std::int64_t{2}}), KernelError);
  EXPECT_THROW(r.solution({std::int64_t{2}, std::int64_t{2}}), KernelError);
  EXPECT_THROW(r.solution({std::string("a")}), KernelError);
  EXPECT_EQ(r.solution_count(), 1U);
  EXPECT_EQ(r.solution_rows().size(), layout.row_size());
  try {
    r.solution_row().text(0, "abcd");
    FAIL() << "a text longer than its field was taken";
  } catch (const KernelError& error) {
    EXPECT_STREQ(error.what(),
                 "solution record: field 'name' holds 4 bytes, at most 3 are declared");
  }
  Reductions without(s);
  EXPECT_THROW(without.solution({std::int64_t{1}}), KernelError);
  EXPECT_THROW((void)without.solution_row(), KernelError);
  EXPECT_EQ(without.solution_count(), 0U);
}

// Rows written into a RowBuffer: each after its prefix, dropped by clear_solutions down to
// where they began, kept by release_solutions.
TEST(Reductions, SolutionsWrittenIntoARowBufferLeaveTheirPrefix) {
  const auto s = specs();
  const RecordLayout layout({text_field("name", 3, "a name"), int_field("n", "a number")});
  RowBuffer rows;
  (void)rows.extend(5);  // rows of an earlier owner
  Reductions r(s, &layout);
  r.write_solutions_into(rows, 8);
  EXPECT_TRUE(r.writes_into(rows));
  r.begin_index(4);
  r.solution({std::string("ab"), std::int64_t{7}});
  r.solution_row().text(0, "xyz").integer(1, 9);
  EXPECT_THROW(r.solution({std::string("abcd"), std::int64_t{1}}), KernelError);
  ASSERT_EQ(r.solution_count(), 2U);
  EXPECT_EQ(rows.size(), 5 + 2 * (8 + layout.row_size()));
  EXPECT_EQ(r.solution_record(0), (Record{std::string("ab"), std::int64_t{7}}));
  EXPECT_EQ(r.solution_record(1), (Record{std::string("xyz"), std::int64_t{9}}));
  EXPECT_EQ(r.solution_index(1), 4U);
  r.clear_solutions();
  EXPECT_EQ(rows.size(), 5U);
  EXPECT_EQ(r.solution_count(), 0U);
  r.solution({std::string("a"), std::int64_t{1}});
  r.release_solutions();
  EXPECT_EQ(r.solution_count(), 0U);
  r.clear_solutions();  // the released row stays
  EXPECT_EQ(rows.size(), 5 + 8 + layout.row_size());
}

TEST(Reductions, RanksBeforeIsHigherScoreThenSmallerIndex) {
  EXPECT_TRUE(ranks_before({2.0, 9, {}}, {1.0, 0, {}}));
  EXPECT_FALSE(ranks_before({1.0, 0, {}}, {2.0, 9, {}}));
  EXPECT_TRUE(ranks_before({1.0, 3, {}}, {1.0, 4, {}}));
  EXPECT_FALSE(ranks_before({1.0, 4, {}}, {1.0, 3, {}}));
  EXPECT_FALSE(ranks_before({1.0, 4, {}}, {1.0, 4, {}}));
}

// Offering the same entries in any order keeps the same table: the brute-force answer.
TEST(Reductions, TopKIsIndependentOfOfferOrder) {
  constexpr std::size_t k = 10;
  const std::vector<ReductionSpec> s{top_k_reduction("top", k, {int_field("i", "")}, "")};
  std::mt19937_64 random(12345);
  std::vector<std::pair<double, std::uint64_t>> entries;
  for (std::uint64_t index = 0; index < 300; ++index) {
    // Few distinct scores: many ties, decided by the index.
    entries.emplace_back(static_cast<double>(random() % 8), index);
  }
  auto expected = entries;
  std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  expected.resize(k);

  for (int permutation = 0; permutation < 50; ++permutation) {
    std::shuffle(entries.begin(), entries.end(), random);
    Reductions r(s);
    for (const auto& [score, index] : entries) {
      r.begin_index(index);
      r.offer_top(0, score, [i = index] { return Record{static_cast<std::int64_t>(i)}; });
    }
    const auto sorted = r.sorted_top(0);
    ASSERT_EQ(scores_and_indices(sorted), expected) << "permutation " << permutation;
    for (const auto& entry : sorted) {
      ASSERT_EQ(std::get<std::int64_t>(entry.record[0]), static_cast<std::int64_t>(entry.index));
    }
  }
}

}  // namespace
}  // namespace reductions_test
}  // namespace levelforge
