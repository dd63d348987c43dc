// HDF5's error stack, read once per failure, so that IoError can name the innermost cause
// rather than the outermost "can't write data".
#include "runner/h5/check.hpp"

namespace levelforge::h5 {

void silence_hdf5_printing() {
  static const bool silenced = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  if (!silenced) throw IoError("cannot turn off HDF5's own error printing (H5Eset_auto2 failed)");
}

namespace {
herr_t take_first_message(unsigned n, const H5E_error2_t* entry, void* out) {
  if (n == 0 && entry->desc != nullptr) {
    *static_cast<std::string*>(out) = entry->desc;
  }
  return 0;
}
}  // namespace

std::string innermost_hdf5_message() {
  std::string message;
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_first_message, &message) < 0) message.clear();
  return message.empty() ? std::string("no HDF5 error details") : message;
}

std::string in_quotes(const std::string& name) { return "'" + name + "'"; }

std::string join_path(const std::string& parent, const std::string& name) {
  if (!name.empty() && name.front() == '/') return name;
  return parent == "/" ? "/" + name : parent + "/" + name;
}

herr_t collect_name(const char* name, std::vector<std::string>& names) noexcept {
  try {
    names.emplace_back(name);
    return 0;
  } catch (...) {
    return -1;  // no exceptions through HDF5's C frames
  }
}

}  // namespace levelforge::h5
