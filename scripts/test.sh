#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$LEVELFORGE_ROOT/scripts/setup.sh"
levelforge_build
cd "$LEVELFORGE_BUILD"
ctest --output-on-failure -j "$(nproc)" "$@"
