# Each kernel's code identity (runner/engine/kernel_code.hpp), read at build time by
# cmake/write_kernel_code.cmake: the kernels of kernels/ into the registry's generated
# in_tree_kernel_code(), each from its own folder and kernels/api. A run's identity includes
# its kernel's, so a checkpoint or result made by other kernel code is never resumed,
# skipped or merged as this run's (docs/checkpoint.md).
set(LEVELFORGE_KERNEL_CODE_CPP ${PROJECT_BINARY_DIR}/generated/kernel_code.cpp)

# levelforge_kernel_code(KERNELS name... [FOLDER dir]): the kernels whose sources are in dir
# (default: the current source folder).
function(levelforge_kernel_code)
  cmake_parse_arguments(ARG "" "FOLDER" "KERNELS" ${ARGN})
  if(NOT ARG_FOLDER)
    set(ARG_FOLDER ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  foreach(kernel IN LISTS ARG_KERNELS)
    set_property(GLOBAL APPEND PROPERTY LEVELFORGE_KERNEL_CODE_ENTRIES
      "${kernel}=${ARG_FOLDER},${PROJECT_SOURCE_DIR}/kernels/api")
  endforeach()
endfunction()

# After kernels/ declared its kernels: the target that writes the registry's source.
function(levelforge_kernel_code_target)
  get_property(entries GLOBAL PROPERTY LEVELFORGE_KERNEL_CODE_ENTRIES)
  string(REPLACE ";" "|" entries "${entries}")
  add_custom_target(levelforge_kernel_code_gen
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${LEVELFORGE_KERNEL_CODE_CPP} -DMODE=in_tree
      -DVERSION=${PROJECT_VERSION} "-DENTRIES=${entries}"
      -P ${PROJECT_SOURCE_DIR}/cmake/write_kernel_code.cmake
    BYPRODUCTS ${LEVELFORGE_KERNEL_CODE_CPP}
    COMMENT "Hashing the kernels' sources"
    VERBATIM)
endfunction()
