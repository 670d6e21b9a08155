#!/usr/bin/env bash
# End-to-end tests of experiment grids: experiment_grid_test.sh <path to rbmix> <case> [mpirun].
# For four experiments at smoke scale (slem-sweep: 40 RBMs; dcp-small: 40 training runs; samplers: three phases,
# 4 models, 14 sampler settings and a reference curve; ais-check: two phases, 2 models trained and then 20 AIS runs on
# them), every way of running the grid must write byte-identical tables and plots to one uninterrupted single-process
# run: shards merged, a run interrupted and resumed, and mpirun with 3 ranks. Only run.json (timing, ranks, hosts),
# the journal and the tables' columns of measured seconds may differ. Shards are also merged for modified-sweep, a
# grid of two phases (random RBMs, then trained ones), for estimator-calibration and for coupling.
set -u
# shellcheck source=case_runner.sh
source "$(dirname "${BASH_SOURCE[0]}")/case_runner.sh"

RBMIX=$(readlink -f -- "$1")
readonly RBMIX CASE=$2 MPIRUN=${3:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1


# The grids, as the arguments after `rbmix experiment`.
readonly SLEM=(slem-sweep --scale smoke --sizes 2,3 --c 1,4 --count 10 --seed 3)
readonly DCP=(dcp-small --trials 2 --epochs 60 --seed 5)
readonly SAMPLERS=(samplers --scale smoke --samples 300 --seed 6)
# Its second phase needs the models of the first.
readonly AIS=(ais-check --distributions 10,100 --updates 100 --timing-distributions 5 --seed 2)
readonly MODIFIED=(modified-sweep --scale smoke --seed 5)
# Every estimator's diagnostics of every trace set go through the journal.
readonly CALIBRATION=(estimator-calibration --scale smoke --operators gibbs --configurations 2x500,4x400 --seed 5)
# Random RBMs and trained ones, every job's meeting times through the journal.
readonly COUPLING=(coupling --scale smoke --sizes 2 --c 1,4 --count 3 --pairs 16 --max-sweeps 500 --seed 5)

# rbmix ARGS... must exit 0; its output goes to NAME.log (NAME: the --out directory).
succeeds() {
  local log=$WORK/last.log
  if ! "$RBMIX" "$@" >"$log" 2>&1; then fail "rbmix $* exited non-zero: $(cat "$log")"; fi
}

# refused NEEDLE ARGS...: rbmix ARGS must exit 2 with NEEDLE in its message.
refused() {
  local needle=$1 output status
  shift
  output=$("$RBMIX" "$@" 2>&1)
  status=$?
  if ((status != 2)); then fail "rbmix $* exited $status, expected 2: $output"; fi
  if ! grep -qF -- "$needle" <<<"$output"; then fail "rbmix $*: message does not name '$needle': $output"; fi
}

# untimed CSV: the table without its columns of measured time (a header naming seconds), which no two runs share.
untimed() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) timed[i] = ($i ~ /seconds/) }
           { line = ""; for (i = 1; i <= NF; ++i) if (!timed[i]) line = line "," $i; print line }' "$1"
}

# same_outputs EXPECTED ACTUAL: every CSV and SVG of EXPECTED is in ACTUAL with the same bytes (CSV: but for the
# timed columns), and no other.
same_outputs() {
  local expected=$1 actual=$2 file
  local wanted listed
  wanted=$(cd "$expected" && ls -- *.csv *.svg 2>/dev/null)
  listed=$(cd "$actual" 2>/dev/null && ls -- *.csv *.svg 2>/dev/null)
  if [[ -z "$wanted" ]]; then fail "$expected holds no tables"; fi
  if [[ "$wanted" != "$listed" ]]; then fail "$actual holds [$listed], $expected [$wanted]"; fi
  for file in $wanted; do
    if [[ $file == *.csv ]]; then
      cmp -s <(untimed "$expected/$file") <(untimed "$actual/$file") || fail "$actual/$file differs from $expected/$file"
    else
      cmp -s "$expected/$file" "$actual/$file" || fail "$actual/$file differs from $expected/$file"
    fi
  done
}

