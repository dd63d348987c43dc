// Reference counting of HDF5 identifiers, so that a copied Group or Dataset outlives the
// one it was copied from and no destructor ever throws.
#include "runner/h5/check.hpp"

namespace levelforge::h5 {

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

}  // namespace levelforge::h5
