#include "runner/engine/kernel_code.hpp"

#include <utility>

namespace levelforge {

namespace {

std::optional<KernelCode>& added_code() {
  static std::optional<KernelCode> code;
  return code;
}

}  // namespace

std::string KernelCode::identity() const { return "sources " + sources + ", version " + version; }

std::string KernelCode::commit_text() const { return dirty ? commit + "-dirty" : commit; }

bool set_added_kernel_code(KernelCode code) {
  added_code() = std::move(code);
  return true;
}

KernelCode added_kernel_code() {
  return added_code().value_or(KernelCode{"unknown", "unknown", false, "unknown"});
}

}  // namespace levelforge
