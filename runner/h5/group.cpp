// Groups: HDF5 answers "does this path exist" with an error when a parent is missing, so
// the lookups here walk the path and make a missing link a plain answer.
#include "runner/h5/check.hpp"
#include "runner/h5/dataspace.hpp"
#include "runner/h5/property_lists.hpp"

namespace levelforge::h5 {

namespace {
herr_t collect_link_name(hid_t, const char* name, const H5L_info_t*, void* names) {
  return collect_name(name, *static_cast<std::vector<std::string>*>(names));
}
}  // namespace

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

}  // namespace levelforge::h5
