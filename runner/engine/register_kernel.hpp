#pragma once
// Registers a kernel: one line in one source of its library,
//
//   LEVELFORGE_REGISTER_KERNEL(my_game::MyKernel);
//
// and an executable that links the library with levelforge_add_executable or
// levelforge_link_kernels (cmake/levelforge_add_executable.cmake) knows the kernel by its name,
// with every capability it claims and its library's code identity. The built-in kernels
// register so too, each in its folder's register.cpp.

#include "runner/engine/describe_kernel.hpp"
#include "runner/engine/kernel_registry.hpp"

// The library the registering source is compiled into (levelforge_kernel_code defines it);
// its code identity is the kernel's.
#ifndef LEVELFORGE_KERNEL_LIBRARY
#define LEVELFORGE_KERNEL_LIBRARY ""
#endif

#define LEVELFORGE_REGISTER_KERNEL_NAME(line) levelforge_registered_kernel_##line
#define LEVELFORGE_REGISTER_KERNEL_AT(type, line)                                          \
  namespace {                                                                              \
  [[maybe_unused]] const bool LEVELFORGE_REGISTER_KERNEL_NAME(line) =                      \
      ::levelforge::add_kernel(::levelforge::describe<type>(), LEVELFORGE_KERNEL_LIBRARY); \
  }                                                                                        \
  static_assert(true, "a semicolon follows LEVELFORGE_REGISTER_KERNEL")
#define LEVELFORGE_REGISTER_KERNEL_LINE(type, line) LEVELFORGE_REGISTER_KERNEL_AT(type, line)
#define LEVELFORGE_REGISTER_KERNEL(type) LEVELFORGE_REGISTER_KERNEL_LINE(type, __LINE__)
