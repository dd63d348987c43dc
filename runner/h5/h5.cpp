#include "runner/h5/h5.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <limits>
#include <numeric>

#include "runner/files/input_file.hpp"
#include "runner/h5/seal.hpp"
#include "runner/h5/selection.hpp"

namespace levelforge::h5 {
namespace {

// ---- errors -------------------------------------------------------------------------------

// HDF5 prints its error stack to stderr by default; we report it through IoError instead.
// Called before any operation that can fail on a fresh library.
void silence_hdf5_printing() {
  static const bool silenced = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  if (!silenced) throw IoError("cannot turn off HDF5's own error printing (H5Eset_auto2 failed)");
}

herr_t take_first_message(unsigned n, const H5E_error2_t* entry, void* out) {
  if (n == 0 && entry->desc != nullptr) {
    *static_cast<std::string*>(out) = entry->desc;
  }
  return 0;
}

// The message of the innermost (most specific) entry of the calling thread's error stack.
std::string innermost_hdf5_message() {
  std::string message;
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_first_message, &message) < 0) message.clear();
  return message.empty() ? std::string("no HDF5 error details") : message;
}

// Throws IoError when an HDF5 call returned a negative value. `context` is a callable
// returning what was being done; it runs only on failure, after the error stack is read
// (building the context must not disturb the stack).
template <class Result, class Context>
Result check(Result result, Context&& context) {
  if (result < 0) {
    std::string hdf5_message = innermost_hdf5_message();
    throw IoError(std::string(context()) + ": " + hdf5_message);
  }
  return result;
}

template <class Context>
Handle checked_handle(hid_t id, Context&& context) {
  return Handle(check(id, std::forward<Context>(context)));
}

std::string in_quotes(const std::string& name) { return "'" + name + "'"; }

std::string join_path(const std::string& parent, const std::string& name) {
  if (!name.empty() && name.front() == '/') return name;
  return parent == "/" ? "/" + name : parent + "/" + name;
}

// ---- dataspaces and property lists -------------------------------------------------------

Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims = {}) {
  if (dims.empty()) {
    return checked_handle(H5Screate(H5S_SCALAR), [] { return "creating a scalar dataspace"; });
  }
  return checked_handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(),
                                         max_dims.empty() ? nullptr : max_dims.data()),
                        [&] { return "creating a dataspace of extent " + dims_text(dims); });
}

