// A thin checked C++20 wrapper over the HDF5 C API (in the style of HighFive's h5d_wrapper):
// RAII handles whose destructors never throw, and one exception type, IoError, whose
// message names the file and object at fault plus the innermost HDF5 error message.
//
// Parallel files (File::create / File::open with a communicator) use MPI-IO with collective
// metadata reads and writes. On such a file every call that touches metadata (creating or
// opening groups, datasets and attributes, reading attributes, set_extent, flush, close) is
// collective: every rank of the communicator must make the same calls, with the same
// arguments, in the same order. Dataset reads and writes should be made on every rank too
// (a rank without data passes an empty selection): even an "independent" transfer may need
// metadata, which is read collectively. Writes default to collective transfers; HDF5 1.10
// refuses independent writes to filtered (deflate/shuffle) datasets, even on one rank.
// Closing a parallel file is collective too, and only close() does it (see File).
#pragma once

#include <hdf5.h>
#include <mpi.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runner/errors.hpp"

namespace levelforge::h5 {

// The one error type of this module. what() reads like
// "writing dataset '/ga/history' in results/x.h5: <innermost HDF5 message>". This rank's: the
// job is aborted, exit 1 (a command that reads a file the user gave makes it a usage error).
class IoError : public RankError {
 public:
  using RankError::RankError;
};

// Owns one reference to an HDF5 identifier. Copying takes another reference (H5Iinc_ref),
// moving steals it, and the destructor drops it (H5Idec_ref) without ever throwing; the
// object itself closes when its last reference goes.
class Handle {
 public:
  Handle() = default;
  // Takes over the reference that `id` already carries (as returned by H5Xopen/H5Xcreate).
  explicit Handle(hid_t id) noexcept;
  Handle(const Handle& other);
  Handle(Handle&& other) noexcept;
  Handle& operator=(const Handle& other);
  Handle& operator=(Handle&& other) noexcept;
  ~Handle();

  [[nodiscard]] hid_t id() const noexcept { return id_; }
  // True while the identifier refers to an open object.
  [[nodiscard]] bool valid() const noexcept;
  // Gives up ownership without dropping the reference; the handle becomes invalid.
  hid_t release() noexcept;

 private:
  hid_t id_ = H5I_INVALID_HID;
};

enum class Access { read_only, read_write };
enum class Transfer { collective, independent };

// One hyperslab: `count` elements from `start` in each dimension.
struct Block {
  std::vector<hsize_t> start;
  std::vector<hsize_t> count;
};

struct DatasetOptions {
  std::vector<hsize_t> chunk;     // non-empty: chunked layout (required by the filters)
  int deflate_level = 0;          // 1..9 adds the deflate (gzip) filter
  bool shuffle = false;           // byte shuffle before deflate
  std::vector<hsize_t> max_dims;  // empty: fixed size; H5S_UNLIMITED allowed (needs chunk)
  // One element of the dataset's type, held by every element never written; empty: zeros.
  std::vector<std::byte> fill;
};

// The kind of values a datatype holds.
enum class TypeClass { integer, floating, string, compound, other };

// What a link in a group leads to.
enum class ObjectKind { missing, group, dataset, other };

class Datatype {
 public:
  static Datatype int64();
  static Datatype uint64();
  static Datatype int32();
  static Datatype uint8();
  static Datatype int8();
  static Datatype float64();
  // `size` bytes of ASCII, null-padded (a string of exactly `size` bytes has no terminator).
  static Datatype fixed_string(std::size_t size);

  // Builds a compound type member by member, e.g. with offsetof() of a C++ struct.
  class CompoundBuilder {
   public:
    explicit CompoundBuilder(std::size_t size);
    CompoundBuilder& add(const std::string& name, std::size_t offset, const Datatype& member);
    Datatype build();

   private:
    Handle handle_;
  };

  explicit Datatype(Handle handle) : handle_(std::move(handle)) {}

  [[nodiscard]] hid_t id() const noexcept { return handle_.id(); }
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] TypeClass type_class() const;
  [[nodiscard]] bool is_unsigned() const;                       // integer types only
  [[nodiscard]] std::vector<std::string> member_names() const;  // compound types only
  [[nodiscard]] Datatype member_type(std::size_t index) const;  // compound types only
  [[nodiscard]] bool equals(const Datatype& other) const;

