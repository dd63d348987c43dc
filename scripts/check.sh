#!/usr/bin/env bash
# Static checks of the whole tree: flake8 (.flake8) on the Python of analysis/, tests/ and
# scripts/; clang-format (.clang-format) and clang-tidy (.clang-tidy: bugprone, performance,
# mpi) on every C++ file git tracks, and every source and header compiled on its own
# (scripts/compile_alone.py): the unity builds hide a missing include that a plain build trips
# on. clang-tidy and that check read the compile commands of the build
# folder (scripts/test.sh builds it first). Exit 1 on any finding.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cd "$LEVELFORGE_ROOT"
# Debian's flake8 (python3-flake8, scripts/setup.sh) under Debian's Python, which runs the
# tests.
mapfile -t python < <(git ls-files 'analysis/*.py' 'tests/*.py' 'scripts/*.py')
/usr/bin/python3 -m flake8 "${python[@]}"
echo "check: flake8 clean on ${#python[@]} files"

mapfile -t sources < <(git ls-files '*.cpp' '*.hpp')
clang-format --dry-run --Werror "${sources[@]}"
echo "check: clang-format clean on ${#sources[@]} files"

compile_commands="$LEVELFORGE_BUILD/compile_commands.json"
if [[ ! -f $compile_commands ]]; then
  echo "check: $compile_commands is missing; build first (scripts/test.sh does)" >&2
  exit 1
fi
# Every translation unit of the project in the compile commands: its sources, or in a unity
# build (scripts/common.sh) the build's unity files that include them. The sources themselves
# are checked through those, like the headers (.clang-tidy's HeaderFilterRegex).
project_units="^($LEVELFORGE_ROOT/(kernels|runner|tests|bench|fuzz)/|$LEVELFORGE_BUILD/.*/Unity/)"
units=$(grep -cE "\"file\": \"${project_units#^}" "$compile_commands")
# The unity files include sources, which bugprone-suspicious-include reports in them alone.
# The config is passed, not looked up beside each file: unity files live in the build folder.
findings=$(run-clang-tidy -p "$LEVELFORGE_BUILD" -j "$(nproc)" -quiet \
  -config "$(<"$LEVELFORGE_ROOT/.clang-tidy")" "$project_units" 2>&1 |
  sed 's/\x1b\[[0-9;]*m//g' | grep -E 'warning:|error:' |
  grep -vE "^$LEVELFORGE_BUILD/.*/Unity/.*\[bugprone-suspicious-include\]$" | sort -u || true)
if [[ -n $findings ]]; then
  echo "$findings"
  echo "check: clang-tidy found $(wc -l <<<"$findings") problems" >&2
  exit 1
fi
echo "check: clang-tidy clean on $units files"

# The cheapest check that sees a source's missing include as well as a header's (a header
# check alone would not).
/usr/bin/python3 "$LEVELFORGE_ROOT/scripts/compile_alone.py" "$LEVELFORGE_BUILD"
