#!/usr/bin/env bash
# PCD-1 updates with and without competing busy processes (docs/performance.md "Under contention"). For each load
# (0, 1, 2 busy processes: idle, one core of two busy, a parallel build's worth) it runs build/bench/pcd_epoch_bench
# under three thread settings, interleaved and in a rotating order, `repeats` times:
#   tuned    the default (the thread-count tuner picks the full team or one thread, thread_count_tuner.hpp)
#   untuned  the full team at every update (--untuned): rbmix before the tuner, libgomp's default wait policy
#   one      OMP_NUM_THREADS=1
# and passive (untuned under OMP_WAIT_POLICY=passive) with --passive; --settings picks some of them (one is always run). It prints each setting's median and range of seconds
# and the ratios to one thread (the median of the ratios taken repeat by repeat, and their range): under load,
# tuned / one should be near 1 (never more than 1.1); idle, tuned / one is the team's gain.
# usage: tools/bench/contention.sh [--bench PATH] [--repeats R] [--updates U] [--loads 0,1,2] [--pin] [--passive]
#                                  [--settings tuned,untuned,one,passive]
# --pin pins each busy process to one core (the last ones); unpinned, the scheduler places them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bench=$root/build/bench/pcd_epoch_bench
repeats=3
updates=600
loads=0,1,2
pin=false
passive=false
while (($#)); do
  case $1 in
    --bench) bench=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --updates) updates=$2; shift 2 ;;
    --loads) loads=$2; shift 2 ;;
    --pin) pin=true; shift ;;
    --passive) passive=true; shift ;;
    --settings) IFS=, read -r -a chosen_settings <<<"$2"; shift 2 ;;
    *) echo "usage: $0 [--bench PATH] [--repeats R] [--updates U] [--loads 0,1,2] [--pin] [--passive]" \
      "[--settings tuned,untuned,one,passive]" >&2; exit 2 ;;
  esac
done
[[ -x $bench ]] || { echo "$0: no benchmark program at $bench (build the target pcd_epoch_bench)" >&2; exit 2; }
cores=$(nproc)
settings=(tuned untuned one)
$passive && settings+=(passive)
if [[ -v chosen_settings ]]; then
  settings=(one)
  for setting in "${chosen_settings[@]}"; do
    case $setting in
      tuned | untuned | passive) settings+=("$setting") ;;
      one) ;;
      *) echo "$0: unknown setting '$setting' (tuned, untuned, one, passive)" >&2; exit 2 ;;
    esac
  done
fi

spinners=()
stop_spinners() {
  local pid
  for pid in "${spinners[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${spinners[@]}"; do wait "$pid" 2>/dev/null || true; done
  spinners=()
}
trap stop_spinners EXIT
start_spinners() {
  local count=$1 k
  for ((k = 0; k < count; ++k)); do
    if $pin; then
      taskset -c $(((cores - 1 - k) % cores)) sh -c 'while :; do :; done' &
    else
      sh -c 'while :; do :; done' &
    fi
    spinners+=($!)
  done
  sleep 0.5  # let the scheduler place them
}

run_setting() {
  case $1 in
    tuned) env -u OMP_NUM_THREADS -u OMP_WAIT_POLICY "$bench" --updates "$updates" ;;
    untuned) env -u OMP_NUM_THREADS -u OMP_WAIT_POLICY "$bench" --updates "$updates" --untuned ;;
    one) env -u OMP_WAIT_POLICY OMP_NUM_THREADS=1 "$bench" --updates "$updates" ;;
    passive) env -u OMP_NUM_THREADS OMP_WAIT_POLICY=passive "$bench" --updates "$updates" --untuned ;;
  esac
}

# median and range of the numbers on standard input: "median [min–max]"
summary() { sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
  printf "%.3f [%.3f–%.3f]", m, v[1], v[NR] }'; }

echo "pcd_epoch_bench: $updates PCD-1 updates (784 × 500, batch 100, float, 13 % ones); $cores cores;" \
  "$repeats repeats; busy processes $( $pin && echo pinned || echo unpinned ); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
IFS=, read -r -a load_list <<<"$loads"
declare -A sums=()
for load in "${load_list[@]}"; do
  start_spinners "$load"
  declare -A seconds=() tuned_to=()
  for ((r = 0; r < repeats; ++r)); do
    for ((s = 0; s < ${#settings[@]}; ++s)); do
      setting=${settings[$(((s + r) % ${#settings[@]}))]}
      read -r _ time _ _ _ _ _ chosen _ sum < <(run_setting "$setting")
      seconds[$setting]+="$time "
      [[ $setting == tuned ]] && tuned_to[$setting]+="$chosen "
      sums[$sum]=1
    done
  done
  stop_spinners
  echo "busy processes: $load"
  for setting in "${settings[@]}"; do
    printf '  %-8s %s s' "$setting" "$(tr ' ' '\n' <<<"${seconds[$setting]}" | grep . | summary)"
    [[ $setting == tuned ]] && printf '  (team at the end: %s)' "${tuned_to[tuned]% }"
    printf '\n'
  done
  read -r -a one <<<"${seconds[one]}"
  for setting in "${settings[@]}"; do
    [[ $setting == one ]] && continue
    read -r -a times <<<"${seconds[$setting]}"
    printf '  %s / one: %s\n' "$setting" "$(for ((r = 0; r < repeats; ++r)); do
      awk -v a="${times[r]}" -v b="${one[r]}" 'BEGIN { print a / b }'; done | summary)"
  done
  unset seconds tuned_to
done
# Every run trains the same model (the same seed and updates), whatever the thread setting and the load.
if ((${#sums[@]} == 1)); then
  echo "weights: the same sum in every run (${!sums[*]})"
else
  echo "weights: DIFFERENT sums across runs: ${!sums[*]}"
  exit 1
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
