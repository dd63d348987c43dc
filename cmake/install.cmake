# `cmake --install BUILD --prefix P`: the levelforge executable, the runner and kernel
# libraries, their headers under P/include/levelforge, and the CMake package that
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
  INCLUDES DESTINATION ${LEVELFORGE_INSTALL_INCLUDEDIR})
install(DIRECTORY kernels runner DESTINATION ${LEVELFORGE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(EXPORT levelforgeTargets NAMESPACE levelforge:: DESTINATION ${LEVELFORGE_INSTALL_CMAKEDIR})

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
