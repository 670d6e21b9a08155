#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan, in build-fuzz/) and runs each for a fixed
# time on a copy of its committed corpus. Usage:
#   bash tools/scripts/run-fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 10 s, every target)
#   bash tools/scripts/run-fuzz.sh 600 checkpoint                        a longer run of one target
#   RBMIX_FUZZ_RUNS=2000 bash tools/scripts/run-fuzz.sh                  a fixed number of inputs per target from a
#                                                                        fixed seed (repeatable: what CI runs)
# New inputs that add coverage stay in build-fuzz/corpus/<target>/ for the next run. A crash leaves crash-* in
# build-fuzz/artifacts/<target>/ and the script fails; copy the file into tests/fuzz/corpus/<target>/ with the fix,
# so that every build replays it (ctest -L fuzz).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${RBMIX_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-10}
shift || true
bash "$root/tools/scripts/setup-dependencies.sh" >/dev/null

targets=("$@")
if ((${#targets[@]} == 0)); then
  for source in "$root"/tests/fuzz/*_fuzz_target.cpp; do
    name=$(basename "$source" _fuzz_target.cpp)
    targets+=("$name")
  done
fi

CXX=clang++ cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRBMIX_FUZZ=ON \
  -DRBMIX_BUILD_BENCHMARKS=OFF -DRBMIX_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)" --target "${targets[@]/#/rbmix_fuzz_}"

status=0
for target in "${targets[@]}"; do
  corpus=$build_dir/corpus/$target
  artifacts=$build_dir/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  cp -n "$root/tests/fuzz/corpus/$target"/* "$corpus"/
  echo "fuzz: $target for ${RBMIX_FUZZ_RUNS:-$seconds s} ${RBMIX_FUZZ_RUNS:+inputs}"
  # -rss_limit_mb: the readers must refuse absurd sizes before allocating; -timeout: no input may take a second.
  budget=(-max_total_time="$seconds")
  if [[ -n "${RBMIX_FUZZ_RUNS:-}" ]]; then budget=(-runs="$RBMIX_FUZZ_RUNS" -seed=20131127); fi
  if ! "$build_dir/fuzz/rbmix_fuzz_$target" "${budget[@]}" -rss_limit_mb=2048 -timeout=5 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" 2>"$build_dir/fuzz-$target.log"; then
    echo "fuzz: $target FAILED: see $build_dir/fuzz-$target.log and $artifacts/" >&2
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build_dir/fuzz-$target.log" | sed "s/^/  /"
done
exit $status
