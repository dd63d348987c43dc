// Files: how each kind is opened, and the one rule for closing them. Closing a parallel
// file is collective, so only close() does it; a destructor reached without close() is on
// an error path, where waiting for the other ranks would turn the error into a hang.
#include <filesystem>

#include "runner/files/input_file.hpp"
#include "runner/h5/check.hpp"
#include "runner/h5/property_lists.hpp"
#include "runner/h5/seal.hpp"

namespace levelforge::h5 {

namespace {
// Every file levelforge writes leaves room for its seal (seal.hpp).
Handle sealable_creation_list(const std::string& path) {
  auto context = [&] { return "setting up the creation of " + path; };
  Handle fcpl = checked_handle(H5Pcreate(H5P_FILE_CREATE), context);
  check(H5Pset_userblock(fcpl.id(), seal_block_size), context);
  return fcpl;
}
}  // namespace

File File::create(const std::string& path, MPI_Comm comm) {
  silence_hdf5_printing();
  Handle fapl = mpio_access_list(comm, path);
  Handle fcpl = sealable_creation_list(path);
  return {checked_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.id(), fapl.id()),
                         [&] { return "creating " + path; }),
          path, Driver::mpio};
}

namespace {
unsigned open_flags(Access access) {
  return access == Access::read_write ? H5F_ACC_RDWR : H5F_ACC_RDONLY;
}
}  // namespace

File File::open(const std::string& path, MPI_Comm comm, Access access) {
  silence_hdf5_printing();
  Handle fapl = mpio_access_list(comm, path);
  return {checked_handle(H5Fopen(path.c_str(), open_flags(access), fapl.id()),
                         [&] { return "opening " + path; }),
          path, Driver::mpio};
}

File File::create_serial(const std::string& path) {
  silence_hdf5_printing();
  Handle fcpl = sealable_creation_list(path);
  return {checked_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.id(), H5P_DEFAULT),
                         [&] { return "creating " + path; }),
          path};
}

File File::create_in_memory(const std::string& name) {
  silence_hdf5_printing();
  auto context = [&] { return "creating " + name + " in memory"; };
  Handle fapl = checked_handle(H5Pcreate(H5P_FILE_ACCESS), context);
  constexpr std::size_t growth = std::size_t{1} << 20U;
  check(H5Pset_fapl_core(fapl.id(), growth, false), context);
  Handle fcpl = sealable_creation_list(name);
  return {checked_handle(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, fcpl.id(), fapl.id()), context),
          name};
}

std::vector<std::byte> File::image() {
  auto context = [&] { return "taking the image of " + path_; };
  flush();
  // HDF5's image starts at its superblock; the user block (all zeros until sealed) goes first.
  const Handle fcpl = checked_handle(H5Fget_create_plist(id()), context);
  hsize_t user_block = 0;
  check(H5Pget_userblock(fcpl.id(), &user_block), context);
  const auto size = H5Fget_file_image(id(), nullptr, 0);
  if (size < 0) check(static_cast<herr_t>(-1), context);
  std::vector<std::byte> bytes(user_block + static_cast<std::size_t>(size));
  if (H5Fget_file_image(id(), bytes.data() + user_block, static_cast<std::size_t>(size)) != size)
    check(static_cast<herr_t>(-1), context);
  return bytes;
}

File File::open_serial(const std::string& path, Access access) {
  silence_hdf5_printing();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw IoError(path + " does not exist");
  // Opening a FIFO would wait for a writer; a device is no HDF5 file.
  if (const auto kind = special_file_kind(path); !kind.empty() && kind != "a directory")
    throw IoError(path + " is " + kind + ", not an HDF5 file");
  auto context = [&] { return "opening " + path; };
  if (check(H5Fis_hdf5(path.c_str()), context) <= 0) throw IoError(path + " is not an HDF5 file");
  return {checked_handle(H5Fopen(path.c_str(), open_flags(access), H5P_DEFAULT), context), path};
}

File File::open_sealed(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw IoError(path + " does not exist");
  if (std::filesystem::is_directory(path, error)) throw IoError(path + " is a directory");
  verify_seal(path);
  return open_serial(path, Access::read_only);
}

Group File::root() const {
  return {checked_handle(H5Gopen2(id(), "/", H5P_DEFAULT),
                         [&] { return "opening the root group of " + path_; }),
          path_, "/"};
}

void File::flush() {
  check(H5Fflush(id(), H5F_SCOPE_GLOBAL), [&] { return "flushing " + path_; });
}

void File::close() {
  if (id() < 0) return;
  // A failed H5Fclose (objects still open on a parallel file) keeps the reference, so the
  // handle keeps it too: a later close() can try again.
  check(H5Fclose(id()), [&] { return "closing " + path_; });
  handle_.release();
}

void File::leave_open() noexcept { (void)handle_.release(); }

File::~File() {
  // Dropping the last reference to a parallel file would close it, collectively.
  if (driver_ == Driver::mpio) leave_open();
}

File& File::operator=(File&& other) noexcept {
  if (this != &other) {
    if (driver_ == Driver::mpio) leave_open();  // as the destructor does
    handle_ = std::move(other.handle_);
    path_ = std::move(other.path_);
    driver_ = other.driver_;
  }
  return *this;
}

}  // namespace levelforge::h5
