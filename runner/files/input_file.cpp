#include "runner/files/input_file.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "kernels/api/text.hpp"

namespace levelforge {

namespace fs = std::filesystem;

namespace {
struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
}  // namespace

std::string describe_size(std::uintmax_t bytes) {
  constexpr std::uintmax_t mebibyte = std::uintmax_t{1} << 20U;
  if (bytes >= mebibyte && bytes % mebibyte == 0) return std::to_string(bytes / mebibyte) + " MiB";
  return std::to_string(bytes) + " bytes";
}

std::string special_file_kind(const std::string& path) {
  std::error_code error;
  switch (fs::status(path, error).type()) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::fifo: return "a FIFO (named pipe)";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::regular:
    case fs::file_type::not_found:
    case fs::file_type::none: return {};
    default: return "not a regular file";
  }
}

std::string input_file_problem(const std::string& path, std::string_view what,
                               std::uintmax_t limit) {
  const std::string named = std::string(what) + " " + quoted_value(path);
  if (path.empty()) return std::string(what) + ": an empty path";
  // The C library reads a name up to its first NUL: "a.yaml\0x" would open a.yaml.
  if (path.find('\0') != std::string::npos)
    return named + " holds a NUL byte, which no file name can";
  std::error_code error;
  const auto status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) return named + " does not exist";
  if (error) return "cannot read " + named + ": " + error.message();
  if (const auto kind = special_file_kind(path); !kind.empty()) {
    return named + " is " + kind + ", not a regular file";
  }
  const auto size = fs::file_size(path, error);
  if (error) return "cannot read " + named + ": " + error.message();
  if (size > limit) {
    return named + " holds " + std::to_string(size) + " bytes, more than the " +
           describe_size(limit) + " such a file may have";
  }
  return {};
}

bool read_input_file(const std::string& path, std::uintmax_t limit, std::string& text) {
  const std::unique_ptr<std::FILE, CloseFile> stream(std::fopen(path.c_str(), "rb"));
  if (!stream) return false;
  text.clear();
  std::array<char, 1U << 16U> buffer{};
  std::size_t count = 0;
  while ((count = std::fread(buffer.data(), 1, buffer.size(), stream.get())) > 0) {
    text.append(buffer.data(), count);
    if (text.size() > limit) return false;
  }
  return std::ferror(stream.get()) == 0;
}

}  // namespace levelforge
