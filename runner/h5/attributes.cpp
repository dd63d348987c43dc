// Attributes: written so that h5py reads them back as plain str and numbers, and read
// leniently (fixed- or variable-length strings, any integer width), since the analysis and
// other tools write them too.
#include <algorithm>

#include "runner/h5/check.hpp"
#include "runner/h5/dataspace.hpp"

namespace levelforge::h5 {
namespace {

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

herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* names) {
  return collect_name(name, *static_cast<std::vector<std::string>*>(names));
}

}  // namespace

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

}  // namespace levelforge::h5
