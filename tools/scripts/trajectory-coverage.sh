#!/usr/bin/env bash
# How often the band of log Z tracked along training (--monitor trajectory) holds the exact value, over training
# seeds (docs/algorithms/log-partition-along-training.md §11.4). The model must be enumerable (smaller layer at most
# 25 units) so that every evaluation holds the exact log-likelihood beside the estimate. Usage:
#   bash tools/scripts/trajectory-coverage.sh RBMIX SEEDS OUT -- [rbmix train options but --seed, --out, --monitor]
# Runs `RBMIX train ... --monitor trajectory --seed S --out OUT/seed-S` for S = 1 … SEEDS, then prints one line per
# evaluation (seed, update, log Ẑ − log Z, inside the band or not) and the totals; writes them to OUT/coverage.csv.
# Exit 0 when it ran, whatever the coverage; 2 on bad arguments.
set -euo pipefail
if [[ $# -lt 4 || $4 != "--" || ! $2 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: trajectory-coverage.sh RBMIX SEEDS OUT -- [rbmix train options]" >&2
  exit 2
fi
rbmix=$1 seeds=$2 out=$3
shift 4
mkdir -p "$out"
echo "seed,update,log_partition_error,inside_band" > "$out/coverage.csv"
for ((seed = 1; seed <= seeds; ++seed)); do
  "$rbmix" train "$@" --monitor trajectory --seed "$seed" --out "$out/seed-$seed" > "$out/seed-$seed.log"
  # log Ẑ − log Z is the exact log-likelihood minus the estimate (both are mean(−F) − log Z); inside: the exact
  # log-likelihood lies in [lower, upper].
  awk -F, -v seed="$seed" '
    NR == 1 { for (i = 1; i <= NF; ++i) column[$i] = i; next }
    {
      estimate = $column["train_log_likelihood"]; exact = $column["train_log_likelihood_exact"]
      lower = $column["train_log_likelihood_lower"]; upper = $column["train_log_likelihood_upper"]
      if (exact == "") { print "no exact value at update " $column["update"] > "/dev/stderr"; exit 1 }
      inside = (exact + 0 >= lower + 0 && (upper == "inf" || exact + 0 <= upper + 0)) ? 1 : 0
      printf "%d,%d,%.4f,%d\n", seed, $column["update"], exact - estimate, inside
    }' "$out/seed-$seed/learning_curve.csv" >> "$out/coverage.csv"
done
column -t -s, "$out/coverage.csv"
awk -F, 'NR > 1 { ++all; inside += $4 } END { printf "inside the band: %d of %d evaluations\n", inside, all }' \
  "$out/coverage.csv"
