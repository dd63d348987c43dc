#!/usr/bin/env bash
# Installs what is missing, builds, runs the demo experiment on 2 MPI ranks and builds its
# report (figures and index.html) with Debian's Python.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$LEVELFORGE_ROOT/scripts/setup.sh"
levelforge_build -DLEVELFORGE_BUILD_TESTS=OFF -DLEVELFORGE_BUILD_BENCHMARKS=OFF

cd "$LEVELFORGE_ROOT"
levelforge="$LEVELFORGE_BUILD/runner/cli/levelforge"
# The demo replaces its own earlier result; your experiments never do without --force.
mpiexec -n 2 "$levelforge" run configs/demo.yaml --force
"$levelforge" inspect --brief results/demo.h5
# Debian's interpreter: the one python3-h5py, -pandas and -matplotlib install into.
/usr/bin/python3 -m analysis.report results/demo.h5 -o results/demo-report > /dev/null
echo
echo "results: $LEVELFORGE_ROOT/results/demo.h5"
echo "inspect: $levelforge inspect results/demo.h5"
echo "report:  $LEVELFORGE_ROOT/results/demo-report/index.html"
