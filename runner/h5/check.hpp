// How the wrapper's files turn HDF5's failures into IoError: every HDF5 call goes through
// check(), so a message always names what was being done, and HDF5's own printing to stderr
// is off. Also the one exception boundary for callbacks HDF5 calls back into.
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

#include "runner/h5/h5.hpp"

namespace levelforge::h5 {

// HDF5 prints its error stack to stderr by default; we report it through IoError instead.
// Called before any operation that can fail on a fresh library.
void silence_hdf5_printing();

// The message of the innermost (most specific) entry of the calling thread's error stack.
std::string innermost_hdf5_message();

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

std::string in_quotes(const std::string& name);

// `name` under `parent`, unless `name` is already absolute.
std::string join_path(const std::string& parent, const std::string& name);

// For the name-listing callbacks of H5Aiterate2 and H5Literate: no exception may cross
// HDF5's C frames, so a failure becomes HDF5's -1.
herr_t collect_name(const char* name, std::vector<std::string>& names) noexcept;

}  // namespace levelforge::h5
