# `cmake --install BUILD --prefix P`: the levelforge executable, the runner and kernel
# libraries, the public headers under P/include/levelforge, and the CMake package that
# find_package(levelforge CONFIG) reads, with levelforge_add_executable
# (examples/out_of_tree_kernel/ uses it; docs/kernels.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LEVELFORGE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/levelforge)
set(LEVELFORGE_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/levelforge)

# Every library of kernels/ and runner/, exported under its alias's name: levelforge_cli is
# levelforge::cli.
function(levelforge_libraries_under folder out)
  get_property(targets DIRECTORY ${folder} PROPERTY BUILDSYSTEM_TARGETS)
  set(libraries)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC|INTERFACE)_LIBRARY$")
      list(APPEND libraries ${target})
    endif()
  endforeach()
  get_property(subfolders DIRECTORY ${folder} PROPERTY SUBDIRECTORIES)
  foreach(subfolder IN LISTS subfolders)
    levelforge_libraries_under(${subfolder} more)
    list(APPEND libraries ${more})
  endforeach()
  set(${out} ${libraries} PARENT_SCOPE)
endfunction()
levelforge_libraries_under(${PROJECT_SOURCE_DIR}/kernels kernel_libraries)
levelforge_libraries_under(${PROJECT_SOURCE_DIR}/runner runner_libraries)
set(installed_libraries levelforge_standard levelforge_warnings ${kernel_libraries}
  ${runner_libraries})
foreach(library IN LISTS installed_libraries)
  string(REGEX REPLACE "^levelforge_" "" export_name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

install(TARGETS levelforge ${installed_libraries} EXPORT levelforgeTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${LEVELFORGE_INSTALL_INCLUDEDIR} ${LEVELFORGE_INSTALL_INCLUDEDIR}/detail)

# The project's headers that HEADERS include, themselves among them, into OUT: read from
# their #include lines at configure time (which a header's edit reruns).
function(levelforge_included_headers out)
  set(pending ${ARGN})
  set(found)
  while(pending)
    list(POP_FRONT pending header)
    if(header IN_LIST found)
      continue()
    endif()
    list(APPEND found ${header})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${header})
    file(STRINGS ${PROJECT_SOURCE_DIR}/${header} lines REGEX "^#include \"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
      if(EXISTS ${PROJECT_SOURCE_DIR}/${included})
        list(APPEND pending ${included})
      endif()
    endforeach()
  endwhile()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# The public headers: the kernel API and the registration header. What they, the executable's
# main() and the generated code sources (cmake/levelforge_add_executable.cmake) include of the
# runner goes under include/levelforge/detail/, for the compiler, not for a kernel's code; the
# rest of the runner is not installed.
file(GLOB public_headers RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/kernels/api/*.hpp)
list(APPEND public_headers runner/engine/register_kernel.hpp)
levelforge_included_headers(installed_headers ${public_headers} runner/cli/main_program.hpp
  runner/engine/kernel_code.hpp)
foreach(header IN LISTS installed_headers)
  get_filename_component(folder ${header} DIRECTORY)
  if(header IN_LIST public_headers)
    install(FILES ${header} DESTINATION ${LEVELFORGE_INSTALL_INCLUDEDIR}/${folder})
  else()
    install(FILES ${header} DESTINATION ${LEVELFORGE_INSTALL_INCLUDEDIR}/detail/${folder})
  endif()
endforeach()
install(EXPORT levelforgeTargets NAMESPACE levelforge:: DESTINATION ${LEVELFORGE_INSTALL_CMAKEDIR})

# The built-in kernels, which every levelforge_add_executable links, by their exported names.
get_property(LEVELFORGE_INSTALLED_KERNELS GLOBAL PROPERTY LEVELFORGE_BUILTIN_KERNELS)
configure_package_config_file(cmake/levelforgeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/levelforgeConfig.cmake INSTALL_DESTINATION ${LEVELFORGE_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/levelforgeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/levelforgeConfig.cmake
  ${PROJECT_BINARY_DIR}/levelforgeConfigVersion.cmake cmake/levelforge_add_executable.cmake
  cmake/write_kernel_code.cmake cmake/write_if_changed.cmake
  DESTINATION ${LEVELFORGE_INSTALL_CMAKEDIR})
# The executable's main(), which levelforge_add_executable compiles with a researcher's kernels.
install(FILES runner/cli/main.cpp DESTINATION ${LEVELFORGE_INSTALL_CMAKEDIR}
  RENAME levelforge_main.cpp)
