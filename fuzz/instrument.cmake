# Included by the top-level CMakeLists.txt before any project target exists: with
# LEVELFORGE_FUZZ every project library is compiled with the coverage instrumentation
# libFuzzer steers by, and with ASan + UBSan so that memory errors and undefined behaviour
# stop the fuzzer instead of passing unseen. The fuzz targets themselves link
# -fsanitize=fuzzer (fuzz/CMakeLists.txt), which brings libFuzzer's main.
if(LEVELFORGE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LEVELFORGE_FUZZ needs clang (libFuzzer): CC=clang CXX=clang++ cmake ...")
  endif()
  if(LEVELFORGE_SANITIZE)
    message(FATAL_ERROR "LEVELFORGE_FUZZ brings its own sanitizers; leave LEVELFORGE_SANITIZE OFF")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  # Other executables of the build (the levelforge CLI) need the sanitizer runtimes too.
  add_link_options(-fsanitize=address,undefined)
endif()
