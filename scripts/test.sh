#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: first the Release
# build and its tests, then a second build under AddressSanitizer and
# UndefinedBehaviorSanitizer, whose tests are the C++ tests and one small MPI run of each
# driver (tests/CMakeLists.txt), and scripts/check.sh: the static checks (clang-format,
# clang-tidy). LEVELFORGE_SKIP_SANITIZERS=1 skips the second build (for a quick local run).
#
# The end-to-end tests spend most of their time waiting on the processes they start (MPI
# start-up, kills, Slurm's scheduling): ctest runs twice as many test processors as there are
# cores, and the static checks and the sanitizer build run beside the Release tests at the
# lowest priority, in the CPU time those leave idle. Their output follows the tests'.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$LEVELFORGE_ROOT/scripts/setup.sh"
# Explicitly on: the demo (scripts/demo.sh) configures the same build folder without tests.
levelforge_build -DLEVELFORGE_BUILD_TESTS=ON -DLEVELFORGE_BUILD_BENCHMARKS=ON

sanitized="$LEVELFORGE_BUILD-sanitize"
background_log=$(mktemp)
trap 'rm -f "$background_log"' EXIT
(
  # clang-format and clang-tidy on the whole tree, from the Release build's compile commands.
  nice -n 19 "$LEVELFORGE_ROOT/scripts/check.sh"
  if [[ "${LEVELFORGE_SKIP_SANITIZERS:-0}" != 1 ]]; then
    levelforge_configure "$sanitized" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DLEVELFORGE_SANITIZE=ON -DLEVELFORGE_BUILD_BENCHMARKS=OFF
    nice -n 19 cmake --build "$sanitized" -j "$(nproc)"
  fi
) >"$background_log" 2>&1 &
background=$!

tests_rc=0
(cd "$LEVELFORGE_BUILD" &&
  ctest --output-on-failure --no-tests=error -j "$((2 * $(nproc)))" "$@") || tests_rc=$?
background_rc=0
wait "$background" || background_rc=$?
cat "$background_log"
if ((tests_rc != 0 || background_rc != 0)); then
  echo "test: the Release tests exited $tests_rc, the static checks and sanitizer build $background_rc" >&2
  exit 1
fi

if [[ "${LEVELFORGE_SKIP_SANITIZERS:-0}" != 1 ]]; then
  # Leaks are reported, except Open MPI's own (tests/sanitizers/README.md).
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
  export LSAN_OPTIONS="suppressions=$LEVELFORGE_ROOT/tests/sanitizers/lsan_suppressions.txt:print_suppressions=0"
  (cd "$sanitized" && ctest --output-on-failure --no-tests=error -j "$((2 * $(nproc)))" "$@")
fi
