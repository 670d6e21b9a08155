#!/usr/bin/env bash
# Configures and builds rbmix in build/ (Release). Usage:
#   bash tools/scripts/build.sh [cmake arguments]                 everything: tests, proofs and benchmarks included
#   RBMIX_TARGETS="rbmix_cli rbmix_python" bash tools/scripts/build.sh [cmake arguments]    only those targets
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${RBMIX_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
targets=()
for target in ${RBMIX_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"