Handle transfer_list(Transfer transfer) {
  Handle dxpl = checked_handle(H5Pcreate(H5P_DATASET_XFER),
                               [] { return "creating a transfer property list"; });
  const H5FD_mpio_xfer_t mode =
      transfer == Transfer::collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT;
  check(H5Pset_dxpl_mpio(dxpl.id(), mode), [] { return "setting the MPI-IO transfer mode"; });
  return dxpl;
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

bool in_parallel_file(hid_t object, const std::string& description) {
  auto context = [&] { return "finding the file driver of " + description; };
  Handle file = checked_handle(H5Iget_file_id(object), context);
  Handle fapl = checked_handle(H5Fget_access_plist(file.id()), context);
  return check(H5Pget_driver(fapl.id()), context) == H5FD_MPIO;
}

// Rank within the communicator the object's file was opened with; 0 for serial files.
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

// ---- attributes ---------------------------------------------------------------------------

Handle string_type(std::size_t size) {
  Handle type = checked_handle(H5Tcopy(H5T_C_S1), [] { return "copying the string type"; });
  auto context = [&] { return "making a " + std::to_string(size) + "-byte string type"; };
  check(H5Tset_size(type.id(), std::max<std::size_t>(size, 1)), context);
  check(H5Tset_strpad(type.id(), H5T_STR_NULLPAD), context);
  check(H5Tset_cset(type.id(), H5T_CSET_ASCII), context);
  return type;
}

// Attributes hold variable-length UTF-8 strings: h5py reads them as str, not bytes.
Handle text_type() {
  Handle type = checked_handle(H5Tcopy(H5T_C_S1), [] { return "copying the string type"; });
  auto context = [] { return "making a variable-length string type"; };
  check(H5Tset_size(type.id(), H5T_VARIABLE), context);
  check(H5Tset_cset(type.id(), H5T_CSET_UTF8), context);
  return type;
}

// Strips what HDF5 pads fixed-length strings with.
std::string unpad(const char* text, std::size_t width, H5T_str_t pad) {
  std::size_t length = width;
  if (pad == H5T_STR_SPACEPAD) {
    while (length > 0 && text[length - 1] == ' ') --length;
  } else {
    length = static_cast<std::size_t>(std::find(text, text + width, '\0') - text);
  }
  return {text, length};
}

class AttributeIo {
 public:
  AttributeIo(hid_t object, std::string name, std::string description)
      : object_(object), name_(std::move(name)), description_(std::move(description)) {}

  // Replaces any attribute of this name with `count` elements (or a scalar when `scalar`).
  void write(hid_t file_type, hid_t memory_type, bool scalar, hsize_t count, const void* data) {
    auto context = [&] { return "writing attribute " + in_quotes(name_) + " of " + description_; };
    if (check(H5Aexists(object_, name_.c_str()), context) > 0) {
      check(H5Adelete(object_, name_.c_str()), context);
    }
    Handle space = scalar ? simple_space({}) : simple_space({count});
    Handle attribute = checked_handle(
        H5Acreate2(object_, name_.c_str(), file_type, space.id(), H5P_DEFAULT, H5P_DEFAULT),
        context);
    if (scalar || count > 0) check(H5Awrite(attribute.id(), memory_type, data), context);
  }

  [[nodiscard]] std::vector<std::string> read_strings() const {
    auto context = [&] { return "reading attribute " + in_quotes(name_) + " of " + description_; };
    Handle attribute = open();
    Handle file_type = checked_handle(H5Aget_type(attribute.id()), context);
    if (check(H5Tget_class(file_type.id()), context) != H5T_STRING) {
      throw IoError(context() + ": not a string attribute");
    }
    const std::size_t count = element_count(attribute);
    if (count == 0) return {};
    const bool variable = check(H5Tis_variable_str(file_type.id()), context) > 0;
    // A memory type of the file's character set: HDF5 will not convert between sets.
    Handle memory_type =
        checked_handle(H5Tget_native_type(file_type.id(), H5T_DIR_DEFAULT), context);
    if (variable) return read_variable_strings(attribute, memory_type, count);
    const std::size_t width = H5Tget_size(file_type.id());
    if (width == 0) check(-1, context);
    const H5T_str_t pad = H5Tget_strpad(file_type.id());
    if (pad == H5T_STR_ERROR) check(-1, context);
    std::vector<char> buffer(count * width);
    check(H5Aread(attribute.id(), memory_type.id(), buffer.data()), context);
    std::vector<std::string> values;
    for (std::size_t i = 0; i < count; ++i) values.push_back(unpad(&buffer[i * width], width, pad));
    return values;
  }

  // Reads numbers of class `wanted` (or integers, when `accept_integers`) as `memory_type`.
  template <class T>
  [[nodiscard]] std::vector<T> read_numbers(hid_t memory_type, H5T_class_t wanted,
                                            bool accept_integers) const {
    auto context = [&] { return "reading attribute " + in_quotes(name_) + " of " + description_; };
    Handle attribute = open();
    Handle file_type = checked_handle(H5Aget_type(attribute.id()), context);
    const H5T_class_t type_class = check(H5Tget_class(file_type.id()), context);
    if (type_class != wanted && !(accept_integers && type_class == H5T_INTEGER)) {
      throw IoError(context() + ": attribute holds no " +
                    (wanted == H5T_INTEGER ? "integers" : "floating-point numbers"));
    }
    std::vector<T> values(element_count(attribute));
    if (!values.empty()) check(H5Aread(attribute.id(), memory_type, values.data()), context);
    return values;
  }

  template <class T>
  static T single(std::vector<T> values, const std::string& name, const std::string& description) {
    if (values.size() != 1) {
      throw IoError("reading attribute " + in_quotes(name) + " of " + description + ": holds " +
                    std::to_string(values.size()) + " values, not one");
    }
    return std::move(values.front());
  }

 private:
  [[nodiscard]] Handle open() const {
    return checked_handle(H5Aopen(object_, name_.c_str(), H5P_DEFAULT), [&] {
      return "opening attribute " + in_quotes(name_) + " of " + description_;
    });
  }

  [[nodiscard]] std::size_t element_count(const Handle& attribute) const {
    auto context = [&] { return "reading the extent of attribute " + in_quotes(name_); };
    Handle space = checked_handle(H5Aget_space(attribute.id()), context);
    return static_cast<std::size_t>(check(H5Sget_simple_extent_npoints(space.id()), context));
  }

  [[nodiscard]] std::vector<std::string> read_variable_strings(const Handle& attribute,
                                                               const Handle& memory_type,
                                                               std::size_t count) const {
    auto context = [&] { return "reading attribute " + in_quotes(name_) + " of " + description_; };
    std::vector<char*> pointers(count, nullptr);
    check(H5Aread(attribute.id(), memory_type.id(), pointers.data()), context);
    std::vector<std::string> values;
    values.reserve(pointers.size());
    for (const char* pointer : pointers) values.emplace_back(pointer == nullptr ? "" : pointer);
    // The library allocated the strings; hand them back the way it allocated them.
    Handle space = checked_handle(H5Aget_space(attribute.id()), context);
    check(H5Dvlen_reclaim(memory_type.id(), space.id(), H5P_DEFAULT, pointers.data()), context);
    return values;
  }

  hid_t object_;
  std::string name_;
  std::string description_;
};

herr_t collect_name(const char* name, std::vector<std::string>& names) noexcept {
  try {
    names.emplace_back(name);
    return 0;
  } catch (...) {
    return -1;  // no exceptions through HDF5's C frames
  }
}

herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* names) {
  return collect_name(name, *static_cast<std::vector<std::string>*>(names));
}

