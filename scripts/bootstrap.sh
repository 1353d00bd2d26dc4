#!/usr/bin/env bash
# Installs what dse needs on Debian 12 (only the packages that are missing), then configures and
# builds it. Idempotent: a second run installs nothing and rebuilds only what changed.
#
#   scripts/bootstrap.sh [BUILD_DIR] [extra cmake arguments...]
#
# Run as root (or with sudo available). BUILD_DIR defaults to build/.
set -euo pipefail

cd "$(dirname "$0")/.."
build_dir=${1:-build}
shift || true

packages=(
  build-essential cmake ninja-build git pkg-config
  libboost-graph-dev libtbb-dev libyaml-cpp-dev libhdf5-dev libgtest-dev libgmock-dev
  libcli11-dev nlohmann-json3-dev libeigen3-dev libfmt-dev libbenchmark-dev libpagmo-dev libglpk-dev
  libonnx-dev libprotobuf-dev libinih-dev libopenmpi-dev openmpi-bin
  python3 python3-h5py python3-onnx python3-matplotlib python3-yaml chromium
)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >&2
cmake --build "$build_dir" -j "$jobs" >&2
