#include "runner/checkpoint/segment.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

#include "runner/h5/h5.hpp"
#include "runner/h5/seal.hpp"

namespace levelforge {
namespace {

namespace fs = std::filesystem;

Segment random_segment(std::mt19937_64& random) {
  Segment segment;
  const auto arrays = random() % 5;
  for (std::uint64_t a = 0; a < arrays; ++a) {
    std::vector<std::int64_t> ints(random() % 40);
    for (auto& value : ints) value = static_cast<std::int64_t>(random());
    segment.put_ints("ints." + std::to_string(a), ints);
    std::vector<std::byte> bytes(random() % 100);
    for (auto& value : bytes) value = static_cast<std::byte>(random());
    segment.put_bytes("bytes." + std::to_string(a), bytes);
  }
  return segment;
}

void expect_equal(const Segment& a, const Segment& b) { EXPECT_EQ(a.serialize(), b.serialize()); }

class SegmentFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ =
        fs::temp_directory_path() / ("levelforge-segment-test-" + std::to_string(::getpid()));
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }
  [[nodiscard]] std::string path(const std::string& name) const {
    return (directory_ / name).string();
  }

 private:
  fs::path directory_;
};

TEST(Segment, AbsentNamesAreEmptyAndAppendsConcatenate) {
  Segment segment;
  EXPECT_TRUE(segment.empty());
  EXPECT_TRUE(segment.ints("tasks").empty());
  EXPECT_TRUE(segment.bytes("rows").empty());
  segment.append_ints("tasks", std::vector<std::int64_t>{1, 2});
  segment.append_ints("tasks", std::vector<std::int64_t>{7});
  EXPECT_EQ(std::vector<std::int64_t>(segment.ints("tasks").begin(), segment.ints("tasks").end()),
            (std::vector<std::int64_t>{1, 2, 7}));
  EXPECT_FALSE(segment.empty());
}

TEST(Segment, SerializeRoundTripsManyRandomSegments) {
  std::mt19937_64 random(11);
  for (int i = 0; i < 200; ++i) {
    const auto segment = random_segment(random);
    expect_equal(segment, Segment::deserialize(segment.serialize()));
  }
}

TEST(Segment, DeserializeRefusesTruncatedOrPaddedBytes) {
  std::mt19937_64 random(12);
  Segment segment;
  segment.put_ints("tasks", {1, 2, 3});
  segment.put_bytes("rows", std::vector<std::byte>(10, std::byte{7}));
  auto bytes = segment.serialize();
  for (std::size_t cut = 0; cut < bytes.size(); cut += 3) {
    EXPECT_THROW((void)Segment::deserialize(std::span(bytes).first(cut)), std::runtime_error)
        << cut;
  }
  bytes.push_back(std::byte{0});
  EXPECT_THROW((void)Segment::deserialize(bytes), std::runtime_error);
}

TEST_F(SegmentFiles, WriteThenReadGivesTheSameSegmentAndLeavesNoTemporary) {
  std::mt19937_64 random(13);
  for (int i = 0; i < 20; ++i) {
    const auto segment = random_segment(random);
    const auto file = path("segment-" + std::to_string(i) + ".h5");
    segment.write(file);
    EXPECT_FALSE(fs::exists(file + ".tmp"));
    expect_equal(segment, Segment::read(file));
  }
}

TEST_F(SegmentFiles, ReadRefusesTruncatedFilesAndOtherHdf5Files) {
  Segment segment;
  segment.put_ints("tasks", std::vector<std::int64_t>(1000, 5));
  const auto file = path("whole.h5");
  segment.write(file);
  const auto size = fs::file_size(file);
  fs::resize_file(file, size / 2);
  try {
    (void)Segment::read(file);
    FAIL() << "a truncated segment was read";
  } catch (const h5::IoError& error) {
    EXPECT_NE(std::string(error.what()).find("bytes, sealed at"), std::string::npos)
        << error.what();
  }

  const auto other = path("other.h5");
  {
    auto created = h5::File::create_serial(other);
    (void)created.root().create_group("something");
    created.close();
  }
  h5::seal(other);
  try {
    (void)Segment::read(other);
    FAIL() << "an HDF5 file without segment groups was read";
  } catch (const h5::IoError& error) {
    EXPECT_NE(std::string(error.what()).find("not a levelforge checkpoint segment"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW((void)Segment::read(path("missing.h5")), h5::IoError);
}

}  // namespace
}  // namespace levelforge