 private:
  Handle handle_;
};

// What groups and datasets share: identity for error messages, and attributes.
// Attribute writes replace an attribute of the same name; on a parallel file they are
// collective and every rank must pass the same value. Readers accept fixed- and
// variable-length strings, any integer type for the int readers, and any integer or
// floating type for the double readers.
class Object {
 public:
  [[nodiscard]] hid_t id() const noexcept { return handle_.id(); }
  [[nodiscard]] const std::string& file_path() const noexcept { return file_path_; }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }  // e.g. "/ga/history"

  void write_attribute(const std::string& name, const std::string& value);
  void write_attribute(const std::string& name, std::int64_t value);
  void write_attribute(const std::string& name, double value);
  void write_attribute(const std::string& name, const std::vector<std::string>& values);
  void write_attribute(const std::string& name, const std::vector<std::int64_t>& values);
  void write_attribute(const std::string& name, const std::vector<double>& values);
  // Other integer types (a plain `3` would be ambiguous between int64 and double).
  template <std::integral T>
  requires(!std::same_as<T, bool> &&
           !std::same_as<T, std::int64_t>) void write_attribute(const std::string& name, T value) {
    if (!std::in_range<std::int64_t>(value)) {
      throw IoError("attribute '" + name + "' of " + describe() + ": value does not fit int64");
    }
    write_attribute(name, static_cast<std::int64_t>(value));
  }

  [[nodiscard]] std::string read_string_attribute(const std::string& name) const;
  [[nodiscard]] std::int64_t read_int_attribute(const std::string& name) const;
  [[nodiscard]] double read_double_attribute(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> read_strings_attribute(const std::string& name) const;
  [[nodiscard]] std::vector<std::int64_t> read_int_attribute_array(const std::string& name) const;
  [[nodiscard]] std::vector<double> read_double_attribute_array(const std::string& name) const;

  [[nodiscard]] bool has_attribute(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> attribute_names() const;  // in name order

 protected:
  Object(Handle handle, std::string file_path, std::string path);
  // "'/ga/history' in results/x.h5", for error messages.
  [[nodiscard]] std::string describe() const;

 private:
  Handle handle_;
  std::string file_path_;
  std::string path_;
};

// Selections are unions of blocks, transferred in one HDF5 call (one collective operation).
// The data of a selection is packed contiguously in the order the blocks are given, each
// block in row-major order. HDF5 visits a union of hyperslabs in file (row-major) order
// instead, so when the two orders differ (blocks out of order, or blocks that interleave
// row by row, like two column strips) the buffer goes through a temporary copy in file
// order; blocks already in file order, such as rows in increasing order, are passed
// through untouched. Blocks must have the dataset's rank, lie inside its extent and not
// overlap; otherwise IoError is thrown before any I/O (so on every rank, when all ranks
// pass invalid selections alike). An empty selection means "this rank transfers nothing"
// and still takes part in collective transfers; `data` may then be nullptr.
class Dataset : public Object {
 public:
  Dataset(Handle handle, std::string file_path, std::string path)
      : Object(std::move(handle), std::move(file_path), std::move(path)) {}

  [[nodiscard]] std::vector<hsize_t> dims() const;
  [[nodiscard]] hsize_t element_count() const;
  [[nodiscard]] Datatype datatype() const;
  void set_extent(const std::vector<hsize_t>& dims);  // collective on a parallel file

  // The writes return what HDF5 did on this rank (H5Pget_mpio_actual_io_mode): a
  // collective request can fall back to independent I/O without an error, and
  // H5D_MPIO_NO_COLLECTIVE is what a serial file, an independent write or an empty dataset
  // reports. Callers may ignore it; tests hold the collective writes to it.
  H5D_mpio_actual_io_mode_t write(const Datatype& memory_type, const std::vector<Block>& selection,
                                  const void* data, Transfer transfer = Transfer::collective);
  // Collective: writes the whole dataset from rank 0 of the file's communicator; the other
  // ranks take part without data and may pass nullptr. On a serial file it simply writes.
  H5D_mpio_actual_io_mode_t write_all(const Datatype& memory_type, const void* data);

  void read(const Datatype& memory_type, const std::vector<Block>& selection, void* out,
            Transfer transfer = Transfer::independent) const;
  void read_all(const Datatype& memory_type, void* out,
                Transfer transfer = Transfer::independent) const;

  // Throws IoError unless a whole read of `element_size`-byte elements fits in memory and
  // this file can hold that much data: a damaged file can claim any extent, and the buffer
  // for a whole read is allocated from it before HDF5 reads a byte.
  void require_whole_read_size(std::size_t element_size) const;
  template <class T>
  [[nodiscard]] std::vector<T> read_all_as(const Datatype& memory_type) const {
    require_element_size(memory_type, sizeof(T));
    require_whole_read_size(sizeof(T));
    std::vector<T> out(static_cast<std::size_t>(element_count()));
    read_all(memory_type, out.data());
    return out;
  }

 private:
  void require_element_size(const Datatype& memory_type, std::size_t element_size) const;
};

class Group : public Object {
 public:
  Group(Handle handle, std::string file_path, std::string path)
      : Object(std::move(handle), std::move(file_path), std::move(path)) {}

  // `name` may be a relative path ("a/b") or absolute ("/a/b").
  Group create_group(const std::string& name);
  [[nodiscard]] Group open_group(const std::string& name) const;
  [[nodiscard]] bool has(const std::string& name) const;  // a link of that name/path exists
  // What `name` (a name or path) leads to; missing when no link of that path exists.
  [[nodiscard]] ObjectKind kind_of(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> children() const;  // link names, in name order
  Dataset create_dataset(const std::string& name, const Datatype& type,
                         const std::vector<hsize_t>& dims, const DatasetOptions& options = {});
  [[nodiscard]] Dataset open_dataset(const std::string& name) const;
};

// An open HDF5 file. Close (or destroy) groups and datasets before their file: a parallel
// file refuses to close while objects in it are open (HDF5's "semi" close degree), which
// keeps the collective close at the same point on every rank.
//
// One rule for collective resources (as mpi::Counters): close() is the one collective call,
// and the destructor never is. A serial file closes with its last reference; a parallel
// file not closed by close() is left open to the job's abort, since a destructor reached
// without close() is on an error path, where the other ranks may never reach the close
// (and after a failed write closing crashes HDF5): waiting for them would turn the error
// into a hang. So every success path calls close() (ResultFile::commit does).
class File {
 public:
  File(File&&) noexcept = default;
  File& operator=(File&& other) noexcept;
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  ~File();

  // Collective over `comm`; truncates an existing file.
  static File create(const std::string& path, MPI_Comm comm);
  // Collective over `comm`.
  static File open(const std::string& path, MPI_Comm comm, Access access);
  // One process, default driver; truncates an existing file.
  static File create_serial(const std::string& path);
  // One process, default driver.
  static File open_serial(const std::string& path, Access access);
  // One process, in memory only (HDF5's core driver without a backing store), to be written
  // out whole from image(): HDF5 itself never writes to disk, so a full disk is a plain
  // write error of the caller's, not a failed flush inside HDF5. `name` is for messages.
  static File create_in_memory(const std::string& name);
  // The bytes of the file as it would be on disk: its user block, then H5Fget_file_image's.
  [[nodiscard]] std::vector<std::byte> image();
  // One process, read only, and only once the file's seal matches (seal.hpp): how levelforge
  // reads the files it wrote earlier (results, shards, checkpoints).
  static File open_sealed(const std::string& path);

  [[nodiscard]] hid_t id() const noexcept { return handle_.id(); }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] Group root() const;
  void flush();
  // Collective on a parallel file. Drops this File's reference (closing the file when it
  // was the last) and reports errors. After a successful close the File is invalid; after a
  // failed one it still holds its reference.
  void close();
  // Gives the file up without closing it, also a serial one: HDF5 keeps it open until the
  // process ends. For a file beyond saving on an error path. The File is invalid afterwards.
  void leave_open() noexcept;

 private:
  enum class Driver { serial, mpio };
  File(Handle handle, std::string path, Driver driver = Driver::serial)
      : handle_(std::move(handle)), path_(std::move(path)), driver_(driver) {}

  Handle handle_;
  std::string path_;
  Driver driver_ = Driver::serial;
};

}  // namespace levelforge::h5
