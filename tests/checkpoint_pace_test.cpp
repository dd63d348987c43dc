#include <gtest/gtest.h>

#include <thread>

#include "runner/drivers/driver_context.hpp"

namespace levelforge {
namespace {

config::Experiment with_pace(std::int64_t every, std::int64_t seconds) {
  config::Experiment experiment;
  experiment.checkpoint_every = every;
  experiment.checkpoint_seconds = seconds;
  return experiment;
}

TEST(CheckpointPace, EveryCountsUnitsAndNeverFiresWithNothingUnsaved) {
  CheckpointPace pace(with_pace(3, 60), true);
  EXPECT_FALSE(pace.due(0));
  EXPECT_FALSE(pace.due(2));
  EXPECT_TRUE(pace.due(3));
  EXPECT_TRUE(pace.due(7));
}

TEST(CheckpointPace, WithoutACheckpointNothingIsEverDue) {
  const CheckpointPace pace(with_pace(1, 1), false);
  EXPECT_FALSE(pace.due(1000));
}

TEST(CheckpointPace, ByTimeWhenEveryIsZero) {
  CheckpointPace pace(with_pace(0, 1), true);
  EXPECT_FALSE(pace.due(1'000'000)) << "one second has not passed";
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_TRUE(pace.due(1));
  EXPECT_FALSE(pace.due(0));
  pace.saved();
  EXPECT_FALSE(pace.due(1)) << "the clock restarts at each segment";
}

}  // namespace
}  // namespace levelforge
