#!/usr/bin/env bash
# Sets up everything on a fresh Debian machine, builds, and runs the whole test suite (unit tests, property
# tests and proof checks) with ctest. This is the command README.md gives and .ci/run runs after run-demo.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/tools/scripts/setup-dependencies.sh"
# Explicit, since a build directory the demo configured holds these OFF; the unity build (the default) stays as the
# demo built it.
bash "$root/tools/scripts/build.sh" -DRBMIX_BUILD_TESTS=ON -DRBMIX_BUILD_BENCHMARKS=ON -DRBMIX_MPI=ON
cd "${RBMIX_BUILD_DIR:-$root/build}"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600
