#include "runner/h5/seal.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "runner/h5/h5.hpp"

namespace levelforge::h5 {
namespace {

namespace fs = std::filesystem;

std::vector<char> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::uint64_t le64_at(const std::vector<char>& bytes, std::size_t offset) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    value |= std::uint64_t{static_cast<unsigned char>(bytes[offset + i])} << (8 * i);
  }
  return value;
}

// The message of the IoError `verify_seal(path)` throws; fails the test when none is thrown.
std::string refusal(const fs::path& path) {
  try {
    verify_seal(path.string());
  } catch (const IoError& error) {
    return error.what();
  }
  ADD_FAILURE() << path << " was accepted";
  return {};
}

class SealFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("levelforge-seal-test-" + std::to_string(::getpid()));
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  [[nodiscard]] fs::path path(const std::string& name) const { return directory_ / name; }

  // A levelforge-made file (with its user block) holding 0, 1, ..., count - 1, not sealed.
  [[nodiscard]] fs::path unsealed_file(const std::string& name, std::int64_t count = 300) const {
    const auto file_path = path(name);
    auto file = File::create_serial(file_path.string());
    std::vector<std::int64_t> values(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = i;
    auto dataset = file.root().create_dataset("values", Datatype::int64(), {values.size()});
    dataset.write_all(Datatype::int64(), values.data());
    file.close();
    return file_path;
  }

  [[nodiscard]] fs::path sealed_file(const std::string& name) const {
    auto file_path = unsealed_file(name);
    seal(file_path.string());
    return file_path;
  }

 private:
  fs::path directory_;
};

TEST_F(SealFiles, TheBlockHoldsTheByteCountAndChecksumOfTheRest) {
  const auto file_path = unsealed_file("a.h5");
  const auto before = read_bytes(file_path);
  ASSERT_GT(before.size(), seal_block_size);
  EXPECT_EQ(std::string(before.data() + seal_block_size, 8), std::string("\x89HDF\r\n\x1a\n"));
  seal(file_path.string());
  const auto after = read_bytes(file_path);
  ASSERT_EQ(after.size(), before.size());
  EXPECT_EQ(std::string(after.data(), 24), "levelforge seal xxh3-64\n");
  EXPECT_EQ(le64_at(after, 24), before.size() - seal_block_size);
  EXPECT_EQ(le64_at(after, 32),
            XXH3_64bits(before.data() + seal_block_size, before.size() - seal_block_size));
  EXPECT_TRUE(
      std::equal(after.begin() + seal_block_size, after.end(), before.begin() + seal_block_size));
}

TEST_F(SealFiles, ASealedFileOpensAndReadsBack) {
  const auto file_path = sealed_file("a.h5");
  EXPECT_NO_THROW(verify_seal(file_path.string()));
  const auto file = File::open_sealed(file_path.string());
  const auto values =
      file.root().open_dataset("values").read_all_as<std::int64_t>(Datatype::int64());
  ASSERT_EQ(values.size(), 300U);
  EXPECT_EQ(values[299], 299);
}

TEST_F(SealFiles, EveryChangedByteAfterTheBlockIsRefused) {
  const auto original = read_bytes(sealed_file("a.h5"));
  std::mt19937_64 random(7);
  const auto damaged = path("damaged.h5");
  for (int trial = 0; trial < 200; ++trial) {
    auto bytes = original;
    const auto offset = seal_block_size + random() % (bytes.size() - seal_block_size);
    bytes[offset] = static_cast<char>(bytes[offset] ^ static_cast<char>(1U << (random() % 8)));
    write_bytes(damaged, bytes);
    EXPECT_NE(refusal(damaged).find("its bytes no longer match the XXH3-64 checksum"),
              std::string::npos)
        << "byte " << offset;
  }
}

