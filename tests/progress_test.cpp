#include "runner/drivers/progress.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace levelforge {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Everything written to `file` so far.
std::string contents(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  std::array<char, 256> buffer{};
  std::size_t read = 0;
  while ((read = std::fread(buffer.data(), 1, buffer.size(), file)) > 0) {
    text.append(buffer.data(), read);
  }
  return text;
}

std::size_t count_lines_starting_with(const std::string& text, const std::string& prefix) {
  std::size_t count = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    const auto line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.rfind(prefix, 0) == 0) ++count;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return count;
}

// ---------------------------------------------------------------- format_line

TEST(ProgressFormat, QuarterDoneAfterTenSeconds) {
  // 250 of 1000 units in 10 s: 25 units/s, 30 s left.
  const auto line = ProgressReporter::format_line({3, 12, 250, 1000}, 10.0, "tasks", "evals");
  EXPECT_EQ(line.rfind("3/12 tasks", 0), 0U) << line;
  EXPECT_TRUE(contains(line, " 25.0%")) << line;
  EXPECT_TRUE(contains(line, " 25 evals/s")) << line;
  EXPECT_TRUE(contains(line, "elapsed 0:00:10")) << line;
  EXPECT_TRUE(contains(line, "ETA 0:00:30")) << line;
  EXPECT_TRUE(contains(line, "  250/1000 evals  ")) << line;
}

TEST(ProgressFormat, ResumedRunRatesOnlyThisSessionsWork) {
  // 600 of 1000 units done, 500 of them restored: 100 units in 10 s, 400 left: 40 s.
  const auto line = ProgressReporter::format_line({6, 10, 600, 1000, 500}, 10.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, " 60.0%")) << line;
  EXPECT_TRUE(contains(line, " 10 evals/s")) << line;
  EXPECT_TRUE(contains(line, "ETA 0:00:40")) << line;
}

TEST(ProgressFormat, PercentageFollowsUnitsNotItems) {
  // Items and units disagree: the fraction is units done / units total.
  const auto line = ProgressReporter::format_line({11, 12, 1, 8}, 2.0, "chunks", "indices");
  EXPECT_TRUE(contains(line, "11/12 chunks")) << line;
  EXPECT_TRUE(contains(line, " 12.5%")) << line;
  // 2 s * (1 - 1/8) / (1/8) = 14 s.
  EXPECT_TRUE(contains(line, "ETA 0:00:14")) << line;
  EXPECT_TRUE(contains(line, "0.5 indices/s")) << line;
}

TEST(ProgressFormat, NoUnitsDoneHasUnknownEta) {
  const auto line = ProgressReporter::format_line({0, 12, 0, 1000}, 5.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, "  0.0%")) << line;
  EXPECT_TRUE(contains(line, "ETA ?")) << line;
  EXPECT_TRUE(contains(line, " 0 evals/s")) << line;
}

TEST(ProgressFormat, ZeroUnitsTotalIsComplete) {
  const auto line = ProgressReporter::format_line({0, 0, 0, 0}, 3.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, "100.0%")) << line;
  EXPECT_TRUE(contains(line, "ETA 0:00:00")) << line;
}

TEST(ProgressFormat, MoreUnitsThanTotalIsClampedToComplete) {
  const auto line = ProgressReporter::format_line({5, 5, 150, 100}, 3.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, "100.0%")) << line;
  EXPECT_TRUE(contains(line, "ETA 0:00:00")) << line;
}

TEST(ProgressFormat, ZeroElapsedHasZeroRateNotInfinity) {
  const auto line = ProgressReporter::format_line({1, 2, 10, 20}, 0.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, " 0 evals/s")) << line;
  EXPECT_FALSE(contains(line, "inf")) << line;
  EXPECT_TRUE(contains(line, " 50.0%")) << line;
}

TEST(ProgressFormat, LargeRatesUseThreeSignificantDigits) {
  // 1.2 million units in 10 s.
  const auto line =
      ProgressReporter::format_line({1, 4, 1'200'000, 4'800'000}, 10.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, "1.2e+05 evals/s")) << line;
  EXPECT_TRUE(contains(line, "ETA 0:00:30")) << line;
}

TEST(ProgressFormat, ClockShowsHoursMinutesSeconds) {
  // Half done after 4000 s (1:06:40): 4000 s left.
  const auto line = ProgressReporter::format_line({1, 2, 50, 100}, 4000.0, "tasks", "evals");
  EXPECT_TRUE(contains(line, "elapsed 1:06:40")) << line;
  EXPECT_TRUE(contains(line, "ETA 1:06:40")) << line;
  // 25 hours do not wrap around.
  const auto long_line = ProgressReporter::format_line({1, 2, 50, 100}, 90000.0, "tasks", "evals");
  EXPECT_TRUE(contains(long_line, "elapsed 25:00:00")) << long_line;
}

TEST(ProgressFormat, EtaRoundsToTheNearestSecond) {
  // 1 s for 3 of 4 units: 1/3 s left, rounds to 0; 2 s for 1 of 4: 6 s left.
  EXPECT_TRUE(contains(ProgressReporter::format_line({0, 1, 3, 4}, 1.0, "t", "u"), "ETA 0:00:00"));
  EXPECT_TRUE(contains(ProgressReporter::format_line({0, 1, 1, 4}, 2.0, "t", "u"), "ETA 0:00:06"));
  // 59.6 s rounds up to the next minute.
  EXPECT_TRUE(
      contains(ProgressReporter::format_line({0, 1, 1, 1}, 59.6, "t", "u"), "elapsed 0:01:00"));
}

