#include "runner/engine/kernel_code.hpp"

#include <functional>
#include <map>
#include <utility>

namespace levelforge {

namespace {

std::map<std::string, KernelCode, std::less<>>& library_codes() {
  static std::map<std::string, KernelCode, std::less<>> codes;
  return codes;
}

}  // namespace

std::string KernelCode::identity() const { return "sources " + sources + ", version " + version; }

std::string KernelCode::commit_text() const { return dirty ? commit + "-dirty" : commit; }

bool set_kernel_code(std::string_view library, KernelCode code) {
  library_codes().insert_or_assign(std::string(library), std::move(code));
  return true;
}

KernelCode kernel_code(std::string_view library) {
  const auto& codes = library_codes();
  auto found = codes.find(library);
  return found == codes.end() ? KernelCode{"unknown", "unknown", false, "unknown"} : found->second;
}

}  // namespace levelforge
