#pragma once
// Reading a file the user named: a config, a table file, a puzzle, an HDF5 file. Each is
// looked at before it is opened, since opening a FIFO blocks until a writer comes and a
// device such as /dev/zero never ends, and text is read only up to a documented limit.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace levelforge {

inline constexpr std::uintmax_t no_size_limit = std::numeric_limits<std::uintmax_t>::max();
// docs/config.md: configs and the table files they name.
inline constexpr std::uintmax_t config_size_limit = std::uintmax_t{16} << 20U;
// Puzzle files (`levelforge solve`), and a puzzle on standard input.
inline constexpr std::uintmax_t puzzle_size_limit = std::uintmax_t{1} << 20U;

// Why `path` cannot be read as `what` ("config file"), or empty when it can: it exists, is a
// regular file (a symbolic link to one will do) and holds at most `limit` bytes.
std::string input_file_problem(const std::string& path, std::string_view what,
                               std::uintmax_t limit = no_size_limit);

// "a FIFO (named pipe)", "a directory", ...: what is at `path` when it is not a regular
// file; empty for a regular file or nothing at all.
std::string special_file_kind(const std::string& path);

// The bytes of the file at `path`, after input_file_problem found none; at most `limit`
// bytes are read, more is an error (the file grew). Returns false when it cannot be read.
bool read_input_file(const std::string& path, std::uintmax_t limit, std::string& text);

// A size for a message: "16 MiB", "1200 bytes".
std::string describe_size(std::uintmax_t bytes);

}  // namespace levelforge
