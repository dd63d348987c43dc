#!/usr/bin/env bash
# Installs the Debian packages levelforge needs; does nothing when all are present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git clang-format clang-tidy
  openmpi-bin libopenmpi-dev libhdf5-openmpi-dev hdf5-tools
  libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev librandom123-dev libxxhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev libboost-dev libeigen3-dev
  python3 python3-h5py python3-numpy python3-pandas python3-matplotlib python3-pytest python3-yaml python3-xxhash
  python3-xarray python3-netcdf4 python3-pip python3-venv python3-flake8
  slurmctld slurmd slurm-client munge procps
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if ((EUID != 0)); then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
