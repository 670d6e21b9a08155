#!/usr/bin/env bash
# Sets up everything on a fresh Debian machine, builds, and runs the main job: rbmix demo.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Only what the demo and the Python package need: the program and the module, not the test suite (run-tests.sh
# builds the rest in the same build directory, adding to it).
bash "$root/tools/scripts/setup-dependencies.sh" --demo
build_dir=${RBMIX_BUILD_DIR:-$root/build}
# A unity build of the libraries and the module: the fresh build in less time (docs/building.md); run-tests.sh keeps
# it, so the tests reuse these objects.
RBMIX_TARGETS=rbmix_cli bash "$root/tools/scripts/build.sh" -DRBMIX_BUILD_TESTS=OFF -DRBMIX_BUILD_BENCHMARKS=OFF \
  -DRBMIX_MPI=OFF -DRBMIX_UNITY_BUILD=ON
# The Python package, for the interpreter it was built for (docs/python.md): afterwards `python3 -c "import rbmix"`.
if grep -q "^RBMIX_PYTHON:BOOL=ON" "$build_dir/CMakeCache.txt"; then
  cmake --build "$build_dir" --parallel "$(nproc)" --target rbmix_python
  sudo_prefix=()
  if [[ $(id -u) -ne 0 ]]; then sudo_prefix=(sudo); fi
  "${sudo_prefix[@]}" cmake --install "$build_dir" --component python
fi
"$build_dir/bin/rbmix" demo "$@"
