# Shared by the scripts: repository root, build folder, and how to start MPI jobs here.
LEVELFORGE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LEVELFORGE_BUILD=${LEVELFORGE_BUILD:-$LEVELFORGE_ROOT/build}
if ((EUID == 0)); then
  # Open MPI refuses to run as root unless told; containers and CI run as root.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Small machines have fewer cores than the ranks the demo and tests start.
export OMPI_MCA_rmaps_base_oversubscribe=1

# Configures FOLDER with the given options: Ninja where the folder is new (one configured
# before keeps its generator), and a unity build, which compiles each target's sources in
# batches and so parses the heavy headers (fmt, CLI11, yaml-cpp, GoogleTest) once a batch.
# Batches of 32 sources, not CMake's 8: fewer batches parse those headers fewer times, and the
# largest batch still compiles in about a minute.
levelforge_configure() {
  local folder=$1
  shift
  local generator=()
  [[ -f $folder/CMakeCache.txt ]] || generator=(-G Ninja)
  cmake -S "$LEVELFORGE_ROOT" -B "$folder" "${generator[@]}" -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_UNITY_BUILD_BATCH_SIZE=32 "$@"
}

levelforge_build() {
  levelforge_configure "$LEVELFORGE_BUILD" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$LEVELFORGE_BUILD" -j "$(nproc)"
}
