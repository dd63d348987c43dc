// Property lists: where a file's MPI-IO setup and a transfer's collective mode are decided,
// kept apart from the calls that use them so that the choice is made in one place.
#pragma once

#include <hdf5.h>
#include <mpi.h>

#include <string>

#include "runner/h5/h5.hpp"

namespace levelforge::h5 {

// A dataset transfer list asking for a collective or an independent MPI-IO transfer.
Handle transfer_list(Transfer transfer);

// What HDF5 did with a transfer made with `dxpl` (H5Pget_mpio_actual_io_mode).
H5D_mpio_actual_io_mode_t actual_io_mode(const Handle& dxpl, const std::string& action);

// File access through MPI-IO over `comm`, with collective metadata reads and writes.
Handle mpio_access_list(MPI_Comm comm, const std::string& path);

// Dataset creation: fill value, chunks and filters. Throws IoError naming `action` for
// options HDF5 would refuse less clearly.
Handle creation_list(const DatasetOptions& options, const Datatype& type,
                     const std::string& action);

// Whether `object` lives in a file opened with the MPI-IO driver.
bool in_parallel_file(hid_t object, const std::string& description);

// Rank within the communicator the object's file was opened with; 0 for serial files.
int rank_in_file(hid_t object, const std::string& description);

}  // namespace levelforge::h5
