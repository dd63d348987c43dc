// FailureLog on 1, 2 and 3 ranks: what a segment holds of the failures and what a resume
// restores from segments spread over the ranks, with hand-made failures.
#include "runner/drivers/failure_log.hpp"

#include <gtest/gtest.h>

#include "runner/checkpoint/checkpoint_store.hpp"

namespace levelforge {
namespace {

Failure failure(std::uint64_t unit, std::uint64_t task, std::int64_t session,
                const std::string& message, std::int64_t begin = -1, std::int64_t end = -1) {
  return {unit, task, begin, end, 0, session, 0.25, message};
}

class FailureLogTest : public ::testing::Test {
 protected:
  mpi::Comm world_ = mpi::Comm::world();
};

TEST_F(FailureLogTest, ASegmentHoldsTheFailuresSinceTheLastOne) {
  FailureLog log;
  Segment none;
  log.save_into(none);
  EXPECT_TRUE(none.empty());  // no failure: the segment stays empty and is not written
  log.add(failure(4, 4, 0, "first"));
  log.add(failure(9, 3, 0, "chunk", 900, 1200));
  EXPECT_EQ(log.unsaved(), 2U);
  Segment segment;
  log.save_into(segment);
  EXPECT_EQ(log.unsaved(), 0U);
  EXPECT_EQ(std::vector<std::int64_t>(segment.ints(segment_key::failed_units).begin(),
                                      segment.ints(segment_key::failed_units).end()),
            (std::vector<std::int64_t>{4, 9}));
  // task, begin, end, rank, session, microseconds per failure
  EXPECT_EQ(std::vector<std::int64_t>(segment.ints(segment_key::failures).begin(),
                                      segment.ints(segment_key::failures).end()),
            (std::vector<std::int64_t>{4, -1, -1, 0, 0, 250000, 3, 900, 1200, 0, 0, 250000}));
  log.add(failure(5, 5, 0, "second"));
  Segment next;
  log.save_into(next);
  EXPECT_EQ(next.ints(segment_key::failed_units).size(), 1U);
}

// Rank r's segment holds the failures of session r: unit 7 failed in every session, unit
// 8 only in the first; unit 11 failed, then succeeded in a retry.
std::vector<Segment> restored_on(int rank) {
  FailureLog written;
  written.add(failure(7, 7, rank, "unit 7 in session " + std::to_string(rank)));
  if (rank == 0) written.add(failure(8, 8, 0, "unit 8"));
  if (rank == 0) written.add(failure(11, 11, 0, "unit 11"));
  Segment segment;
  written.save_into(segment);
  return {segment};
}

TEST_F(FailureLogTest, AResumeKeepsTheNewestFailureOfEachUnitOnce) {
  FailureLog log;
  const std::vector<std::uint64_t> succeeded{11};
  const auto units = log.restore(restored_on(world_.rank()), succeeded, 0, world_);
  EXPECT_EQ(units, (std::vector<std::uint64_t>{7, 8}));
  EXPECT_EQ(log.unsaved(), 0U);  // already in the checkpoint
  const auto all = log.gather(world_);
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].unit, 7U);
  EXPECT_EQ(all[0].session, world_.size() - 1);
  EXPECT_EQ(all[0].message, "unit 7 in session " + std::to_string(world_.size() - 1));
  EXPECT_EQ(all[0].wall_seconds, 0.25);
  EXPECT_EQ(all[1].message, "unit 8");
  EXPECT_TRUE(log.retried().empty());
}

TEST_F(FailureLogTest, ARetryForgetsThemAndNamesTheirUnits) {
  FailureLog log;
  const auto units = log.restore(restored_on(world_.rank()), {11}, world_.size(), world_);
  EXPECT_TRUE(units.empty());
  EXPECT_TRUE(log.gather(world_).empty());
  EXPECT_EQ(log.retried(), (std::vector<std::uint64_t>{7, 8}));
}

// A retry that was stopped in its first session (1) and continued: unit 8's failure is of
// the session before the retry and runs again; unit 7 failed again in the retry (session
// size - 1 >= 1 on 2 and 3 ranks) and stays a failure.
TEST_F(FailureLogTest, AContinuedRetryKeepsTheFailuresOfItsOwnSessions) {
  FailureLog log;
  const auto units = log.restore(restored_on(world_.rank()), {11}, 1, world_);
  const bool seven_failed_in_the_retry = world_.size() > 1;
  const std::vector<std::uint64_t> kept =
      seven_failed_in_the_retry ? std::vector<std::uint64_t>{7} : std::vector<std::uint64_t>{};
  const std::vector<std::uint64_t> again =
      seven_failed_in_the_retry ? std::vector<std::uint64_t>{8} : std::vector<std::uint64_t>{7, 8};
  EXPECT_EQ(units, kept);
  EXPECT_EQ(log.retried(), again);
}

TEST_F(FailureLogTest, GatheredFailuresAreOrderedByTaskThenRange) {
  FailureLog log;
  const auto rank = static_cast<std::uint64_t>(world_.rank());
  // Every rank adds chunks of task 2 - rank, in decreasing index order.
  log.add(failure(10 + rank, 2 - rank, 0, "b", 500, 600));
  log.add(failure(20 + rank, 2 - rank, 0, "a", 100, 200));
  const auto all = log.gather(world_);
  ASSERT_EQ(all.size(), 2U * static_cast<std::size_t>(world_.size()));
  for (std::size_t i = 1; i < all.size(); ++i) {
    EXPECT_TRUE(all[i - 1].task < all[i].task ||
                (all[i - 1].task == all[i].task && all[i - 1].begin < all[i].begin));
  }
  EXPECT_EQ(all.front().message, "a");
}

TEST_F(FailureLogTest, ASegmentWhoseMessagesDoNotMatchIsRefused) {
  Segment segment;
  segment.put_ints(segment_key::failed_units, {3});
  segment.put_ints(segment_key::failures, {3, -1, -1, 0, 0, 0});
  segment.put_bytes(segment_key::failure_messages, {});  // the message is missing
  FailureLog log;
  EXPECT_THROW((void)log.restore({segment}, {}, 0, world_), CheckpointError);
}

}  // namespace
}  // namespace levelforge