# Shards 1/3, 2/3 and 3/3 merged give the single run's outputs; a missing shard or another seed is refused.
case_grid_shards_merge() {
  local name grid
  for name in SLEM DCP SAMPLERS MODIFIED CALIBRATION COUPLING; do
    declare -n grid=$name
    succeeds experiment "${grid[@]}" --out "$name-whole"
    for shard in 1 2 3; do succeeds experiment "${grid[@]}" --shard "$shard/3" --out "$name-$shard"; done
    [[ ! -e "$name-1/run.json" ]] || fail "shard 1/3 wrote outputs"
    succeeds experiment merge --out "$name-merged" "$name-3" "$name-1" "$name-2"
    same_outputs "$name-whole" "$name-merged"
    refused "shard 2/3 is missing" experiment merge --out "$name-gap" "$name-1" "$name-3"
  done
  succeeds experiment "${SLEM[@]:0:${#SLEM[@]}-2}" --seed 4 --shard 2/3 --out reseeded
  refused "seed 4" experiment merge --out mixed SLEM-1 reseeded SLEM-3
  refused "another grid" experiment merge --out mixed SLEM-1 DCP-2 SLEM-3
  rm SLEM-2/journal/phase-0/job-000004.json
  refused "jobs missing: 4 (shard 2/3)" experiment merge --out holed SLEM-1 SLEM-2 SLEM-3

  # Two phases, the second needing the whole first: the shards stop after their share of phase 0; merged, the
  # experiment runs phase 1 in the merging process; or, in a second round, the shards resume copies of the merged
  # journal and run their shares of phase 1, merged in turn.
  succeeds experiment "${AIS[@]}" --out AIS-whole
  for shard in 1 2 3; do succeeds experiment "${AIS[@]}" --shard "$shard/3" --out "AIS-$shard"; done
  [[ ! -e AIS-1/journal/phase-1 ]] || fail "shard 1/3 ran phase 1 without the whole of phase 0"
  succeeds experiment merge --out AIS-merged AIS-1 AIS-2 AIS-3
  same_outputs AIS-whole AIS-merged
  succeeds experiment merge --journal-only --out AIS-round AIS-1 AIS-2 AIS-3
  [[ ! -e AIS-round/run.json ]] || fail "merge --journal-only ran the experiment"
  for shard in 1 2 3; do
    cp -r AIS-round "AIS-next-$shard"
    succeeds experiment "${AIS[@]}" --shard "$shard/3" --resume --out "AIS-next-$shard"
    [[ -e "AIS-next-$shard/journal/phase-1" ]] || fail "shard $shard/3 did not go on to phase 1"
  done
  succeeds experiment merge --out AIS-rounds AIS-next-2 AIS-next-1 AIS-next-3
  same_outputs AIS-whole AIS-rounds
  rm AIS-next-3/journal/phase-1/job-000005.json
  refused "jobs missing in phase 1: 5 (shard 3/3)" experiment merge --out AIS-holed AIS-next-1 AIS-next-2 AIS-next-3
  [[ ! -e AIS-holed ]] || fail "a refused merge made its output directory"
}

