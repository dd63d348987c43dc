#pragma once
// What code a kernel is: its version, the git commit and uncommitted changes of its sources,
// and the hash of its source files, read at build time (cmake/write_kernel_code.cmake) for
// the kernels of kernels/ and for those levelforge_add_executable links from out of the
// tree. A run's identity holds its kernel's (run_identity.hpp): a kernel edited and rebuilt
// is other code, and its checkpoints and results are not this build's to resume or merge.

#include <optional>
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

// The code of an in-tree kernel (generated), nullopt for a name kernels/ does not declare.
std::optional<KernelCode> in_tree_kernel_code(std::string_view kernel);

// The code of the kernels registered from out of the tree (LEVELFORGE_REGISTER_KERNEL),
// set by the source levelforge_add_executable generates; returns true.
bool set_added_kernel_code(KernelCode code);
// That code, or one whose every field says "unknown" when the executable was linked
// without levelforge_add_executable.
KernelCode added_kernel_code();

}  // namespace levelforge
