// Writes, collective unless asked otherwise: HDF5 1.10 writes filtered (deflated) datasets
// only collectively, and the result file's tables are filtered. Each write reports what
// HDF5 actually did, since a collective request can fall back to independent I/O silently.
#include <cstddef>

#include "runner/h5/check.hpp"
#include "runner/h5/dataspace.hpp"
#include "runner/h5/property_lists.hpp"

namespace levelforge::h5 {

H5D_mpio_actual_io_mode_t Dataset::write(const Datatype& memory_type,
                                         const std::vector<Block>& selection, const void* data,
                                         Transfer transfer) {
  // An empty dataset has no storage to write to; every rank sees the same extent, so
  // every rank skips the collective call alike.
  if (element_count() == 0) return H5D_MPIO_NO_COLLECTIVE;
  const std::string action = "writing dataset " + describe();
  Spaces spaces = select(id(), selection, action);
  const std::size_t element_size = memory_type.size();
  std::vector<std::byte> file_ordered;
  if (!spaces.layout.in_file_order) {
    file_ordered = to_file_order(spaces.layout, static_cast<const std::byte*>(data), element_size);
    data = file_ordered.data();
  }
  const std::byte nothing{};
  if (spaces.layout.element_count == 0) data = &nothing;  // HDF5 rejects null buffers
  Handle dxpl = transfer_list(transfer);
  check(H5Dwrite(id(), memory_type.id(), spaces.memory.id(), spaces.file.id(), dxpl.id(), data),
        [&] { return action; });
  return actual_io_mode(dxpl, action);
}

H5D_mpio_actual_io_mode_t Dataset::write_all(const Datatype& memory_type, const void* data) {
  const std::string action = "writing dataset " + describe();
  Handle file_space = checked_handle(H5Dget_space(id()), [&] { return action; });
  const bool contributes = rank_in_file(id(), describe()) == 0;
  Handle memory_space = contributes
                            ? checked_handle(H5Scopy(file_space.id()), [&] { return action; })
                            : simple_space({1});
  if (!contributes) {
    check(H5Sselect_none(file_space.id()), [&] { return action; });
    check(H5Sselect_none(memory_space.id()), [&] { return action; });
  }
  const std::byte nothing{};
  Handle dxpl = in_parallel_file(id(), describe())
                    ? transfer_list(Transfer::collective)
                    : checked_handle(H5Pcreate(H5P_DATASET_XFER), [&] { return action; });
  check(H5Dwrite(id(), memory_type.id(), memory_space.id(), file_space.id(), dxpl.id(),
                 contributes ? data : &nothing),
        [&] { return action; });
  return actual_io_mode(dxpl, action);
}

}  // namespace levelforge::h5
