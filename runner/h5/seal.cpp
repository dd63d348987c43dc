#include "runner/h5/seal.hpp"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string_view>
#include <vector>

#include "runner/files/input_file.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge::h5 {
namespace {

// The block's layout: this text, then the sealed byte count and the XXH3-64 of those bytes
// (little-endian 64-bit each), then zeros.
constexpr std::string_view seal_magic = "levelforge seal xxh3-64\n";
constexpr std::string_view hdf5_signature = "\x89HDF\r\n\x1a\n";
constexpr std::size_t count_offset = seal_magic.size();
constexpr std::size_t checksum_offset = count_offset + 8;

using SealBlock = std::array<char, seal_block_size>;

std::uint64_t load_le64(const SealBlock& block, std::size_t offset) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    value |= std::uint64_t{static_cast<unsigned char>(block[offset + i])} << (8 * i);
  }
  return value;
}

void store_le64(SealBlock& block, std::size_t offset, std::uint64_t value) {
  for (std::size_t i = 0; i < 8; ++i) {
    block[offset + i] = static_cast<char>(static_cast<unsigned char>(value >> (8 * i)));
  }
}

struct Digest {
  std::uint64_t count = 0;  // bytes after the block
  std::uint64_t checksum = 0;
};

struct StateDeleter {
  void operator()(XXH3_state_t* state) const noexcept { XXH3_freeState(state); }
};

// Reads the first seal_block_size bytes of `in` into `block` (zeros past the end of a
// shorter file); says whether there were that many.
bool read_block(std::istream& in, SealBlock& block) {
  in.read(block.data(), static_cast<std::streamsize>(block.size()));
  return in.gcount() == static_cast<std::streamsize>(block.size());
}

// The rest of `in`, from where read_block left it.
Digest digest_rest(std::istream& in, const std::string& path) {
  const std::unique_ptr<XXH3_state_t, StateDeleter> state(XXH3_createState());
  if (!state || XXH3_64bits_reset(state.get()) != XXH_OK) {
    throw IoError("checksumming " + path + ": out of memory");
  }
  Digest digest;
  std::vector<char> buffer(std::size_t{1} << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    XXH3_64bits_update(state.get(), buffer.data(), got);
    digest.count += got;
  }
  if (in.bad()) throw IoError("reading " + path + " to check its seal");
  digest.checksum = XXH3_64bits_digest(state.get());
  return digest;
}

// The file size a seal's byte count stands for, in decimal: the block and the bytes after it.
// The count is read from the file, and a damaged one may be anything up to 2^64 - 1, so the
// sum takes more than 64 bits.
std::string sealed_size_text(std::uint64_t sealed_count) {
  __extension__ typedef unsigned __int128 Wide;  // GCC's and Clang's, no ISO C++ type
  Wide size = Wide{sealed_count} + seal_block_size;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(size % 10)));
    size /= 10;
  } while (size != 0);
  return digits;
}

// The size found against the size sealed, and which way they differ.
[[noreturn]] void fail_size(const std::string& path, std::uint64_t size, std::uint64_t sealed_count,
                            bool past_end) {
  throw IoError(path + ": changed after levelforge wrote it: " + std::to_string(size) +
                " bytes, sealed at " + sealed_size_text(sealed_count) +
                (past_end ? ", past the file's end (cut short, or its seal damaged)"
                          : " (extended by another program, or its seal damaged)"));
}

bool has_hdf5_signature(const SealBlock& block, std::size_t offset) {
  return std::string_view(block.data() + offset, hdf5_signature.size()) == hdf5_signature;
}

}  // namespace

void seal(const std::string& path) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  if (!file) throw IoError("opening " + path + " to seal it");
  SealBlock block{};
  if (!read_block(file, block) ||
      std::ranges::any_of(block, [](char byte) { return byte != '\0'; })) {
    throw IoError("sealing " + path + ": it has no empty " + std::to_string(seal_block_size) +
                  "-byte user block to hold the seal");
  }
  const auto digest = digest_rest(file, path);
  std::ranges::copy(seal_magic, block.begin());
  store_le64(block, count_offset, digest.count);
  store_le64(block, checksum_offset, digest.checksum);
  file.clear();
  file.seekp(0);
  file.write(block.data(), static_cast<std::streamsize>(block.size()));
  file.flush();
  if (!file) throw IoError("writing the seal of " + path);
}

void verify_seal(const std::string& path) {
  // Opening a FIFO would wait for a writer, and /dev/zero would be read without end.
  if (const auto kind = special_file_kind(path); !kind.empty())
    throw IoError(path + " is " + kind + ", not a levelforge file");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw IoError(path + " cannot be opened for reading");
  SealBlock block{};
  const bool block_read = read_block(file, block);
  if (std::string_view(block.data(), seal_magic.size()) != seal_magic) {
    if (has_hdf5_signature(block, 0)) {
      throw IoError(path +
                    ": no levelforge seal: written by another program, or by a levelforge that "
                    "did not seal its files yet");
    }
    if (block_read && std::ranges::all_of(block, [](char byte) { return byte == '\0'; })) {
      throw IoError(path +
                    ": no levelforge seal: levelforge did not finish writing it (the run failed "
                    "or was stopped, or the file is a copy of its .partial)");
    }
    throw IoError(path + " is not an HDF5 file written by levelforge (no seal, no HDF5 signature)");
  }
  // A file cut inside its block reads as zeros past its end, an empty rest included.
  const auto digest = block_read ? digest_rest(file, path) : Digest{};
  const auto sealed_count = load_le64(block, count_offset);
  if (!block_read) {
    // Shorter than the block: whatever the count, what it seals lies past the end.
    fail_size(path, static_cast<std::uint64_t>(std::filesystem::file_size(path)), sealed_count,
              true);
  }
  if (digest.count != sealed_count) {
    fail_size(path, digest.count + seal_block_size, sealed_count, sealed_count > digest.count);
  }
  if (digest.checksum != load_le64(block, checksum_offset)) {
    throw IoError(path +
                  ": changed after levelforge wrote it: its bytes no longer match the XXH3-64 "
                  "checksum in its seal (damaged, or edited by another program)");
  }
}

bool has_seal(const std::string& path) {
  if (!special_file_kind(path).empty()) return false;
  std::ifstream file(path, std::ios::binary);
  SealBlock block{};
  return file && read_block(file, block) &&
         std::string_view(block.data(), seal_magic.size()) == seal_magic;
}

}  // namespace levelforge::h5
