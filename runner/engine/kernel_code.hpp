#pragma once
// What code a kernel is: its version, the git commit and uncommitted changes of its sources,
// and the hash of its source files, read at every build of its library
// (levelforge_kernel_code, cmake/levelforge_add_executable.cmake), the built-in kernels' and a
// researcher's alike. A run's identity holds its kernel's (run_identity.hpp): a kernel edited
// and rebuilt is other code, and its checkpoints and results are not this build's to resume
// or merge.

#include <string>
#include <string_view>

namespace levelforge {

struct KernelCode {
  std::string version;  // the kernel project's version; levelforge's for the kernels in its tree
  std::string commit;   // the newest git commit of its sources; "unknown" outside git
  bool dirty = false;   // its sources hold uncommitted changes
  std::string sources;  // "sha256:" and 16 hex digits of its source files' names and contents

  // What makes two builds of a kernel the same code: "sources sha256:..., version 0.1.0".
  // The commit is left out: a commit that changed none of the kernel's files changes nothing.
  [[nodiscard]] std::string identity() const;
  // The commit as git_commit writes it: "<hash>-dirty" with uncommitted changes.
  [[nodiscard]] std::string commit_text() const;
};

// The code of the kernel library `library`, set at static initialization by the source
// levelforge_kernel_code generates into it; returns true.
bool set_kernel_code(std::string_view library, KernelCode code);
// That code, or one whose every field says "unknown" for a library built without
// levelforge_kernel_code.
KernelCode kernel_code(std::string_view library);

}  // namespace levelforge