// ---------------------------------------------------------------- the reporter

class ProgressReporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = std::tmpfile();
    ASSERT_NE(file_, nullptr);
  }
  void TearDown() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  std::FILE* file_ = nullptr;
};

TEST_F(ProgressReporterTest, DisabledWritesNothingAndIsNeverDue) {
  ProgressReporter reporter("tasks", "evals", 0.0, ProgressStyle::none, file_);
  EXPECT_FALSE(reporter.due());
  reporter.report({1, 2, 3, 4});
  reporter.finish({2, 2, 4, 4});
  EXPECT_EQ(contents(file_), "");
}

TEST_F(ProgressReporterTest, EnabledWithIntervalZeroIsDueAndWritesPlainLines) {
  ProgressReporter reporter("tasks", "evals", 0.0, ProgressStyle::automatic, file_);
  EXPECT_TRUE(reporter.due());
  reporter.report({1, 4, 10, 40});
  EXPECT_TRUE(reporter.due());
  reporter.report({2, 4, 20, 40});
  const auto text = contents(file_);
  EXPECT_EQ(count_lines_starting_with(text, "progress: "), 2U) << text;
  EXPECT_TRUE(contains(text, "progress: 1/4 tasks")) << text;
  EXPECT_TRUE(contains(text, "progress: 2/4 tasks")) << text;
  EXPECT_TRUE(contains(text, " 50.0%")) << text;
  // Not a terminal: no bar, no carriage returns or escape sequences.
  EXPECT_FALSE(contains(text, "\r")) << text;
  EXPECT_FALSE(contains(text, "\x1b")) << text;
  EXPECT_FALSE(contains(text, "[#")) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST_F(ProgressReporterTest, LongIntervalIsNotDueRightAway) {
  ProgressReporter reporter("tasks", "evals", 3600.0, ProgressStyle::automatic, file_);
  EXPECT_FALSE(reporter.due());
  // report() writes whenever it is called; due() is the caller's throttle.
  reporter.report({0, 3, 0, 30});
  EXPECT_FALSE(reporter.due());
  EXPECT_EQ(count_lines_starting_with(contents(file_), "progress: "), 1U);
}

TEST_F(ProgressReporterTest, FinishWritesAFinalLine) {
  ProgressReporter reporter("chunks", "indices", 3600.0, ProgressStyle::automatic, file_);
  reporter.finish({7, 7, 700, 700});
  const auto text = contents(file_);
  EXPECT_EQ(count_lines_starting_with(text, "progress: "), 1U) << text;
  EXPECT_TRUE(contains(text, "progress: 7/7 chunks")) << text;
  EXPECT_TRUE(contains(text, "100.0%")) << text;
  EXPECT_TRUE(contains(text, "ETA 0:00:00")) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST_F(ProgressReporterTest, ABarIsDrawnWhereAsked) {
  ProgressReporter reporter("tasks", "evals", 3600.0, ProgressStyle::bar, file_);
  // One of two tasks, but 3 of 4 work units (generations): the bar shows the units.
  reporter.report({1, 2, 30, 40});
  const auto text = contents(file_);
  EXPECT_TRUE(contains(text, "\r[" + std::string(18, '#') + std::string(6, '.') + "] 1/2 tasks"))
      << text;
  EXPECT_EQ(count_lines_starting_with(text, "progress: "), 0U) << text;
}

TEST(ProgressStyles, AreReadFromTheirWords) {
  EXPECT_EQ(parse_progress_style("bar"), ProgressStyle::bar);
  EXPECT_EQ(parse_progress_style("lines"), ProgressStyle::lines);
  EXPECT_EQ(parse_progress_style("none"), ProgressStyle::none);
  EXPECT_EQ(parse_progress_style("auto"), ProgressStyle::automatic);
  EXPECT_THROW((void)parse_progress_style("dots"), std::invalid_argument);
}

// On a terminal the reporter draws a bar of work done and redraws it in place.
TEST(ProgressReporterLive, DrawsABarOfItemsOnATerminal) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) GTEST_SKIP() << "no pseudo-terminal available";
  const char* slave_name =
      grantpt(master) == 0 && unlockpt(master) == 0 ? ptsname(master) : nullptr;
  const int slave = slave_name != nullptr ? open(slave_name, O_RDWR | O_NOCTTY) : -1;
  if (slave < 0) {
    close(master);
    GTEST_SKIP() << "no usable pseudo-terminal";
  }
  std::FILE* terminal = fdopen(slave, "w");
  ASSERT_NE(terminal, nullptr);

  std::string text;
  {
    ProgressReporter reporter("tasks", "evals", 3600.0, ProgressStyle::automatic, terminal);
    reporter.report({6, 12, 50, 100});
  }
  pollfd ready{master, POLLIN, 0};
  std::array<char, 512> buffer{};
  while (!contains(text, "\x1b[K") && poll(&ready, 1, 2000) > 0) {
    const auto got = read(master, buffer.data(), buffer.size());
    if (got <= 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
  }
  std::fclose(terminal);
  close(master);

  // 6 of 12 items: half of the 24 cells.
  EXPECT_TRUE(contains(text, "\r[############............] 6/12 tasks")) << text;
  EXPECT_FALSE(contains(text, "progress: ")) << text;
}

}  // namespace
}  // namespace levelforge
