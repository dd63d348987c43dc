#pragma once
// The result file of one run, as docs/hdf5-layout.md describes it. Created collectively
// under a temporary name and renamed into place only once complete, so an interrupted or
// failed run never leaves a file that looks finished.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runner/engine/record_layout.hpp"
#include "runner/h5/h5.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

inline constexpr std::string_view result_format = "levelforge-results";
inline constexpr std::int64_t result_format_version = 1;

// A result table: a dataset of compound rows and the layout of those rows.
struct Table {
  h5::Dataset dataset;
  RecordLayout layout;
};

class ResultFile {
 public:
  // Collective. Writes to `final_path` + ".partial" until commit().
  ResultFile(std::string final_path, mpi::Comm comm);

  [[nodiscard]] h5::Group root() const { return file_.root(); }

  // Collective. `path` may name groups that do not exist yet ("ga/history"). `dims` are
  // rows (and more dimensions); large tables are chunked and compressed. Rows no rank
  // writes (the tasks of other shards) hold `fill`: a table's missing row (-1, NaN, empty)
  // unless given, an array's zeros unless given.
  Table create_table(const std::string& path, RecordLayout layout, const std::vector<hsize_t>& dims,
                     std::vector<std::byte> fill = {});
  h5::Dataset create_array(const std::string& path, const h5::Datatype& type,
                           const std::vector<hsize_t>& dims, std::vector<std::byte> fill = {});

  // Collective: `rows[i]` is the leading-dimension index of the i-th row in `data` (a row
  // is everything below that index). Each row is written once, by whichever rank holds it.
  void write_rows(h5::Dataset& dataset, const h5::Datatype& memory_type,
                  std::span<const std::uint64_t> rows, std::span<const std::byte> data);
  void write(Table& table, std::span<const std::uint64_t> rows, std::span<const std::byte> data);

  // Collective: marks the file complete, closes it and renames it to its final path.
  void commit();
  // Collective: closes the file and deletes it (the run stopped for a checkpoint).
  void abandon();
  // This rank's error path, where the others may be anywhere: the `.partial` file goes. It
  // is worthless (a resume writes it again from the checkpoint), and on a full disk it
  // holds the space a resume needs. The file is abandoned, left to the job's abort: the
  // other ranks may never reach a collective close, and a close after a failed write
  // crashes HDF5.
  void remove_after_error() noexcept;

  [[nodiscard]] const std::string& final_path() const { return final_path_; }

 private:
  h5::Group group_for(const std::string& path);

  std::string final_path_;
  mpi::Comm comm_;
  h5::File file_;
};

}  // namespace levelforge