herr_t collect_link_name(hid_t, const char* name, const H5L_info_t*, void* names) {
  return collect_name(name, *static_cast<std::vector<std::string>*>(names));
}

}  // namespace

// ---- Handle -------------------------------------------------------------------------------

Handle::Handle(hid_t id) noexcept : id_(id) {}

Handle::Handle(const Handle& other) : id_(other.id_) {
  if (id_ >= 0) check(H5Iinc_ref(id_), [] { return "taking another reference to an HDF5 object"; });
}

Handle::Handle(Handle&& other) noexcept : id_(other.release()) {}

Handle& Handle::operator=(const Handle& other) {
  if (this != &other) *this = Handle(other);
  return *this;
}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    Handle old(release());  // dropped at the end of this scope
    id_ = other.release();
  }
  return *this;
}

Handle::~Handle() {
  if (id_ >= 0) H5Idec_ref(id_);  // errors ignored: destructors must not throw
}

bool Handle::valid() const noexcept { return id_ >= 0 && H5Iis_valid(id_) > 0; }

hid_t Handle::release() noexcept { return std::exchange(id_, H5I_INVALID_HID); }

// ---- Datatype -----------------------------------------------------------------------------

namespace {
// A private copy, so that every Datatype owns a transient type it may close.
Datatype copy_of(hid_t predefined) {
  silence_hdf5_printing();
  return Datatype(checked_handle(H5Tcopy(predefined), [] { return "copying a predefined type"; }));
}
}  // namespace

