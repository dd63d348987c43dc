# Every levelforge target links levelforge::warnings and levelforge::standard.
add_library(levelforge_warnings INTERFACE)
add_library(levelforge::warnings ALIAS levelforge_warnings)
target_compile_options(levelforge_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor)

add_library(levelforge_standard INTERFACE)
add_library(levelforge::standard ALIAS levelforge_standard)
target_compile_features(levelforge_standard INTERFACE cxx_std_20)
include(GNUInstallDirs)
target_include_directories(levelforge_standard INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/levelforge>)
# The deprecated MPI C++ bindings are not used and would need their own library.
target_compile_definitions(levelforge_standard INTERFACE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
# Results are bit-identical on every instruction set: GCC would otherwise fuse a * b + c
# into one FMA (one rounding instead of two) inside the functions compiled for AVX2 and
# AVX-512 and not in the portable ones (found: a Match-3 score beyond its table differed
# in the last bit on the AVX-512 path only).
target_compile_options(levelforge_standard INTERFACE -ffp-contract=off)
# Test code (a target whose LEVELFORGE_TEST_CODE property is true: tests/CMakeLists.txt) is
# compiled less optimized than the code it tests, which keeps its build's level: GoogleTest's
# expanded assertions cost the optimizer most and gain least from it. unit_tests' largest
# unity batch: 36-46 s at -O3, 24-26 s at -O1; 61 s at -O1 and 39 s at -O0 under the
# sanitizers, where its slowest test file then runs 14 s instead of 8.
set(test_code "$<BOOL:$<TARGET_PROPERTY:LEVELFORGE_TEST_CODE>>")
if(NOT LEVELFORGE_SANITIZE)
  target_compile_options(levelforge_standard INTERFACE
    "$<$<AND:${test_code},$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O1>")
endif()
if(LEVELFORGE_SANITIZE)
  # GCC 12 reports false -Wmaybe-uninitialized inside std::variant and std::function when
  # the sanitizers' instrumentation changes inlining (GCC bug 105562 and relatives).
  # -O1 -g1 (after the build type's flags, so they win; test code -O0, above):
  # AddressSanitizer's recommended level and line tables only, which keep every report's
  # file and line. They halve the compile time of -O2 -g (exhaustive_driver.cpp 64 s -> 29 s,
  # tiltmaze_solver_test.cpp 57 s -> 26 s).
  target_compile_options(levelforge_standard INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
    $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized> $<IF:${test_code},-O0,-O1> -g1)
  target_link_options(levelforge_standard INTERFACE -fsanitize=address,undefined)
  # Every executable keeps the libraries it loads mapped until exit, so that LeakSanitizer
  # can name Open MPI's components in its reports (tests/sanitizers/README.md).
  set(is_executable "$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>")
  target_sources(levelforge_standard INTERFACE
    "$<${is_executable}:${PROJECT_SOURCE_DIR}/tests/sanitizers/keep_libraries_mapped.cpp>")
  target_link_options(levelforge_standard INTERFACE
    "$<${is_executable}:LINKER:--export-dynamic-symbol=dlclose>")
endif()
