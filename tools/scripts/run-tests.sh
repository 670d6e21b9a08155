#!/usr/bin/env bash
# Sets up everything on a fresh Debian machine, builds, and runs the whole test suite (unit tests, property
# tests and proof checks) with ctest. This is the command README.md gives and .ci/run runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/tools/scripts/setup-dependencies.sh"
bash "$root/tools/scripts/build.sh"
cd "${RBMIX_BUILD_DIR:-$root/build}"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600
