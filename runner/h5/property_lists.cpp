// Collective metadata I/O and collective transfers are set here and nowhere else: a parallel
// file's correctness depends on every rank agreeing, and tests hold the result to it.
#include "runner/h5/property_lists.hpp"

#include "runner/h5/check.hpp"

namespace levelforge::h5 {

Handle transfer_list(Transfer transfer) {
  Handle dxpl = checked_handle(H5Pcreate(H5P_DATASET_XFER),
                               [] { return "creating a transfer property list"; });
  const H5FD_mpio_xfer_t mode =
      transfer == Transfer::collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT;
  check(H5Pset_dxpl_mpio(dxpl.id(), mode), [] { return "setting the MPI-IO transfer mode"; });
  return dxpl;
}

H5D_mpio_actual_io_mode_t actual_io_mode(const Handle& dxpl, const std::string& action) {
  H5D_mpio_actual_io_mode_t mode = H5D_MPIO_NO_COLLECTIVE;
  check(H5Pget_mpio_actual_io_mode(dxpl.id(), &mode),
        [&] { return action + ": reading the MPI-IO mode HDF5 used"; });
  return mode;
}

Handle mpio_access_list(MPI_Comm comm, const std::string& path) {
  auto context = [&] { return "setting up MPI-IO access to " + path; };
  Handle fapl = checked_handle(H5Pcreate(H5P_FILE_ACCESS), context);
  check(H5Pset_fapl_mpio(fapl.id(), comm, MPI_INFO_NULL), context);
  // Collective metadata I/O: one rank reads/writes metadata and broadcasts, instead of every
  // rank hitting the file system.
  check(H5Pset_all_coll_metadata_ops(fapl.id(), true), context);
  check(H5Pset_coll_metadata_write(fapl.id(), true), context);
  return fapl;
}

Handle creation_list(const DatasetOptions& options, const Datatype& type,
                     const std::string& action) {
  auto context = [&] { return action; };
  Handle dcpl = checked_handle(H5Pcreate(H5P_DATASET_CREATE), context);
  if (!options.fill.empty()) {
    if (options.fill.size() != type.size()) {
      throw IoError(action + ": a fill value of " + std::to_string(options.fill.size()) +
                    " bytes for elements of " + std::to_string(type.size()));
    }
    check(H5Pset_fill_value(dcpl.id(), type.id(), options.fill.data()), context);
  }
  if (options.chunk.empty()) {
    if (options.deflate_level > 0 || options.shuffle) {
      throw IoError(action + ": filters (deflate, shuffle) need a chunked layout");
    }
    return dcpl;
  }
  check(H5Pset_chunk(dcpl.id(), static_cast<int>(options.chunk.size()), options.chunk.data()),
        context);
  if (options.shuffle) check(H5Pset_shuffle(dcpl.id()), context);
  if (options.deflate_level > 0) {
    check(H5Pset_deflate(dcpl.id(), static_cast<unsigned>(options.deflate_level)), context);
  }
  return dcpl;
}

bool in_parallel_file(hid_t object, const std::string& description) {
  auto context = [&] { return "finding the file driver of " + description; };
  Handle file = checked_handle(H5Iget_file_id(object), context);
  Handle fapl = checked_handle(H5Fget_access_plist(file.id()), context);
  return check(H5Pget_driver(fapl.id()), context) == H5FD_MPIO;
}

int rank_in_file(hid_t object, const std::string& description) {
  auto context = [&] { return "finding the MPI communicator of " + description; };
  if (!in_parallel_file(object, description)) return 0;
  Handle file = checked_handle(H5Iget_file_id(object), context);
  Handle fapl = checked_handle(H5Fget_access_plist(file.id()), context);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Info info = MPI_INFO_NULL;
  check(H5Pget_fapl_mpio(fapl.id(), &comm, &info), context);  // hands us duplicates
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_free(&comm);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  return rank;
}

}  // namespace levelforge::h5
