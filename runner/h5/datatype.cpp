// Every Datatype owns a private, transient copy of its HDF5 type: a Handle may then drop
// it like any other object, where dropping a predefined type's reference would be an error.
#include <algorithm>

#include "runner/h5/check.hpp"

namespace levelforge::h5 {

namespace {
Datatype copy_of(hid_t predefined) {
  silence_hdf5_printing();
  return Datatype(checked_handle(H5Tcopy(predefined), [] { return "copying a predefined type"; }));
}

Handle string_type(std::size_t size) {
  Handle type = checked_handle(H5Tcopy(H5T_C_S1), [] { return "copying the string type"; });
  auto context = [&] { return "making a " + std::to_string(size) + "-byte string type"; };
  check(H5Tset_size(type.id(), std::max<std::size_t>(size, 1)), context);
  check(H5Tset_strpad(type.id(), H5T_STR_NULLPAD), context);
  check(H5Tset_cset(type.id(), H5T_CSET_ASCII), context);
  return type;
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

}  // namespace levelforge::h5
