// summarize_checkpoint reads a checkpoint directory without MPI; its manifest checks are
// the ones CheckpointStore::resume makes too.
#include "runner/checkpoint/checkpoint_store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
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
  manifest.put_ints("format_version", {1});
  manifest.put_ints("session", {2});
  manifest.put_ints("tasks", {10});
  manifest.put_bytes("experiment", bytes_of("demo"));
  manifest.put_bytes("driver", bytes_of("sweep"));
  manifest.put_bytes("config", bytes_of("experiment: demo\n"));
  manifest.put_bytes("identity", bytes_of("shard\n0 of 1\n"));
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
  EXPECT_EQ(summary.tasks_done, 0U);
  EXPECT_EQ(summary.segments, 0U);
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
  EXPECT_NE(message.find("checkpoint format version 7, this levelforge reads version 1"),
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

}  // namespace
}  // namespace levelforge
