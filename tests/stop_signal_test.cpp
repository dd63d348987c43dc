#include "runner/checkpoint/stop_signal.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace levelforge {
namespace {

TEST(StopSignal, TermAndUsr1SetTheFlagInsteadOfEndingTheProcess) {
  for (const int number : {SIGTERM, SIGUSR1}) {
    const StopSignal stop;
    EXPECT_FALSE(StopSignal::requested());
    ASSERT_EQ(std::raise(number), 0);
    EXPECT_TRUE(StopSignal::requested());
    EXPECT_EQ(StopSignal::signal_number(), number);
  }
}

TEST(StopSignal, TheFirstSignalIsTheOneReported) {
  const StopSignal stop;
  ASSERT_EQ(std::raise(SIGUSR1), 0);
  ASSERT_EQ(std::raise(SIGTERM), 0);
  EXPECT_EQ(StopSignal::signal_number(), SIGUSR1);
}

TEST(StopSignal, ThePreviousHandlersComeBackAfterwards) {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  struct sigaction before {};
  ASSERT_EQ(sigaction(SIGUSR1, &ignore, &before), 0);
  { const StopSignal stop; }
  struct sigaction after {};
  ASSERT_EQ(sigaction(SIGUSR1, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, SIG_IGN);
  ASSERT_EQ(sigaction(SIGUSR1, &before, nullptr), 0);
}

}  // namespace
}  // namespace levelforge