# A run that lost its outputs and some journal entries (as when killed midway), resumed, gives the same outputs;
# so does a run killed at a random moment. A damaged journal entry is refused by name.
case_grid_resume() {
  local name grid job number
  for name in SLEM DCP SAMPLERS AIS; do
    declare -n grid=$name
    succeeds experiment "${grid[@]}" --out "$name-whole"
    mkdir "$name-cut"
    cp -r "$name-whole/journal" "$name-cut/"
    # Jobs 0, 3, 6, ... of every phase never finished; one was being written when the run died.
    for job in "$name-cut"/journal/phase-*/job-*.json; do
      number=$(basename "$job" .json | tr -dc 0-9)
      if ((10#$number % 3 == 0)); then rm "$job"; fi
    done
    echo '{"trunc' >"$name-cut/journal/phase-0/job-000000.json.partial"
    succeeds experiment "${grid[@]}" --resume --out "$name-cut"
    same_outputs "$name-whole" "$name-cut"
    [[ ! -e "$name-cut/journal/phase-0/job-000000.json" ]] && fail "$name: the resumed run did not journal job 0"
  done

  "$RBMIX" experiment slem-sweep --sizes 4 --c 1,2 --count 5 --seed 7 --threads 2 --out killed >/dev/null 2>&1 &
  local pid=$!
  sleep 0.5
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  succeeds experiment slem-sweep --sizes 4 --c 1,2 --count 5 --seed 7 --resume --out killed
  succeeds experiment slem-sweep --sizes 4 --c 1,2 --count 5 --seed 7 --out unkilled
  same_outputs unkilled killed
  # The same across phases: killed in its first or second phase, the two-phase grid resumes from there.
  "$RBMIX" experiment "${AIS[@]}" --threads 2 --out AIS-killed >/dev/null 2>&1 &
  pid=$!
  sleep 1
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  succeeds experiment "${AIS[@]}" --resume --out AIS-killed
  same_outputs AIS-whole AIS-killed

  refused "is of another grid (seed differ)" experiment "${SLEM[@]:0:${#SLEM[@]}-2}" --seed 9 --resume --out SLEM-cut
  # A result edited after it was written: its checksum no longer matches.
  sed -i 's/0x1\./0x1.f/' SLEM-cut/journal/phase-0/job-000005.json
  refused "SLEM-cut/journal/phase-0/job-000005.json' is damaged: checksum mismatch" \
    experiment "${SLEM[@]}" --resume --out SLEM-cut
  echo 'not json' >DCP-cut/journal/phase-0/job-000002.json
  refused "DCP-cut/journal/phase-0/job-000002.json' is damaged" experiment "${DCP[@]}" --resume --out DCP-cut
}

# grid_field FILE KEY JSON: sets KEY of the JSON object in FILE to the JSON value given.
grid_field() {
  python3 -c 'import json, sys
record = json.load(open(sys.argv[1]))
record[sys.argv[2]] = json.loads(sys.argv[3])
json.dump(record, open(sys.argv[1], "w"))' "$@"
}

# reseal_result FILE PYTHON: runs PYTHON on the job entry FILE's decoded result (`result`) and writes the entry back
# with its checksum recomputed, as a forged entry would be: only the checks of the values can refuse it.
reseal_result() {
  python3 - "$@" <<'PY'
import json, sys, zlib
path, code = sys.argv[1], sys.argv[2]
entry = json.load(open(path))
result = json.loads(entry["result"])
exec(code)
entry["result"] = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
del entry["checksum"]
text = json.dumps(entry, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
entry["checksum"] = "%08x" % zlib.crc32(text.encode())
json.dump(entry, open(path, "w"))
PY
}

# Every journal entry is bound to its grid (experiment, arguments, seed, version), phase and job inside its
# checksum: an entry copied from a run of the same grid with another seed, or two entries swapped (renamed, or
# renamed with their job field edited), are refused naming the file, by --resume and by merge alike. So are a
# grid.json with a field of the wrong type and a job file whose name is no job index.
case_grid_foreign_entries() {
  local one=(dcp-small --scale smoke --shard 1/2 --seed 1) phase=one/journal/phase-0 value
  succeeds experiment "${one[@]}" --out one-intact
  succeeds experiment dcp-small --scale smoke --shard 1/2 --seed 7 --out seven
  succeeds experiment dcp-small --scale smoke --shard 2/2 --seed 1 --out two
  cp -r one-intact one
  cp seven/journal/phase-0/job-000000.json $phase/
  refused "$phase/job-000000.json' is damaged: it belongs to another grid (seed differ)" \
    experiment "${one[@]}" --resume --out one
  refused "$phase/job-000000.json' is damaged: it belongs to another grid (seed differ)" \
    experiment merge --out merged one two

  rm -r one && cp -r one-intact one
  mv $phase/job-000000.json $phase/swap && mv $phase/job-000002.json $phase/job-000000.json
  mv $phase/swap $phase/job-000002.json
  refused "$phase/job-000000.json' is damaged: it holds job 2" experiment "${one[@]}" --resume --out one
  refused "' is damaged: it holds job" experiment merge --out merged one two
  sed -i 's/"job":0,/"job":2,/' $phase/job-000002.json
  sed -i 's/"job":2,/"job":0,/' $phase/job-000000.json
  refused "' is damaged: checksum mismatch" experiment "${one[@]}" --resume --out one
  refused "' is damaged: checksum mismatch" experiment merge --out merged one two

  rm -r one && cp -r one-intact one
  cp $phase/job-000000.json $phase/job-99999999999999999999999.json
  refused "$phase/job-99999999999999999999999.json' is damaged" experiment "${one[@]}" --resume --out one
  refused "$phase/job-99999999999999999999999.json' is damaged" experiment merge --out merged one two

  for value in shard=null 'shard=[1]' 'shard="0/2"' 'jobs="60"' 'jobs=["60"]' 'jobs={}' 'identity=7' 'identity={}'; do
    rm -r one && cp -r one-intact one
    grid_field one/journal/grid.json "${value%%=*}" "${value#*=}"
    refused "one/journal/grid.json' is damaged" experiment "${one[@]}" --resume --out one
    refused "one/journal/grid.json' is damaged" experiment merge --out merged one two
  done
  # A resealed entry whose values no run writes: a learning curve of infinite or NaN log-likelihood, or an empty one
  # beside its best and final points. Refused by merge, and by --resume of the whole grid (a shard's --resume only
  # journals its share; the results are read where the tables are made).
  local forged
  succeeds experiment merge --out merged-intact one-intact two
  for forged in 'result["learning_curve"][0]["train_log_likelihood"] = "inf"' \
    'result["learning_curve"][-1]["train_log_likelihood"] = "-inf"' \
    'result["learning_curve"][0]["train_log_likelihood"] = "nan"' 'result["learning_curve"] = []'; do
    rm -rf one whole && cp -r one-intact one && cp -r merged-intact whole
    reseal_result $phase/job-000000.json "$forged"
    refused "merged/journal/phase-0/job-000000.json' is damaged: the result of job 0: field 'learning_curve" \
      experiment merge --out merged one two
    reseal_result whole/journal/phase-0/job-000000.json "$forged"
    refused "whole/journal/phase-0/job-000000.json' is damaged: the result of job 0: field 'learning_curve" \
      experiment dcp-small --scale smoke --seed 1 --resume --out whole
  done
  rm -r one && cp -r one-intact one
  reseal_result $phase/job-000000.json 'pass'
  succeeds experiment merge --out merged one two

  # A merge into a directory that another run is writing is refused, naming that run's process.
  succeeds data make bas --size 3 --out bas.npy
  "$RBMIX" train --data bas.npy --hidden 6 --updates 100000000 --eval-every 50000000 --out busy >busy.log 2>&1 &
  local holder=$! waited=0
  while ! grep -qF "process $holder" busy/.rbmix.lock 2>/dev/null && ((waited < 300)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  refused "output directory 'busy' is in use by process $holder" experiment merge --out busy one two
  kill -KILL "$holder"
  wait "$holder" 2>/dev/null
}

# Every experiment reads its journaled results through one reader (experiments/exact_number.hpp, JournaledValue): a
# resealed entry holding a value that no run writes is refused by --resume of the whole grid, naming the entry's
# file, its job and the field, for each kind of result (PHASE: the phase whose job 0 is damaged).
case_grid_damaged_results() {
  local name grid phase damage field entry
  local AUTOCORR=(autocorr --scale smoke --only bas4x4 --trials 1 --steps 2000 --seed 1)
  local CLASSES=(class-changes --scale smoke --trials 1 --updates 100 --steps 1000 --seed 1)
  local PCD=(pcd-study --scale smoke --seed 1)
  while IFS='|' read -r -u 3 name phase damage field; do
    declare -n grid=$name
    [[ -d "$name-intact" ]] || succeeds experiment "${grid[@]}" --out "$name-intact"
    rm -rf "$name" && cp -r "$name-intact" "$name"
    entry=$name/journal/phase-$phase/job-000000.json
    reseal_result "$entry" "$damage"
    refused "$entry' is damaged: the result of job 0: field '$field" experiment "${grid[@]}" --resume --out "$name"
  done 3<<'DAMAGES'
SLEM|0|result["slem_gibbs"] = "0x1.8p+0"|slem_gibbs': 0x1.8p+0 is outside [0, 1]
DCP|0|result["seconds"] = "-0x1p+0"|seconds': -0x1p+0 is below 0
SAMPLERS|0|result["selection_isl"] = "nan"|selection_isl': nan is not a log-likelihood
SAMPLERS|1|result["mean_activity"] = "0x1.8p+0"|mean_activity': 0x1.8p+0 is outside [0, 1]
AIS|0|result["exact_log_partition"] = "inf"|exact_log_partition': inf is not a finite number
AIS|1|result["effective_sample_size"] = "-0x1p+0"|effective_sample_size': -0x1p+0 is below 0
MODIFIED|0|result["tau"][0] = "-0x1p+0"|tau[0]': a negative exact τ
MODIFIED|1|result["operators"][0][0]["cutoff"] = -1|operators[0][0].cutoff': -1 is out of range
CALIBRATION|0|result["runs"][0]["diagnostics"]["chains"] = -4|runs[0].diagnostics.chains': -4 is out of range
COUPLING|0|result["gibbs"]["max_meeting"] = "inf"|gibbs.max_meeting': inf is neither a finite number nor missing
AUTOCORR|0|result["flip"]["autocorrelation"][0] = "0x1p-1"|flip.autocorrelation': not an autocorrelation
CLASSES|0|result["counts"][1]["censored"] = 10**6|counts[1].censored': more censored starts than starts
PCD|0|result["points"][0][0] = -1|points[0][0]': -1 is out of range
PCD|1|result["best_test"] = "inf"|best_test': inf is not a log-likelihood
DAMAGES
}

# mpirun -np 3 (rank 0 hands out the jobs, two worker ranks of two threads run them) gives the single run's outputs;
# so does a shard run over MPI, merged.
case_grid_mpi() {
  if [[ -z "$MPIRUN" ]]; then
    fail "no mpirun given"
    return
  fi
  # Open MPI refuses root without these, and 3 ranks on fewer cores without --oversubscribe.
  local launch=("$MPIRUN" --oversubscribe -np 3)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  local name grid
  for name in SLEM DCP SAMPLERS AIS; do
    declare -n grid=$name
    succeeds experiment "${grid[@]}" --threads 1 --out "$name-whole"
    if ! "${launch[@]}" "$RBMIX" experiment "${grid[@]}" --threads 2 --out "$name-mpi" >"$name.log" 2>&1; then
      fail "mpirun $name exited non-zero: $(cat "$name.log")"
    fi
    same_outputs "$name-whole" "$name-mpi"
    grep -q '"ranks": 3' "$name-mpi/run.json" || fail "$name-mpi/run.json does not record 3 ranks"
  done
  "${launch[@]}" "$RBMIX" experiment "${SLEM[@]}" --shard 1/2 --out half-1 >/dev/null 2>&1 || fail "mpirun shard 1/2"
  succeeds experiment "${SLEM[@]}" --shard 2/2 --out half-2
  succeeds experiment merge --out halves half-1 half-2
  same_outputs SLEM-whole halves
}

run_case
