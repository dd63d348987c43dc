#pragma once
// The result file of one run, as docs/hdf5-layout.md describes it. Created under a
// temporary name and renamed into place only once complete, so an interrupted or failed run
// never leaves a file that looks finished. Only the writers (output_writers.hpp) open it;
// every call below is made by all ranks alike, and the others send their rows and skip the
// HDF5 calls. commit() or discard() end it collectively; left without either (an error
// path), its destructor makes no collective call, as h5::File's never does.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "runner/h5/h5.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/output_writers.hpp"

namespace levelforge {

inline constexpr std::string_view result_format = "levelforge-results";
inline constexpr std::int64_t result_format_version = 1;

// A dataset of the result file: its extent on every rank, the open dataset on the writers.
struct ResultArray {
  std::vector<hsize_t> dims;
  std::optional<h5::Dataset> dataset;
};

// A result table: a dataset of compound rows and the layout of those rows.
struct Table {
  ResultArray array;
  RecordLayout layout;
};

class ResultFile {
 public:
  // Collective. Writes to `final_path` + ".partial" until commit(). `hosts[r]` names rank
  // r's host (the same on every rank).
  ResultFile(std::string final_path, mpi::Comm comm, const std::vector<std::string>& hosts,
             OutputWriters writers = {});

  // Collective. `path` names the root (""), a group or a dataset; every rank passes the
  // same value.
  template <class T>
  void write_attribute(const std::string& path, const std::string& name, const T& value) {
    if (!file_) return;
    auto root = file_->root();
    if (path.empty()) {
      root.write_attribute(name, value);
    } else if (root.kind_of(path) == h5::ObjectKind::dataset) {
      root.open_dataset(path).write_attribute(name, value);
    } else {
      root.open_group(path).write_attribute(name, value);
    }
  }

  // Collective. `path` may name groups that do not exist yet ("ga/history"). `dims` are
  // rows (and more dimensions); large tables are chunked and compressed. Rows no rank
  // writes (the tasks of other shards) hold `fill`: a table's missing row (-1, NaN, empty)
  // unless given, an array's zeros unless given.
  Table create_table(const std::string& path, RecordLayout layout, const std::vector<hsize_t>& dims,
                     std::vector<std::byte> fill = {});
  ResultArray create_array(const std::string& path, const h5::Datatype& type,
                           const std::vector<hsize_t>& dims, std::vector<std::byte> fill = {});

  // Collective: `rows[i]` is the leading-dimension index of the i-th row in `data` (a row
  // is everything below that index). Each row is written once, by whichever rank holds it.
  void write_rows(ResultArray& array, const h5::Datatype& memory_type,
                  std::span<const std::uint64_t> rows, std::span<const std::byte> data);
  void write(Table& table, std::span<const std::uint64_t> rows, std::span<const std::byte> data);
  // Collective: the whole array, which every rank holds alike.
  void write_whole(ResultArray& array, const h5::Datatype& memory_type, const void* data);

  // Collective: marks the file complete, closes it and renames it to its final path.
  void commit();
  // Collective: closes the file and deletes it (the run stopped for a checkpoint).
  void discard();
  // This rank's error path, where the others may be anywhere: the `.partial` file goes. It
  // is worthless (a resume writes it again from the checkpoint), and on a full disk it
  // holds the space a resume needs. The file is left open (h5::File::leave_open) to the
  // job's abort: the other ranks may never reach a collective close, and a close after a
  // failed write crashes HDF5.
  void remove_after_error() noexcept;

  [[nodiscard]] const std::string& final_path() const { return final_path_; }
  // The ranks of the communicator that open the file, increasing.
  [[nodiscard]] const std::vector<int>& writers() const { return writers_; }

 private:
  h5::Group group_for(const std::string& path);

  std::string final_path_;
  mpi::Comm comm_;
  std::vector<int> writers_;
  mpi::Comm writer_comm_;         // the writers among themselves (the others: among themselves)
  std::optional<h5::File> file_;  // on the writers
};

}  // namespace levelforge