Datatype Datatype::int64() { return copy_of(H5T_NATIVE_INT64); }
Datatype Datatype::uint64() { return copy_of(H5T_NATIVE_UINT64); }
Datatype Datatype::int32() { return copy_of(H5T_NATIVE_INT32); }
Datatype Datatype::uint8() { return copy_of(H5T_NATIVE_UINT8); }
Datatype Datatype::int8() { return copy_of(H5T_NATIVE_INT8); }
Datatype Datatype::float64() { return copy_of(H5T_NATIVE_DOUBLE); }

Datatype Datatype::fixed_string(std::size_t size) {
  silence_hdf5_printing();
  if (size == 0) throw IoError("a fixed-length string type needs at least one byte");
  return Datatype(string_type(size));
}

Datatype::CompoundBuilder::CompoundBuilder(std::size_t size) {
  silence_hdf5_printing();
  handle_ = checked_handle(H5Tcreate(H5T_COMPOUND, size), [&] {
    return "creating a " + std::to_string(size) + "-byte compound type";
  });
}

Datatype::CompoundBuilder& Datatype::CompoundBuilder::add(const std::string& name,
                                                          std::size_t offset,
                                                          const Datatype& member) {
  check(H5Tinsert(handle_.id(), name.c_str(), offset, member.id()), [&] {
    return "adding member " + in_quotes(name) + " at offset " + std::to_string(offset) +
           " to a compound type";
  });
  return *this;
}

Datatype Datatype::CompoundBuilder::build() { return Datatype(std::move(handle_)); }

std::size_t Datatype::size() const {
  const std::size_t size = H5Tget_size(id());
  if (size == 0) check(-1, [] { return "reading the size of a datatype"; });
  return size;
}

TypeClass Datatype::type_class() const {
  switch (check(H5Tget_class(id()), [] { return "reading the class of a datatype"; })) {
    case H5T_INTEGER: return TypeClass::integer;
    case H5T_FLOAT: return TypeClass::floating;
    case H5T_STRING: return TypeClass::string;
    case H5T_COMPOUND: return TypeClass::compound;
    default: return TypeClass::other;
  }
}

bool Datatype::is_unsigned() const {
  return check(H5Tget_sign(id()), [] { return "reading the sign of an integer type"; }) ==
         H5T_SGN_NONE;
}

Datatype Datatype::member_type(std::size_t index) const {
  return Datatype(checked_handle(H5Tget_member_type(id(), static_cast<unsigned>(index)), [&] {
    return "reading the type of member " + std::to_string(index) + " of a compound type";
  }));
}

std::vector<std::string> Datatype::member_names() const {
  auto context = [] { return "reading the member names of a compound type"; };
  const int count = check(H5Tget_nmembers(id()), context);
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    char* name = H5Tget_member_name(id(), static_cast<unsigned>(i));  // H5free_memory below
    if (name == nullptr) check(-1, context);
    names.emplace_back(name);
    H5free_memory(name);
  }
  return names;
}

bool Datatype::equals(const Datatype& other) const {
  return check(H5Tequal(id(), other.id()), [] { return "comparing two datatypes"; }) > 0;
}

// ---- Object: attributes -------------------------------------------------------------------

Object::Object(Handle handle, std::string file_path, std::string path)
    : handle_(std::move(handle)), file_path_(std::move(file_path)), path_(std::move(path)) {}

std::string Object::describe() const { return in_quotes(path_) + " in " + file_path_; }

void Object::write_attribute(const std::string& name, const std::string& value) {
  Handle type = text_type();
  const char* text = value.c_str();
  AttributeIo(id(), name, describe()).write(type.id(), type.id(), true, 1, &text);
}

void Object::write_attribute(const std::string& name, std::int64_t value) {
  AttributeIo(id(), name, describe()).write(H5T_NATIVE_INT64, H5T_NATIVE_INT64, true, 1, &value);
}

