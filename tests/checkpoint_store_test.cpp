// summarize_checkpoint reads a checkpoint directory without MPI; its manifest checks are
// the ones CheckpointStore::resume makes too.
#include "runner/checkpoint/checkpoint_store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "runner/checkpoint/segment.hpp"

namespace levelforge {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> bytes(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
  return bytes;
}

// A manifest as CheckpointStore::start writes it, for session 2 of a 10-task run.
Segment good_manifest() {
  Segment manifest;
  manifest.put_bytes("format", bytes_of("levelforge-checkpoint"));
  manifest.put_ints("format_version", {4});
  manifest.put_ints("session", {2});
  manifest.put_ints("tasks", {10});
  manifest.put_bytes("experiment", bytes_of("demo"));
  manifest.put_bytes("driver", bytes_of("sweep"));
  manifest.put_bytes("config", bytes_of("experiment: demo\n"));
  manifest.put_bytes("identity", bytes_of("shard\n0 of 1\n"));
  manifest.put_bytes("builds", bytes_of("sessions 0-2: levelforge 0.1.0 (commit abc)\n"));
  manifest.put_ints("retry_session", {-1});
  return manifest;
}

class CheckpointManifests : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 ("levelforge-checkpoint-store-test-" + std::to_string(::getpid()));
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  void write(const Segment& manifest) const {
    manifest.write((directory_ / "manifest.h5").string());
  }

  // The CheckpointError's message; fails the test when none is thrown.
  [[nodiscard]] std::string refusal() const {
    try {
      (void)summarize_checkpoint(directory_.string());
    } catch (const CheckpointError& error) {
      return error.what();
    }
    ADD_FAILURE() << "the manifest was accepted";
    return {};
  }

  fs::path directory_;
};

TEST_F(CheckpointManifests, AGoodManifestIsSummarized) {
  write(good_manifest());
  const auto summary = summarize_checkpoint(directory_.string());
  EXPECT_EQ(summary.experiment, "demo");
  EXPECT_EQ(summary.driver, "sweep");
  EXPECT_EQ(summary.shard, "0 of 1");
  EXPECT_EQ(summary.sessions, 3);
  EXPECT_EQ(summary.tasks_total, 10U);
  EXPECT_EQ(summary.unit, "task");
  EXPECT_EQ(summary.units_total, 10U);
  EXPECT_EQ(summary.units_done, 0U);
  EXPECT_EQ(summary.segments, 0U);
}

TEST_F(CheckpointManifests, AnUnknownDriverIsRefused) {
  auto manifest = good_manifest();
  manifest.put_bytes("driver", bytes_of("annealing"));
  write(manifest);
  EXPECT_NE(refusal().find("driver 'annealing', which this levelforge does not have"),
            std::string::npos)
      << refusal();
}

TEST_F(CheckpointManifests, MissingOrImpossibleCountsAreRefused) {
  const auto with_ints = [](const std::string& name, std::vector<std::int64_t> values) {
    auto manifest = good_manifest();
    manifest.put_ints(name, std::move(values));
    return manifest;
  };
  const std::vector<Segment> bad = {
      with_ints("tasks", {}),
      with_ints("tasks", {-1}),
      with_ints("tasks", {10, 10}),
      with_ints("session", {}),
      with_ints("session", {-1}),
      // resume starts session + 1
      with_ints("session", {std::numeric_limits<std::int64_t>::max()}),
      with_ints("format_version", {}),
  };
  for (std::size_t i = 0; i < bad.size(); ++i) {
    write(bad[i]);
    EXPECT_NE(refusal().find("not a levelforge checkpoint manifest"), std::string::npos)
        << "case " << i;
  }
  auto other_format = good_manifest();
  other_format.put_bytes("format", bytes_of("levelforge-results"));
  write(other_format);
  EXPECT_NE(refusal().find("not a levelforge checkpoint manifest"), std::string::npos);
}

TEST_F(CheckpointManifests, AnotherFormatVersionIsNamed) {
  auto manifest = good_manifest();
  manifest.put_ints("format_version", {7});
  write(manifest);
  const auto message = refusal();
  EXPECT_NE(message.find("checkpoint format version 7, this levelforge reads version 4"),
            std::string::npos)
      << message;
}

TEST_F(CheckpointManifests, AnUnreadableManifestSaysTheCheckpointIsUnusable) {
  good_manifest().write((directory_ / "manifest.h5").string());
  fs::resize_file(directory_ / "manifest.h5", 1000);
  const auto message = refusal();
  EXPECT_NE(message.find("the checkpoint's manifest cannot be read"), std::string::npos) << message;
  EXPECT_NE(message.find("bytes, sealed at"), std::string::npos) << message;
}

