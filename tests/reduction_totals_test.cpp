// ReductionTotals: what the exhaustive driver banks, saves and restores of its reductions.
// Hand-computed sums and top-k tables; a save and absorb gives the totals back.

#include "runner/drivers/exhaustive/reduction_totals.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "tests/error_message.hpp"
#include "tests/top_entries.hpp"

namespace levelforge {
namespace {

std::vector<ReductionSpec> totals_specs() {
  return {count_reduction("visited", "a counter"),
          histogram_reduction("h", 0.0, 2.0, 2, "two bins of width 1"),
          top_k_reduction("best", 2, {int_field("digit", "a record field")}, "a top-2")};
}
constexpr std::size_t visited = 0;
constexpr std::size_t hist = 1;
constexpr std::size_t best_two = 2;

// Visits `indices` of one task: counts each, bins index % 3, offers score index % 5.
Reductions visit(const std::vector<ReductionSpec>& specs,
                 const std::vector<std::uint64_t>& indices) {
  Reductions reductions(specs);
  for (const auto index : indices) {
    reductions.begin_index(index);
    reductions.count(visited);
    reductions.histogram(hist, static_cast<double>(index % 3));
    reductions.offer_top(best_two, static_cast<double>(index % 5),
                         [&] { return Record{static_cast<std::int64_t>(index % 10)}; });
  }
  return reductions;
}

using testing::scores_and_indices;

TEST(SlotMaps, CountsTakeOneSlotAndHistogramsTheirBinsAndTwo) {
  const auto specs = totals_specs();
  const SlotMap slots(specs);
  EXPECT_EQ(slots.offset, (std::vector<std::size_t>{0, 1, 5}));
  EXPECT_EQ(slots.per_task, 5U);
}

// Rows (task, score, index, digit) as ranks send them, merged by hand: per task the two best,
// higher score first, equal scores by the smaller index.
TEST(MergeTopRows, KeepsEachTasksBestInTaskThenRankOrder) {
  const RecordLayout layout({int_field("task", ""), real_field("score", ""), int_field("index", ""),
                             int_field("digit", "")});
  const auto pack = [&](const std::vector<Record>& records) {
    std::vector<std::byte> rows(records.size() * layout.row_size());
    for (std::size_t i = 0; i < records.size(); ++i)
      layout.pack(records[i], std::span(rows).subspan(i * layout.row_size(), layout.row_size()),
                  "test");
    return rows;
  };
  const auto unpack = [&](const std::vector<std::byte>& rows) {
    std::vector<Record> records;
    for (std::size_t at = 0; at < rows.size(); at += layout.row_size())
      records.push_back(layout.unpack(std::span(rows).subspan(at, layout.row_size())));
    return records;
  };
  const auto row = [](std::int64_t task, double score, std::int64_t index) {
    return Record{task, score, index, index % 10};
  };
  const auto a = pack({row(0, 4, 3), row(0, 2, 8), row(2, 1, 5)});
  const auto b = pack({row(0, 4, 1), row(0, 3, 2), row(1, 7, 7), row(1, 6, 9), row(2, 1, 4)});
  const auto expected = std::vector<Record>{row(0, 4, 1), row(0, 4, 3), row(1, 7, 7),
                                            row(1, 6, 9), row(2, 1, 4), row(2, 1, 5)};
  EXPECT_EQ(unpack(merge_top_rows(layout, 2, a, b)), expected);
  EXPECT_EQ(unpack(merge_top_rows(layout, 2, b, a)), expected);
  EXPECT_EQ(unpack(merge_top_rows(layout, 1, a, {})),
            (std::vector<Record>{row(0, 4, 3), row(2, 1, 5)}));
  EXPECT_THROW((void)merge_top_rows(layout, 2, std::span(a).first(5), b), std::logic_error);
}

TEST(ReductionTotalsSums, ChunksOfATaskAddUp) {
  const auto specs = totals_specs();
  ReductionTotals totals(specs);
  auto first = visit(specs, {0, 1, 2, 3});  // bins of 0 1 2 0: [0, 1) twice, [1, 2) once, over once
  auto second = visit(specs, {4, 5, 6});    // 1 2 0
  totals.add(7, first);
  totals.add(7, second);
  ASSERT_NE(totals.find(7), nullptr);
  EXPECT_EQ(totals.find(3), nullptr);
  // visited, underflow, [0, 1), [1, 2), overflow
  EXPECT_EQ(totals.find(7)->integers, (std::vector<std::int64_t>{7, 0, 3, 2, 2}));
  // Scores index % 5: 0 1 2 3 4 0 1; the best two are 4@4 and 3@3.
  EXPECT_EQ(scores_and_indices(totals.find(7)->tops[best_two]),
            (std::vector<std::pair<double, std::uint64_t>>{{4.0, 4}, {3.0, 3}}));
}

TEST(ReductionTotalsSums, TiesKeepTheSmallerIndex) {
  const auto specs = totals_specs();
  ReductionTotals totals(specs);
  totals.add_top(best_two, 0, {{1.0, 9, {std::int64_t{9}}}, {1.0, 4, {std::int64_t{4}}}});
  totals.add_top(best_two, 0, {{1.0, 2, {std::int64_t{2}}}, {0.5, 1, {std::int64_t{1}}}});
  EXPECT_EQ(scores_and_indices(totals.find(0)->tops[best_two]),
            (std::vector<std::pair<double, std::uint64_t>>{{1.0, 2}, {1.0, 4}}));
}

TEST(ReductionTotalsSegments, ASavedSegmentAbsorbsToTheSameTotals) {
  const auto specs = totals_specs();
  std::mt19937_64 random(19);
  for (int trial = 0; trial < 50; ++trial) {
    ReductionTotals saved(specs);
    for (int chunk = 0; chunk < 6; ++chunk) {
      std::vector<std::uint64_t> indices(random() % 8);
      for (auto& index : indices) index = random() % 1000;
      auto reductions = visit(specs, indices);
      saved.add(random() % 4, reductions);
    }
    Segment segment;
    saved.save_into(segment);
    ReductionTotals restored(specs);
    restored.absorb(Segment::deserialize(segment.serialize()), 4);
    for (std::uint64_t task = 0; task < 4; ++task) {
      ASSERT_EQ(saved.find(task) == nullptr, restored.find(task) == nullptr) << task;
      if (saved.find(task) == nullptr) continue;
      EXPECT_EQ(restored.find(task)->integers, saved.find(task)->integers);
      EXPECT_EQ(scores_and_indices(restored.find(task)->tops[best_two]),
                scores_and_indices(saved.find(task)->tops[best_two]));
      ASSERT_EQ(restored.find(task)->tops[best_two].size(),
                saved.find(task)->tops[best_two].size());
      for (std::size_t i = 0; i < saved.find(task)->tops[best_two].size(); ++i) {
        EXPECT_EQ(restored.find(task)->tops[best_two][i].record,
                  saved.find(task)->tops[best_two][i].record);
      }
    }
  }
}

TEST(ReductionTotalsSegments, AbsorbingTwoSegmentsAddsThem) {
  const auto specs = totals_specs();
  ReductionTotals one(specs);
  ReductionTotals other(specs);
  auto low = visit(specs, {0, 1});
  auto high = visit(specs, {2, 4});
  one.add(1, low);
  other.add(1, high);
  Segment first;
  Segment second;
  one.save_into(first);
  other.save_into(second);
  ReductionTotals both(specs);
  both.absorb(first, 2);
  both.absorb(second, 2);
  // Values index % 3 of 0 1 2 4: 0 1 2 1, so [0, 1) once, [1, 2) twice, overflow once.
  EXPECT_EQ(both.find(1)->integers, (std::vector<std::int64_t>{4, 0, 1, 2, 1}));
  EXPECT_EQ(scores_and_indices(both.find(1)->tops[best_two]),
            (std::vector<std::pair<double, std::uint64_t>>{{4.0, 4}, {2.0, 2}}));
}

// A table whose records the kernel builds on request: segments carry each entry's task,
// score and index alone (24 bytes), also for an entry that came with a record (a shard's
// rows), and give the entries back without records.
TEST(ReductionTotalsSegments, RecordsOnRequestTravelAsScoreAndIndex) {
  auto specs = totals_specs();
  specs[best_two].records_on_request = true;
  Reductions scores(specs);
  for (const std::uint64_t index : {3U, 9U, 4U}) {
    scores.begin_index(index);
    scores.offer_top(best_two, static_cast<double>(index % 5));
  }
  ReductionTotals saved(specs);
  saved.add(1, scores);
  saved.add_top(best_two, 0, {{7.0, 12, Record{std::int64_t{2}}}});
  Segment segment;
  saved.save_into(segment);
  EXPECT_EQ(segment.bytes("top.best").size(), 3U * 24);
  ReductionTotals restored(specs);
  restored.absorb(Segment::deserialize(segment.serialize()), 2);
  EXPECT_EQ(scores_and_indices(restored.find(1)->tops[best_two]),
            (std::vector<std::pair<double, std::uint64_t>>{{4.0, 4}, {4.0, 9}}));
  EXPECT_EQ(scores_and_indices(restored.find(0)->tops[best_two]),
            (std::vector<std::pair<double, std::uint64_t>>{{7.0, 12}}));
  for (const auto task : {0U, 1U})
    for (const auto& entry : restored.find(task)->tops[best_two]) EXPECT_TRUE(entry.record.empty());
}

// Where the kernel gives its records with its offers, an entry offered without one is a
// KernelError that names the table when the totals are saved.
TEST(ReductionTotalsSegments, AnEntryWithoutItsRecordIsRefused) {
  const auto specs = totals_specs();
  Reductions scores(specs);
  scores.begin_index(3);
  scores.offer_top(best_two, 3.0);
  ReductionTotals totals(specs);
  totals.add(0, scores);
  Segment segment;
  const auto message = testing::error_message<KernelError>([&] { totals.save_into(segment); });
  EXPECT_NE(message.find("top-k table best"), std::string::npos) << message;
}

TEST(ReductionTotalsSegments, AForeignSegmentIsRefused) {
  const auto specs = totals_specs();
  ReductionTotals totals(specs);
  auto reductions = visit(specs, {3});
  totals.add(5, reductions);
  Segment segment;
  totals.save_into(segment);
  ReductionTotals restored(specs);
  // The run has 5 tasks: task 5 is not one of them.
  EXPECT_THROW(restored.absorb(segment, 5), CheckpointError);
  segment.put_ints("slots", {1, 2, 3});
  EXPECT_THROW(restored.absorb(segment, 6), CheckpointError);
}

}  // namespace
}  // namespace levelforge
