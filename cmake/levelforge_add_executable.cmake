# levelforge_add_executable(NAME KERNELS target ...): a levelforge executable NAME whose
# registry holds the built-in kernels and those the KERNELS static libraries register with
# LEVELFORGE_REGISTER_KERNEL (runner/engine/register_kernel.hpp). Those are linked whole:
# nothing calls their registering objects, which a plain link would leave out.
set(LEVELFORGE_MAIN_SOURCE ${CMAKE_CURRENT_LIST_DIR}/levelforge_main.cpp)

function(levelforge_add_executable name)
  cmake_parse_arguments(ARG "" "" "KERNELS" ${ARGN})
  if(NOT ARG_KERNELS)
    message(FATAL_ERROR "levelforge_add_executable(${name}): name the kernel libraries after KERNELS")
  endif()
  add_executable(${name} ${LEVELFORGE_MAIN_SOURCE})
  target_link_libraries(${name} PRIVATE levelforge::cli)
  foreach(kernel IN LISTS ARG_KERNELS)
    target_link_libraries(${name} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${kernel}>")
  endforeach()
endfunction()