// find_checkpoint: what a run finds at OUTPUT.checkpoint, and whether it is levelforge's.
TEST_F(CheckpointManifests, FindCheckpointTellsLevelforgesFromOthers) {
  using Kind = CheckpointFound::Kind;
  const auto found = [&] { return find_checkpoint(directory_.string()); };
  EXPECT_EQ(find_checkpoint((directory_ / "absent").string()).kind, Kind::absent);
  // start() makes the folder, then writes manifest.h5.tmp and renames it.
  EXPECT_EQ(found().kind, Kind::unstarted);
  { std::ofstream unfinished(directory_ / "manifest.h5.tmp"); }
  EXPECT_EQ(found().kind, Kind::unstarted);
  write(good_manifest());
  EXPECT_EQ(found().kind, Kind::levelforge);
  fs::resize_file(directory_ / "manifest.h5", 1000);
  EXPECT_EQ(found().kind, Kind::unusable);
  EXPECT_NE(found().problem.find("the checkpoint is unusable"), std::string::npos);
  // A manifest.h5 without a levelforge seal is another program's: not ours to delete.
  {
    std::ofstream other(directory_ / "manifest.h5", std::ios::trunc);
    other << "\x89HDF\r\n\x1a\n another program's file";
  }
  EXPECT_EQ(found().kind, Kind::foreign);
  EXPECT_NE(found().problem.find("its manifest.h5 was not written by levelforge"),
            std::string::npos)
      << found().problem;
  fs::remove(directory_ / "manifest.h5");
  { std::ofstream notes(directory_ / "notes.txt"); }
  EXPECT_EQ(found().kind, Kind::foreign);
  EXPECT_NE(found().problem.find("holds no manifest.h5); levelforge does not touch it"),
            std::string::npos)
      << found().problem;
  const auto file = directory_ / "notes.txt";
  EXPECT_EQ(find_checkpoint(file.string()).kind, Kind::foreign);
  EXPECT_NE(find_checkpoint(file.string()).problem.find("it is not a folder"), std::string::npos);
}

// A retry of failures stopped in its first session (2): units 4 and 5 failed in session 0,
// unit 5 failed again in the retry, unit 6 failed in session 0 and succeeded in the retry.
// Unit 4 is not done (the retry runs it again); 5 is done as a failure, 6 as a success.
TEST_F(CheckpointManifests, AStoppedRetryCountsTheFailuresItHasNotRunAgainAsNotDone) {
  auto manifest = good_manifest();
  manifest.put_ints("retry_session", {2});
  write(manifest);
  const auto segment = [&](const std::string& name, std::vector<std::int64_t> tasks,
                           std::vector<std::int64_t> failed) {
    Segment saved;
    saved.put_ints("tasks", std::move(tasks));
    saved.put_ints("failed_units", std::move(failed));
    saved.write((directory_ / name).string());
  };
  segment("s0000-r000000-000000.h5", {0, 1, 2, 3}, {4, 5, 6});
  segment("s0002-r000000-000000.h5", {6}, {5});
  const auto summary = summarize_checkpoint(directory_.string());
  EXPECT_EQ(summary.retry_session, 2);
  EXPECT_EQ(summary.units_done, 6U);  // 0-3 and 6 succeeded, 5 failed in the retry
  EXPECT_EQ(summary.failed, 1U);
  EXPECT_EQ(summary.to_retry, 1U);
  EXPECT_EQ(describe_progress(summary),
            "6 of 10 tasks done (1 failed; 1 more failed earlier, being retried) in 3 sessions");
}

TEST_F(CheckpointManifests, ASavedRunIsReadBackWithItsShard) {
  auto manifest = good_manifest();
  manifest.put_bytes("identity", bytes_of("seed\n4\nshard\n1/3\n"));
  write(manifest);
  const auto saved = read_saved_run(directory_.string());
  EXPECT_EQ(saved.config, "experiment: demo\n");
  EXPECT_EQ(saved.shard.index, 1U);
  EXPECT_EQ(saved.shard.count, 3U);
  EXPECT_EQ(saved.identity.at("seed"), "4");
  manifest.put_bytes("identity", bytes_of("shard\n5/3\n"));
  write(manifest);
  try {
    (void)read_saved_run(directory_.string());
    ADD_FAILURE() << "a shard 5/3 was accepted";
  } catch (const CheckpointError& error) {
    EXPECT_NE(std::string(error.what()).find("its shard '5/3' is not one"), std::string::npos)
        << error.what();
  }
}

TEST_F(CheckpointManifests, ProgressIsDescribedPerDriver) {
  CheckpointSummary summary;
  summary.unit = "task";
  summary.sessions = 1;
  summary.units_total = 216;
  summary.units_done = 39;
  EXPECT_EQ(describe_progress(summary), "39 of 216 tasks done in 1 session");
  summary.unit = "chunk";
  summary.sessions = 2;
  summary.units_total = 0;
  summary.units_done = 0;
  EXPECT_EQ(describe_progress(summary), "0 of (not yet known) chunks done in 2 sessions");
  summary.units_total = 40;
  summary.units_done = 12;
  EXPECT_EQ(describe_progress(summary), "12 of 40 chunks done in 2 sessions");
}

}  // namespace
}  // namespace levelforge