void Object::write_attribute(const std::string& name, double value) {
  AttributeIo(id(), name, describe()).write(H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, true, 1, &value);
}

void Object::write_attribute(const std::string& name, const std::vector<std::string>& values) {
  Handle type = text_type();
  std::vector<const char*> texts;
  texts.reserve(values.size());
  for (const auto& value : values) texts.push_back(value.c_str());
  AttributeIo(id(), name, describe())
      .write(type.id(), type.id(), false, values.size(), texts.data());
}

void Object::write_attribute(const std::string& name, const std::vector<std::int64_t>& values) {
  AttributeIo(id(), name, describe())
      .write(H5T_NATIVE_INT64, H5T_NATIVE_INT64, false, values.size(), values.data());
}

void Object::write_attribute(const std::string& name, const std::vector<double>& values) {
  AttributeIo(id(), name, describe())
      .write(H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, false, values.size(), values.data());
}

std::string Object::read_string_attribute(const std::string& name) const {
  return AttributeIo::single(read_strings_attribute(name), name, describe());
}

std::int64_t Object::read_int_attribute(const std::string& name) const {
  return AttributeIo::single(read_int_attribute_array(name), name, describe());
}

double Object::read_double_attribute(const std::string& name) const {
  return AttributeIo::single(read_double_attribute_array(name), name, describe());
}

std::vector<std::string> Object::read_strings_attribute(const std::string& name) const {
  return AttributeIo(id(), name, describe()).read_strings();
}

std::vector<std::int64_t> Object::read_int_attribute_array(const std::string& name) const {
  return AttributeIo(id(), name, describe())
      .read_numbers<std::int64_t>(H5T_NATIVE_INT64, H5T_INTEGER, false);
}

std::vector<double> Object::read_double_attribute_array(const std::string& name) const {
  return AttributeIo(id(), name, describe())
      .read_numbers<double>(H5T_NATIVE_DOUBLE, H5T_FLOAT, true);
}

bool Object::has_attribute(const std::string& name) const {
  return check(H5Aexists(id(), name.c_str()), [&] {
           return "looking for attribute " + in_quotes(name) + " of " + describe();
         }) > 0;
}

