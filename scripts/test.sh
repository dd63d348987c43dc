#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: first the Release
# build, then a second build under AddressSanitizer and UndefinedBehaviorSanitizer, whose
# tests are the C++ tests and one small MPI run of each driver (tests/CMakeLists.txt).
# Between the two, scripts/check.sh: the static checks (clang-format, clang-tidy).
# LEVELFORGE_SKIP_SANITIZERS=1 skips the second pass (for a quick local run).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$LEVELFORGE_ROOT/scripts/setup.sh"
# Explicitly on: the demo (scripts/demo.sh) configures the same build folder without tests.
levelforge_build -DLEVELFORGE_BUILD_TESTS=ON -DLEVELFORGE_BUILD_BENCHMARKS=ON
(cd "$LEVELFORGE_BUILD" && ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@")
# clang-format and clang-tidy on the whole tree, from this build's compile commands.
"$LEVELFORGE_ROOT/scripts/check.sh"

if [[ "${LEVELFORGE_SKIP_SANITIZERS:-0}" != 1 ]]; then
  sanitized="$LEVELFORGE_BUILD-sanitize"
  levelforge_configure "$sanitized" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLEVELFORGE_SANITIZE=ON -DLEVELFORGE_BUILD_BENCHMARKS=OFF
  cmake --build "$sanitized" -j "$(nproc)"
  # Leaks are reported, except Open MPI's own (tests/sanitizers/README.md).
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
  export LSAN_OPTIONS="suppressions=$LEVELFORGE_ROOT/tests/sanitizers/lsan_suppressions.txt:print_suppressions=0"
  (cd "$sanitized" && ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@")
fi