TEST_F(SealFiles, ADamagedSealIsRefused) {
  const auto original = read_bytes(sealed_file("a.h5"));
  const auto damaged = path("damaged.h5");
  auto bytes = original;
  bytes[30] = static_cast<char>(bytes[30] ^ 4);  // the byte count
  write_bytes(damaged, bytes);
  EXPECT_NE(refusal(damaged).find("bytes, sealed at"), std::string::npos);
  bytes = original;
  bytes[35] = static_cast<char>(bytes[35] ^ 4);  // the checksum
  write_bytes(damaged, bytes);
  EXPECT_NE(refusal(damaged).find("its bytes no longer match the XXH3-64 checksum"),
            std::string::npos);
  bytes = original;
  bytes[3] = 'X';  // the text
  write_bytes(damaged, bytes);
  EXPECT_NE(refusal(damaged).find("no seal, no HDF5 signature"), std::string::npos);
}

TEST_F(SealFiles, ACutOrExtendedFileNamesBothSizes) {
  const auto original = read_bytes(sealed_file("a.h5"));
  const auto size = std::to_string(original.size());
  auto bytes = original;
  bytes.pop_back();
  write_bytes(path("cut.h5"), bytes);
  const auto cut = refusal(path("cut.h5"));
  EXPECT_NE(cut.find("cut.h5: changed after levelforge wrote it: " +
                     std::to_string(original.size() - 1) + " bytes, sealed at " + size +
                     ", past the file's end (cut short, or its seal "
                     "damaged)"),
            std::string::npos)
      << cut;
  bytes.resize(100);  // inside the seal's block
  write_bytes(path("cut_in_block.h5"), bytes);
  const auto cut_in_block = refusal(path("cut_in_block.h5"));
  EXPECT_NE(cut_in_block.find(": 100 bytes, sealed at " + size + ", past the file's end ("),
            std::string::npos)
      << cut_in_block;
  bytes = original;
  bytes.push_back('\0');
  write_bytes(path("longer.h5"), bytes);
  const auto longer = refusal(path("longer.h5"));
  EXPECT_NE(longer.find(": " + std::to_string(original.size() + 1) + " bytes, sealed at " + size +
                        " (extended by another program, or its seal damaged)"),
            std::string::npos)
      << longer;
}

// The byte count is read from the file: a damaged one may be anything up to 2^64 - 1, and the
// size it seals, 512 bytes more, must not wrap around to 511.
TEST_F(SealFiles, AHugeSealedCountIsReportedAsItIsPastTheFilesEnd) {
  auto bytes = read_bytes(sealed_file("a.h5"));
  std::fill(bytes.begin() + 24, bytes.begin() + 32, '\xff');
  write_bytes(path("huge.h5"), bytes);
  const auto message = refusal(path("huge.h5"));
  EXPECT_NE(
      message.find("huge.h5: changed after levelforge wrote it: " + std::to_string(bytes.size()) +
                   " bytes, sealed at 18446744073709552127, past the file's end (cut "
                   "short, or its seal damaged)"),
      std::string::npos)
      << message;
}

TEST_F(SealFiles, UnsealedFilesSayWhyTheyHaveNoSeal) {
  EXPECT_NE(refusal(unsealed_file("partial.h5")).find("levelforge did not finish writing it"),
            std::string::npos);

  const auto other = path("other.h5");
  {
    const Handle file(H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_TRUE(file.valid());
  }
  EXPECT_NE(refusal(other).find("written by another program"), std::string::npos);
  EXPECT_THROW(seal(other.string()), IoError);  // no user block to hold a seal

  write_bytes(path("text.h5"), {'n', 'o', 't', ' ', 'h', 'd', 'f', '5'});
  EXPECT_NE(refusal(path("text.h5")).find("not an HDF5 file written by levelforge"),
            std::string::npos);
  write_bytes(path("empty.h5"), {});
  EXPECT_NE(refusal(path("empty.h5")).find("not an HDF5 file written by levelforge"),
            std::string::npos);
}

TEST_F(SealFiles, OpenSealedNamesMissingFilesAndDirectories) {
  EXPECT_THROW(
      {
        try {
          (void)File::open_sealed(path("missing.h5").string());
        } catch (const IoError& error) {
          EXPECT_NE(std::string(error.what()).find("does not exist"), std::string::npos);
          throw;
        }
      },
      IoError);
  EXPECT_THROW((void)File::open_sealed(path("").string()), IoError);
}

}  // namespace
}  // namespace levelforge::h5