std::vector<std::string> Object::attribute_names() const {
  std::vector<std::string> names;
  check(H5Aiterate2(id(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute_name, &names),
        [&] { return "listing the attributes of " + describe(); });
  return names;
}

// ---- Dataset ------------------------------------------------------------------------------

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

namespace {

// The file and memory dataspaces of a block selection, and the runs that map between the
// caller's packing (block order) and HDF5's (file order).
struct Spaces {
  Handle file;
  Handle memory;
  SelectionLayout layout;
};

Spaces select(hid_t dataset, const std::vector<Block>& selection, const std::string& action) {
  auto context = [&] { return action; };
  Spaces spaces{checked_handle(H5Dget_space(dataset), context), Handle(), {}};
  std::vector<hsize_t> extent(
      static_cast<std::size_t>(check(H5Sget_simple_extent_ndims(spaces.file.id()), context)));
  check(H5Sget_simple_extent_dims(spaces.file.id(), extent.data(), nullptr), context);
  spaces.layout = lay_out(selection, extent);
  if (!spaces.layout.problem.empty()) throw IoError(action + ": " + spaces.layout.problem);
  check(H5Sselect_none(spaces.file.id()), context);
  for (const Block& block : selection) {
    if (block_size(block) == 0) continue;
    check(H5Sselect_hyperslab(spaces.file.id(), H5S_SELECT_OR, block.start.data(), nullptr,
                              block.count.data(), nullptr),
          context);
  }
  // A one-element space with nothing selected stands in for "no data from this rank".
  const hsize_t elements = spaces.layout.element_count;
  spaces.memory = simple_space({std::max<hsize_t>(elements, 1)});
  if (elements == 0) check(H5Sselect_none(spaces.memory.id()), context);
  return spaces;
}

}  // namespace

void Dataset::write(const Datatype& memory_type, const std::vector<Block>& selection,
                    const void* data, Transfer transfer) {
  // An empty dataset has no storage to write to; every rank sees the same extent, so
  // every rank skips the collective call alike.
  if (element_count() == 0) return;
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
}

void Dataset::write_all(const Datatype& memory_type, const void* data) {
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

// ---- Group --------------------------------------------------------------------------------

Group Group::create_group(const std::string& name) {
  const std::string child = join_path(path(), name);
  return {
      checked_handle(H5Gcreate2(id(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     [&] { return "creating group " + in_quotes(child) + " in " + file_path(); }),
      file_path(), child};
}

Group Group::open_group(const std::string& name) const {
  const std::string child = join_path(path(), name);
  return {
      checked_handle(H5Gopen2(id(), name.c_str(), H5P_DEFAULT),
                     [&] { return "opening group " + in_quotes(child) + " in " + file_path(); }),
      file_path(), child};
}

bool Group::has(const std::string& name) const {
  // H5Lexists fails (rather than answering false) when an intermediate link is missing, so
  // check each prefix "a", "a/b", "a/b/c" in turn.
  auto context = [&] { return "looking for " + in_quotes(name) + " in " + describe(); };
  bool found = false;
  std::size_t begin = 0;
  while (begin < name.size()) {
    const std::size_t slash = name.find('/', begin);
    const std::size_t end = slash == std::string::npos ? name.size() : slash;
    if (end > begin) {  // skips the empty components of "/a" and "a//b"
      const std::string prefix = name.substr(0, end);
      if (check(H5Lexists(id(), prefix.c_str(), H5P_DEFAULT), context) <= 0) return false;
      found = true;
    }
    begin = end + 1;
  }
  return found;
}

std::vector<std::string> Group::children() const {
  std::vector<std::string> names;
  check(H5Literate(id(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link_name, &names),
        [&] { return "listing the members of group " + describe(); });
  return names;
}

namespace {
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
}  // namespace

Dataset Group::create_dataset(const std::string& name, const Datatype& type,
                              const std::vector<hsize_t>& dims, const DatasetOptions& options) {
  const std::string child = join_path(path(), name);
  const std::string action = "creating dataset " + in_quotes(child) + " in " + file_path();
  Handle dcpl = creation_list(options, type, action);
  Handle space = simple_space(dims, options.max_dims);
  return {checked_handle(H5Dcreate2(id(), name.c_str(), type.id(), space.id(), H5P_DEFAULT,
                                    dcpl.id(), H5P_DEFAULT),
                         [&] { return action; }),
          file_path(), child};
}

ObjectKind Group::kind_of(const std::string& name) const {
  if (!has(name)) return ObjectKind::missing;
  H5O_info_t info;  // HDF5 1.10's call (Debian 12); 1.12 keeps it as H5Oget_info_by_name2
  check(H5Oget_info_by_name2(id(), name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT),
        [&] { return "looking at " + in_quotes(name) + " in " + describe(); });
  switch (info.type) {
    case H5O_TYPE_GROUP: return ObjectKind::group;
    case H5O_TYPE_DATASET: return ObjectKind::dataset;
    default: return ObjectKind::other;
  }
  return ObjectKind::other;
}

Dataset Group::open_dataset(const std::string& name) const {
  const std::string child = join_path(path(), name);
  return {
      checked_handle(H5Dopen2(id(), name.c_str(), H5P_DEFAULT),
                     [&] { return "opening dataset " + in_quotes(child) + " in " + file_path(); }),
      file_path(), child};
}

// ---- File ---------------------------------------------------------------------------------

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
          path};
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
          path};
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
  // handle keeps it too and the destructor tries again.
  check(H5Fclose(id()), [&] { return "closing " + path_; });
  handle_.release();
}

}  // namespace levelforge::h5
