#pragma once
// Registers a kernel built out of the tree: one line in one of its sources,
//
//   LEVELFORGE_REGISTER_KERNEL(my_game::MyKernel);
//
// and the executable that levelforge_add_executable (cmake/levelforge_add_executable.cmake)
// links from that source's library knows the kernel by its name, with every capability it
// claims, beside the built-in ones.

#include "runner/engine/describe_kernel.hpp"
#include "runner/engine/kernel_registry.hpp"

#define LEVELFORGE_REGISTER_KERNEL_NAME(line) levelforge_registered_kernel_##line
#define LEVELFORGE_REGISTER_KERNEL_AT(type, line)                     \
  namespace {                                                         \
  [[maybe_unused]] const bool LEVELFORGE_REGISTER_KERNEL_NAME(line) = \
      ::levelforge::add_kernel(::levelforge::describe<type>());       \
  }                                                                   \
  static_assert(true, "a semicolon follows LEVELFORGE_REGISTER_KERNEL")
#define LEVELFORGE_REGISTER_KERNEL_LINE(type, line) LEVELFORGE_REGISTER_KERNEL_AT(type, line)
#define LEVELFORGE_REGISTER_KERNEL(type) LEVELFORGE_REGISTER_KERNEL_LINE(type, __LINE__)
