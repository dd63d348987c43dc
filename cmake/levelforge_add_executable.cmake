# How a levelforge executable gets its kernels, the same for the built-in ones and a
# researcher's (docs/kernels.md). A kernel library registers its kernels with
# LEVELFORGE_REGISTER_KERNEL (runner/engine/register_kernel.hpp); nothing calls those
# registering objects, so executables link the library whole.
#
#   levelforge_add_executable(NAME [KERNELS library...])
#     a levelforge executable NAME (every command) with the built-in kernels and those of the
#     KERNELS libraries.
#   levelforge_link_kernels(TARGET [KERNELS library...])
#     the same kernels linked into an executable of one's own (tests, benchmarks).
#   levelforge_kernel_code(LIBRARY [FOLDERS folder...])
#     LIBRARY's code identity (runner/engine/kernel_code.hpp), read at every build from the
#     FOLDERS (default: its source folder): the project's version, the git commit and
#     uncommitted changes of those folders, and the hash of their source files. Results record
#     it, and a checkpoint or result made by other kernel code is not resumed or merged as this
#     build's (docs/checkpoint.md). The two functions above call it for a library that has
#     none yet.
#
# LEVELFORGE_BUILTIN_KERNELS (a global property) lists the built-in kernels' libraries:
# kernels/CMakeLists.txt sets it in levelforge's build, levelforgeConfig.cmake in an
# installed package.
if(NOT DEFINED LEVELFORGE_MAIN_SOURCE)
  set(LEVELFORGE_MAIN_SOURCE ${CMAKE_CURRENT_LIST_DIR}/levelforge_main.cpp)
endif()
set(LEVELFORGE_WRITE_KERNEL_CODE ${CMAKE_CURRENT_LIST_DIR}/write_kernel_code.cmake)

function(levelforge_kernel_code library)
  cmake_parse_arguments(ARG "" "" "FOLDERS" ${ARGN})
  get_target_property(aliased ${library} ALIASED_TARGET)
  if(aliased)
    set(library ${aliased})
  endif()
  if(NOT ARG_FOLDERS)
    get_target_property(ARG_FOLDERS ${library} SOURCE_DIR)
  endif()
  string(REPLACE ";" "," folders "${ARG_FOLDERS}")
  set(code_source ${CMAKE_CURRENT_BINARY_DIR}/${library}_kernel_code.cpp)
  add_custom_target(${library}_kernel_code
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${code_source} -DLIBRARY=${library}
      -DVERSION=${PROJECT_VERSION} -DEXCLUDE=${CMAKE_BINARY_DIR} -DFOLDERS=${folders}
      -P ${LEVELFORGE_WRITE_KERNEL_CODE}
    BYPRODUCTS ${code_source}
    COMMENT "Hashing the sources of ${library}"
    VERBATIM)
  target_sources(${library} PRIVATE ${code_source})
  target_compile_definitions(${library} PRIVATE LEVELFORGE_KERNEL_LIBRARY="${library}")
  add_dependencies(${library} ${library}_kernel_code)
  set_target_properties(${library} PROPERTIES LEVELFORGE_KERNEL_CODE ON)
endfunction()

function(levelforge_link_kernels target)
  cmake_parse_arguments(ARG "" "" "KERNELS" ${ARGN})
  get_property(builtin GLOBAL PROPERTY LEVELFORGE_BUILTIN_KERNELS)
  foreach(kernel IN LISTS builtin ARG_KERNELS)
    get_target_property(imported ${kernel} IMPORTED)
    if(NOT imported)
      get_target_property(has_code ${kernel} LEVELFORGE_KERNEL_CODE)
      if(NOT has_code)
        levelforge_kernel_code(${kernel})
      endif()
    endif()
    target_link_libraries(${target} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${kernel}>")
  endforeach()
endfunction()

function(levelforge_add_executable name)
  add_executable(${name} ${LEVELFORGE_MAIN_SOURCE})
  target_link_libraries(${name} PRIVATE levelforge::cli)
  levelforge_link_kernels(${name} ${ARGN})
endfunction()
