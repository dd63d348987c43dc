#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: the Release build and its
# tests; a second build under AddressSanitizer and UndefinedBehaviorSanitizer, whose tests are
# the C++ tests, the fuzzers' kept inputs, the bad-input catalogue and one small MPI run of
# each driver (tests/CMakeLists.txt); and scripts/check.sh, the static checks (clang-format,
# clang-tidy). LEVELFORGE_SKIP_SANITIZERS=1 skips the second build (for a quick local run).
#
# The end-to-end tests spend most of their time waiting on the processes they start (MPI
# start-up, kills, Slurm's scheduling). So ctest runs twice as many test processors as there
# are cores, and the sanitizer build and the static checks run in the background at low
# priority, in the CPU time the tests leave idle: the build first (its tests follow), the
# checks last. Each background step's output is printed when it is waited for, with its wall
# and CPU time: CI must stay inside its time budget on two cores, and these say which step to cut.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Times the command given: "test: STEP: wall, user and system seconds".
timed() {
  local step=$1 TIMEFORMAT
  shift
  TIMEFORMAT="test: $step: %0R s wall, %0U s user, %0S s system"
  time "$@"
}

timed setup "$LEVELFORGE_ROOT/scripts/setup.sh"
# Explicitly on: the demo (scripts/demo.sh) configures the same build folder without tests.
timed "Release build" levelforge_build -DLEVELFORGE_BUILD_TESTS=ON -DLEVELFORGE_BUILD_BENCHMARKS=ON

sanitize=true
[[ "${LEVELFORGE_SKIP_SANITIZERS:-0}" == 1 ]] && sanitize=false
sanitized="$LEVELFORGE_BUILD-sanitize"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
jobs=$((2 * $(nproc)))

build_sanitized() {
  levelforge_configure "$sanitized" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLEVELFORGE_SANITIZE=ON -DLEVELFORGE_BUILD_BENCHMARKS=OFF &&
    nice -n 10 cmake --build "$sanitized" -j "$(nproc)"
}

if $sanitize; then
  timed "sanitizer build" build_sanitized >"$logs/sanitizer-build" 2>&1 &
  sanitizer_build=$!
fi
# clang-format and clang-tidy on the whole tree, from the Release build's compile commands.
timed "static checks" nice -n 19 "$LEVELFORGE_ROOT/scripts/check.sh" >"$logs/check" 2>&1 &
check=$!

failed=()
timed "Release tests" ctest --test-dir "$LEVELFORGE_BUILD" --output-on-failure --no-tests=error -j "$jobs" "$@" ||
  failed+=("the Release tests")

if $sanitize; then
  if wait "$sanitizer_build"; then
    cat "$logs/sanitizer-build"
    # Leaks are reported, except Open MPI's own (tests/sanitizers/README.md).
    (
      export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
      export LSAN_OPTIONS="suppressions=$LEVELFORGE_ROOT/tests/sanitizers/lsan_suppressions.txt:print_suppressions=0"
      timed "sanitizer tests" ctest --test-dir "$sanitized" --output-on-failure --no-tests=error -j "$jobs" "$@"
    ) || failed+=("the sanitizer tests")
  else
    cat "$logs/sanitizer-build"
    failed+=("the sanitizer build")
  fi
fi

wait "$check" || failed+=("the static checks")
cat "$logs/check"

if ((${#failed[@]} > 0)); then
  printf 'test: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
