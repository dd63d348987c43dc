// A dataset's shape and reads. A damaged file can claim any extent, so whole reads check
// the claim against the file's size before allocating for it.
#include <limits>
#include <numeric>

#include "runner/h5/check.hpp"
#include "runner/h5/dataspace.hpp"
#include "runner/h5/property_lists.hpp"

namespace levelforge::h5 {

std::vector<hsize_t> Dataset::dims() const {
  auto context = [&] { return "reading the extent of dataset " + describe(); };
  Handle space = checked_handle(H5Dget_space(id()), context);
  std::vector<hsize_t> extent(
      static_cast<std::size_t>(check(H5Sget_simple_extent_ndims(space.id()), context)));
  check(H5Sget_simple_extent_dims(space.id(), extent.data(), nullptr), context);
  return extent;
}

hsize_t Dataset::element_count() const {
  const std::vector<hsize_t> extent = dims();
  return std::accumulate(extent.begin(), extent.end(), hsize_t{1}, std::multiplies<>());
}

Datatype Dataset::datatype() const {
  return Datatype(checked_handle(H5Dget_type(id()),
                                 [&] { return "reading the datatype of dataset " + describe(); }));
}

void Dataset::set_extent(const std::vector<hsize_t>& new_dims) {
  auto context = [&] { return "resizing dataset " + describe() + " to " + dims_text(new_dims); };
  if (new_dims.size() != dims().size()) throw IoError(context() + ": wrong number of dimensions");
  check(H5Dset_extent(id(), new_dims.data()), context);
}

void Dataset::require_element_size(const Datatype& memory_type, std::size_t element_size) const {
  if (memory_type.size() != element_size) {
    throw IoError("reading dataset " + describe() + ": memory type has " +
                  std::to_string(memory_type.size()) + " bytes, the C++ type " +
                  std::to_string(element_size));
  }
}

void Dataset::require_whole_read_size(std::size_t element_size) const {
  auto context = [&] { return "reading dataset " + describe(); };
  hsize_t bytes = element_size;
  for (const hsize_t extent : dims()) {
    if (extent != 0 && bytes > std::numeric_limits<hsize_t>::max() / extent) {
      throw IoError(context() + ": its extent overflows a 64-bit size");
    }
    bytes *= extent;
  }
  Handle file(checked_handle(H5Iget_file_id(id()), context));
  hsize_t file_size = 0;
  check(H5Fget_filesize(file.id(), &file_size), context);
  // Deflate packs at most 1032 bytes into one; up to 64 MiB is allowed whatever the file's
  // size, since the unwritten chunks of a partial file read as fill values.
  constexpr hsize_t deflate_ratio = 1032;
  constexpr hsize_t always_allowed = hsize_t{64} << 20;
  const bool plausible = bytes <= always_allowed || bytes / deflate_ratio <= file_size;
  if (!plausible || bytes > std::numeric_limits<std::size_t>::max()) {
    throw IoError(context() + ": it claims " + std::to_string(bytes) +
                  " bytes, more than the file of " + std::to_string(file_size) +
                  " bytes can hold (a damaged file?)");
  }
}

void Dataset::read(const Datatype& memory_type, const std::vector<Block>& selection, void* out,
                   Transfer transfer) const {
  const std::string action = "reading dataset " + describe();
  Spaces spaces = select(id(), selection, action);
  const std::size_t element_size = memory_type.size();
  std::vector<std::byte> file_ordered;
  std::byte nothing{};
  void* target = spaces.layout.element_count == 0 ? &nothing : out;
  if (!spaces.layout.in_file_order) {
    file_ordered.resize(static_cast<std::size_t>(spaces.layout.element_count) * element_size);
    target = file_ordered.data();
  }
  Handle dxpl = transfer_list(transfer);
  check(H5Dread(id(), memory_type.id(), spaces.memory.id(), spaces.file.id(), dxpl.id(), target),
        [&] { return action; });
  if (!spaces.layout.in_file_order) {
    from_file_order(spaces.layout, file_ordered.data(), static_cast<std::byte*>(out), element_size);
  }
}

void Dataset::read_all(const Datatype& memory_type, void* out, Transfer transfer) const {
  Handle dxpl = transfer_list(transfer);
  check(H5Dread(id(), memory_type.id(), H5S_ALL, H5S_ALL, dxpl.id(), out),
        [&] { return "reading dataset " + describe(); });
}

}  // namespace levelforge::h5
