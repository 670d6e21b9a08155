#!/usr/bin/env bash
# Sets up everything on a fresh Debian machine, builds, and runs the main job: rbmix demo.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/tools/scripts/setup-dependencies.sh"
bash "$root/tools/scripts/build.sh" -DRBMIX_BUILD_BENCHMARKS=OFF
"${RBMIX_BUILD_DIR:-$root/build}/bin/rbmix" demo "$@"
