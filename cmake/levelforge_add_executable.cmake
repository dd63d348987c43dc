# levelforge_add_executable(NAME KERNELS target ...): a levelforge executable NAME whose
# registry holds the built-in kernels and those the KERNELS static libraries register with
# LEVELFORGE_REGISTER_KERNEL (runner/engine/register_kernel.hpp). Those are linked whole:
# nothing calls their registering objects, which a plain link would leave out.
#
# The kernels' code identity (runner/engine/kernel_code.hpp) is read at every build of NAME:
# the project's version, the git commit and uncommitted changes of the libraries' source
# folders, and the hash of their source files. Results record it, and a checkpoint or result
# made by other kernel code is not resumed or merged as this build's (docs/checkpoint.md).
set(LEVELFORGE_MAIN_SOURCE ${CMAKE_CURRENT_LIST_DIR}/levelforge_main.cpp)
set(LEVELFORGE_WRITE_KERNEL_CODE ${CMAKE_CURRENT_LIST_DIR}/write_kernel_code.cmake)

function(levelforge_add_executable name)
  cmake_parse_arguments(ARG "" "" "KERNELS" ${ARGN})
  if(NOT ARG_KERNELS)
    message(FATAL_ERROR "levelforge_add_executable(${name}): name the kernel libraries after KERNELS")
  endif()
  set(folders)
  foreach(kernel IN LISTS ARG_KERNELS)
    get_target_property(folder ${kernel} SOURCE_DIR)
    list(APPEND folders ${folder})
  endforeach()
  list(REMOVE_DUPLICATES folders)
  string(REPLACE ";" "," folders "${folders}")
  set(code_source ${CMAKE_CURRENT_BINARY_DIR}/${name}_kernel_code.cpp)
  add_custom_target(${name}_kernel_code
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${code_source} -DMODE=added
      -DVERSION=${PROJECT_VERSION} -DEXCLUDE=${CMAKE_BINARY_DIR} "-DENTRIES=${name}=${folders}"
      -P ${LEVELFORGE_WRITE_KERNEL_CODE}
    BYPRODUCTS ${code_source}
    COMMENT "Hashing the sources of ${name}'s kernels"
    VERBATIM)
  add_executable(${name} ${LEVELFORGE_MAIN_SOURCE} ${code_source})
  add_dependencies(${name} ${name}_kernel_code)
  target_link_libraries(${name} PRIVATE levelforge::cli)
  foreach(kernel IN LISTS ARG_KERNELS)
    target_link_libraries(${name} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${kernel}>")
  endforeach()
endfunction()
