#!/usr/bin/env bash
# End-to-end tests of the rbmix command-line program: cli_test.sh <path to rbmix> <case>.
# Each case runs in a fresh temporary directory and checks exit statuses AND the content of what the program
# prints or writes: exact answers that follow from closed forms (Bars & Stripes entropy, log Z of the all-zero
# model), and, for bad input, a non-zero exit with a message that names the input and no crash.
# Needs bash, awk and python3 (standard library only: json, struct, zipfile).
set -u
# shellcheck source=case_runner.sh
source "$(dirname "${BASH_SOURCE[0]}")/case_runner.sh"

RBMIX=$(readlink -f -- "$1")  # absolute: each case runs in its own directory
readonly RBMIX
if [[ ! -x "$RBMIX" ]]; then
  echo "cli_test.sh: '$1' is not an executable rbmix program" >&2
  exit 2
fi
readonly CASE=$2

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1


# Output and status of the last command run through `run`.
OUTPUT=""
STATUS=0

# run ARGS...: runs rbmix ARGS with stdout and stderr together in $OUTPUT and the exit status in $STATUS.
run() {
  OUTPUT=$("$RBMIX" "$@" 2>&1)
  STATUS=$?
  FLAT_JSON=""
  if [[ "$OUTPUT" == "{"* ]]; then flatten_json; fi
}

describe() { printf 'rbmix %s' "$*"; }

# A crash is a signal (status ≥ 128) or the C++ runtime's last words, whatever the status.
check_no_crash() {
  local what=$1
  if ((STATUS >= 128)); then fail "$what: killed by a signal (status $STATUS): $OUTPUT"; fi
  if grep -qE 'Segmentation fault|terminate called|Aborted|core dumped|AddressSanitizer|runtime error:' \
    <<<"$OUTPUT"; then
    fail "$what: crashed: $OUTPUT"
  fi
}

# succeeds ARGS...: rbmix ARGS must exit 0.
succeeds() {
  run "$@"
  check_no_crash "$(describe "$@")"
  if ((STATUS != 0)); then fail "$(describe "$@") exited $STATUS: $OUTPUT"; fi
}

# rejects NEEDLE ARGS...: rbmix ARGS must exit non-zero, without crashing, with NEEDLE (the bad input's name,
# a fixed string) somewhere in its message.
rejects() {
  local needle=$1
  shift
  run "$@"
  check_no_crash "$(describe "$@")"
  if ((STATUS == 0)); then
    fail "$(describe "$@") accepted bad input (status 0): $OUTPUT"
  elif ! grep -qF -- "$needle" <<<"$OUTPUT"; then
    fail "$(describe "$@") (status $STATUS) does not name '$needle' in its message: $OUTPUT"
  fi
}

# rejects_clearly NEEDLE ARGS...: as rejects, and the message does not print the largest double as a bound
# (CLI11's PositiveNumber / NonNegativeNumber do: "Value 0 not in range 0.000000 to 17976931348623157...").
rejects_clearly() {
  rejects "$@"
  if grep -qF "179769313486" <<<"$OUTPUT"; then fail "$(describe "${@:2}"): unclear message: $OUTPUT"; fi
}

# expect_output_contains TEXT: the last command's output contains TEXT (fixed string).
expect_output_contains() {
  if ! grep -qF -- "$1" <<<"$OUTPUT"; then fail "output lacks '$1': $OUTPUT"; fi
}

# The Python interpreter itself: a version-manager shim in front of it can take a second per start.
# It is looked up once, in this shell: an assignment inside $(...) would be lost.
PYTHON=""
find_python() {
  [[ -n "$PYTHON" ]] || PYTHON=$(python3 -c 'import sys; print(sys.executable)')
}
python() {
  find_python
  "$PYTHON" -I "$@"
}

# flatten_json: the JSON the last command printed as "path<TAB>value" lines in $FLAT_JSON, where a path joins keys
# and list indices with '.'. Done once per command, in this shell (not in a $(...) subshell, where it would be lost).
FLAT_JSON=""
flatten_json() {
  find_python
  FLAT_JSON=$(python -c '
import json, sys
def walk(path, value):
    if isinstance(value, (dict, list)):
        print(path + "\t" + json.dumps(value))
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            walk(f"{path}.{key}" if path else str(key), item)
    elif isinstance(value, bool) or value is None:
        print(path + "\t" + json.dumps(value))
    else:
        print(f"{path}\t{value}")
walk("", json.loads(sys.stdin.read()))
' <<<"$OUTPUT") || fail "the output is not JSON: $OUTPUT"
}

# json_value PATH: the value at PATH in the JSON the last command printed.
json_value() {
  awk -F '\t' -v path="$1" '$1 == path { sub(/^[^\t]*\t/, ""); print; found = 1; exit } END { exit !found }' \
    <<<"$FLAT_JSON" || fail "no JSON value at '$1' in: $OUTPUT"
}

# expect_near NAME ACTUAL EXPECTED TOLERANCE: |ACTUAL − EXPECTED| ≤ TOLERANCE.
expect_near() {
  local name=$1 actual=$2 expected=$3 tolerance=$4
  if ! awk -v a="$actual" -v e="$expected" -v t="$tolerance" \
    'BEGIN { if (a !~ /^[-+0-9.eE]+$/) exit 1; d = a - e; if (d < 0) d = -d; exit !(d <= t) }'; then
    fail "$name = $actual, expected $expected ± $tolerance"
  fi
}

# expect_equal NAME ACTUAL EXPECTED (as strings).
expect_equal() {
  if [[ "$2" != "$3" ]]; then fail "$1 = '$2', expected '$3'"; fi
}

# png_summary FILE: "WIDTH HEIGHT" of a PNG, then one "KEYWORD: TEXT" line per tEXt chunk (fails on a non-PNG).
png_summary() {
  python -c '
import struct, sys
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
print(*struct.unpack(">II", data[16:24]))
at = 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind == b"tEXt":
        keyword, text = data[at + 8:at + 8 + length].split(b"\0", 1)
        print(keyword.decode("latin-1") + ": " + text.decode("latin-1"))
    at += 12 + length
' "$1"
}

# Closed forms used below.
readonly LN2=0.69314718055994531
ln() { awk -v x="$1" 'BEGIN { printf "%.12f", log(x) }'; }
times() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.12f", a * b }'; }

# A zero model (W = 0, b = 0, c = 0) with m visible and n hidden units: p(v, h) uniform over 2^(m+n) states, so
# log Z = (m + n) ln 2 and every v has log p(v) = −m ln 2.
make_zero_model() {
  local file=$1 visible=$2 hidden=$3
  succeeds model random --visible "$visible" --hidden "$hidden" --weight-range 0 --seed 1 --out "$file"
}

# set_first_parameter MODEL MEMBER VALUE: rewrites the archive with the first value of MEMBER (W.npy, b.npy, c.npy)
# replaced by VALUE (a Python float literal). The payload is edited with struct and the archive rebuilt with
# zipfile, so that its CRCs stay valid and only that value is new.
set_first_parameter() {
  python - "$@" <<'PY'
import struct, sys, zipfile
path, member, value = sys.argv[1], sys.argv[2], float(sys.argv[3])
with zipfile.ZipFile(path) as archive:
    members = [(info, archive.read(info.filename)) for info in archive.infolist()]
with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
    for info, payload in members:
        if info.filename == member:
            header_length = struct.unpack("<H", payload[8:10])[0]
            start = 10 + header_length
            payload = payload[:start] + struct.pack("<d", value) + payload[start + 8:]
        archive.writestr(info.filename, payload)
PY
}

# set_weights_nan MODEL: the first weight becomes a NaN.
set_weights_nan() { set_first_parameter "$1" W.npy nan; }

# relabel IN OUT ROW LABEL | IN OUT from=to: copies the |u1 labels IN to OUT with the label of row ROW set to
# LABEL, or with every label `from` made `to`.
relabel() {
  python - "$@" <<'PY'
import struct, sys
source, target, change = sys.argv[1], sys.argv[2], sys.argv[3:]
data = bytearray(open(source, "rb").read())
start = 10 + struct.unpack("<H", data[8:10])[0]
if "=" in change[0]:
    old, new = map(int, change[0].split("="))
    for k in range(start, len(data)):
        if data[k] == old:
            data[k] = new
else:
    data[start + int(change[0])] = int(change[1])
open(target, "wb").write(bytes(data))
PY
}

# ---------------------------------------------------------------------------------------------------------------
# Cases.

case_version() {
  succeeds --version
  if ! grep -qE '^rbmix [0-9]+\.[0-9]+\.[0-9]+' <<<"$OUTPUT"; then fail "--version printed '$OUTPUT'"; fi
}

# The subcommand names listed in the Subcommands section of a help text.
subcommands_in_help() {
  awk '/^[A-Za-z]+:/ { listing = (tolower($0) ~ /^subcommands:/); next } listing && /^  [a-z]/ { print $1 }'
}

# Every command path reachable from `rbmix --help`, found by walking the Subcommands sections: new commands are
# covered without editing this file.
case_help() {
  succeeds --help
  grep -qi '^subcommands:' <<<"$OUTPUT" || fail "rbmix --help lists no subcommands: $OUTPUT"
  local -a pending=("") visited=()
  while ((${#pending[@]} > 0)); do
    local path=${pending[0]}
    pending=("${pending[@]:1}")
    visited+=("$path")
    # shellcheck disable=SC2086  # the path is words
    succeeds $path --help
    if [[ -n "$path" ]] && ! grep -qF -- "${path##* }" <<<"$OUTPUT"; then fail "help of '$path' does not name it"; fi
    local child
    while read -r child; do
      [[ -n "$child" ]] && pending+=("${path:+$path }$child")
    done < <(subcommands_in_help <<<"$OUTPUT")
  done
  # The walk must have found the commands the program is known to have.
  local expected
  for expected in "data" "data make" "data make bas" "data make shifting-bar" "data make modes" "data info" \
    "model" "model random" "model info" "loglik" "experiment"; do
    if ! printf '%s\n' "${visited[@]}" | grep -qxF -- "$expected"; then fail "help walk missed '$expected'"; fi
  done
  echo "help checked for ${#visited[@]} commands"
}

case_data_bas() {
  succeeds data make bas --size 3 --out bas.npy
  expect_output_contains "bas.npy (16 × 9)"
  succeeds data info bas.npy --json
  expect_equal samples "$(json_value samples)" 16
  expect_equal features "$(json_value features)" 9
  expect_equal distinct_rows "$(json_value distinct_rows)" 14
  # 12 rows with probability 1/16 and the all-0, all-1 rows with 2/16: −(12/16 ln 16 + 2/8 ln 8) = −2.5993.
  expect_near best_average_log_likelihood "$(json_value best_average_log_likelihood)" -2.599301927 1e-8
  succeeds data info bas.npy
  expect_output_contains "16 × 9"
  expect_output_contains "-2.5993"
  succeeds data make bas --size 3 --unique --out unique.npy
  expect_output_contains "(14 × 9)"
  succeeds data info unique.npy --json
  expect_near "best ATLL, unique" "$(json_value best_average_log_likelihood)" "-$(ln 14)" 1e-8
}

case_data_shifting_bar() {
  succeeds data make shifting-bar --length 9 --bar 1 --out bar.npy
  succeeds data info bar.npy --json
  expect_equal samples "$(json_value samples)" 9
  expect_equal features "$(json_value features)" 9
  expect_near ones_fraction "$(json_value ones_fraction)" "$(awk 'BEGIN { printf "%.12f", 1 / 9 }')" 1e-12
  expect_near best_average_log_likelihood "$(json_value best_average_log_likelihood)" -2.197224577 1e-8
}

case_data_modes() {
  succeeds data make modes --p-mut 0 --size 40 --seed 3 --out modes.npy --labels labels.npy
  succeeds data info modes.npy --json
  expect_equal samples "$(json_value samples)" 40
  expect_equal features "$(json_value features)" 16
  # Without mutations every sample is one of the four basic modes.
  local distinct
  distinct=$(json_value distinct_rows)
  if ((distinct < 1 || distinct > 4)); then fail "p_mut 0 gave $distinct distinct rows, expected at most 4"; fi
  # Same seed, same bytes.
  succeeds data make modes --p-mut 0.1 --size 40 --seed 3 --out a.npy
  succeeds data make modes --p-mut 0.1 --size 40 --seed 3 --out b.npy
  cmp -s a.npy b.npy || fail "data make modes is not reproducible for a fixed seed"
}

# make_mnist_directory DIR: MNIST-style IDX files of 4×4 images, 6 for training (plain) and 2 for testing (gzip);
# image k has its first k pixels at 255 and the others at 0, its label is k.
make_mnist_directory() {
  python - "$1" <<'PY'
import gzip, os, struct, sys
directory = sys.argv[1]
os.makedirs(directory, exist_ok=True)
def write(name, count, compress):
    images = b"".join(bytes([255] * k + [0] * (16 - k)) for k in range(count))
    opener = gzip.open if compress else open
    suffix = ".gz" if compress else ""
    with opener(os.path.join(directory, name + "-images-idx3-ubyte" + suffix), "wb") as out:
        out.write(struct.pack(">IIII", 0x803, count, 4, 4) + images)
    with opener(os.path.join(directory, name + "-labels-idx1-ubyte" + suffix), "wb") as out:
        out.write(struct.pack(">II", 0x801, count) + bytes(range(count)))
write("train", 6, False)
write("t10k", 2, True)
PY
}

case_data_mnist() {
  make_mnist_directory mnist
  succeeds data convert-mnist --dir mnist --out-dir converted --binarize threshold --validation 2
  local part rows
  for part in train:4 validation:2 test:2; do
    succeeds data info "converted/${part%%:*}.npy" --json
    expect_equal "${part%%:*} rows" "$(json_value samples)" "${part##*:}"
    expect_equal "${part%%:*} columns" "$(json_value features)" 16
  done
  # Test images 0 and 1 (threshold 1/2): 0 + 1 ones of 32 pixels.
  expect_near "test ones fraction" "$(json_value ones_fraction)" "$(awk 'BEGIN { printf "%.12f", 1 / 32 }')" 1e-12
  succeeds data info converted/train.npy --json
  # Training images 0..3: 0 + 1 + 2 + 3 = 6 ones of 64 pixels, four distinct rows.
  expect_near "train ones fraction" "$(json_value ones_fraction)" "$(awk 'BEGIN { printf "%.12f", 6 / 64 }')" 1e-12
  expect_near "train best ATLL" "$(json_value best_average_log_likelihood)" "-$(ln 4)" 1e-9
  [[ -s converted/conversion.json ]] || fail "convert-mnist wrote no conversion.json"
  succeeds data mnist-patches --dir mnist --out-dir patches --size 2 --count 10 --seed 4
  expect_output_contains "patches/train.npy (6 × 4)"
  expect_output_contains "patches/test.npy (2 × 4)"
  rejects_clearly "--validation" data convert-mnist --dir mnist --out-dir bad1 --validation 7
  rejects_clearly "--validation" data convert-mnist --dir mnist --out-dir bad2 --validation -1
  rejects_clearly "size 5" data mnist-patches --dir mnist --out-dir bad3 --size 5 --count 3
  rejects_clearly "--size" data mnist-patches --dir mnist --out-dir bad4 --size 0 --count 3
  rejects_clearly "absent" data convert-mnist --dir absent --out-dir bad5
  head -c 30 mnist/train-images-idx3-ubyte >short && mv short mnist/train-images-idx3-ubyte
  rejects_clearly "train-images-idx3-ubyte" data convert-mnist --dir mnist --out-dir bad6
}

case_model_info() {
  succeeds model random --visible 5 --hidden 3 --weight-range 0.5 --bias-range 0.25 --seed 7 --out m.npz
  expect_output_contains "5 visible, 3 hidden"
  succeeds model info m.npz --json
  expect_equal n_visible "$(json_value n_visible)" 5
  expect_equal n_hidden "$(json_value n_hidden)" 3
  expect_equal seed "$(json_value provenance.seed)" 7
  local bound
  for bound in weights.max visible_bias.max hidden_bias.max; do
    local limit=0.5
    [[ $bound == weights.max ]] || limit=0.25
    awk -v v="$(json_value "$bound")" -v l="$limit" 'BEGIN { exit !(v <= l && v > -l) }' ||
      fail "$bound = $(json_value "$bound") outside its range ±$limit"
  done
  succeeds model random --visible 5 --hidden 3 --weight-range 0.5 --bias-range 0.25 --seed 7 --out again.npz
  succeeds model info again.npz --json
  cmp -s m.npz again.npz || fail "model random is not reproducible for a fixed seed"
}

# Parameters near the largest double: the mean of |W| is a number, not JSON null from an overflowed sum.
case_model_info_extreme() {
  succeeds model random --visible 9 --hidden 4 --weight-range 1e308 --bias-range 1e308 --seed 1 --out e308.npz
  succeeds model info e308.npz --json
  local name
  for name in weights visible_bias hidden_bias; do
    awk -v v="$(json_value "$name.mean_abs")" 'BEGIN { exit !(v ~ /^[0-9.eE+]+$/ && v > 1e300) }' ||
      fail "$name.mean_abs = $(json_value "$name.mean_abs"), expected a number near 1e308"
  done
}

case_loglik_exact() {
  make_zero_model zero.npz 9 4
  succeeds data make bas --size 3 --out bas.npy
  local layer
  for layer in auto visible hidden; do
    succeeds loglik --model zero.npz --data bas.npy --exact --layer "$layer" --json
    expect_equal method "$(json_value method)" exact
    expect_near "log Z ($layer)" "$(json_value log_partition)" "$(times 13 $LN2)" 1e-9
    expect_near "average LL ($layer)" "$(json_value average_log_likelihood)" "$(times -9 $LN2)" 1e-9
  done
  succeeds loglik --model zero.npz --data bas.npy --exact
  expect_output_contains "9.01091"
  expect_output_contains "-6.23832"
}

# Exact enumeration refuses a layer beyond 40 units naming the model, refuses more than 2^32 states without
# --force with an estimate of the time, and announces the estimate of a long job before it starts.
case_loglik_exact_work() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds model random --visible 9 --hidden 41 --weight-range 0 --seed 1 --out h41.npz
  rejects "h41.npz" loglik --model h41.npz --data bas.npy --exact --layer hidden
  expect_output_contains "at most 40"
  expect_equal "exit status" "$STATUS" 2
  succeeds model random --visible 9 --hidden 34 --weight-range 0 --seed 1 --out h34.npz
  rejects "h34.npz" loglik --model h34.npz --data bas.npy --exact --layer hidden
  expect_output_contains "estimated"
  expect_output_contains "--force"
  make_zero_model h25.npz 9 25
  succeeds loglik --model h25.npz --data bas.npy --exact --layer hidden
  expect_output_contains "h25.npz: exact enumeration of the hidden layer visits 2^25 states, estimated"
  expect_output_contains "average log-likelihood"
}

# Sizes beyond the memory: exit 2 with a message, as for any other impossible input.
case_bad_out_of_memory() {
  run model random --visible 1000000 --hidden 1000000 --weight-range 1 --seed 1 --out huge.npz
  check_no_crash "model random of 10^12 weights"
  expect_equal "exit status" "$STATUS" 2
  expect_output_contains "out of memory"
  [[ ! -e huge.npz ]] || fail "huge.npz was written"
}

case_loglik_ais() {
  make_zero_model zero.npz 9 4
  # The Shifting Bar's base rates (1/9) make the AIS base model differ from the uniform zero model, so the
  # annealing has work to do (with data of mean 1/2 the base would already be the target).
  succeeds data make shifting-bar --length 9 --bar 1 --out bar.npy
  succeeds loglik --model zero.npz --data bar.npy --ais --particles 50 --distributions 200 --seed 5 --json
  expect_equal method "$(json_value method)" ais
  local log_partition lower upper exact
  exact=$(times 13 $LN2)
  log_partition=$(json_value log_partition)
  lower=$(json_value log_partition_band.0)
  upper=$(json_value log_partition_band.1)
  # 1e-9: the closed form above has 12 decimals.
  if ! awk -v e="$exact" -v l="$lower" -v u="$upper" 'BEGIN { exit !(l - 1e-9 <= e && e <= u + 1e-9) }'; then
    fail "exact log Z $exact outside the AIS band [$lower, $upper]"
  fi
  if ! awk -v l="$lower" -v u="$upper" 'BEGIN { exit !(u > l) }'; then
    fail "AIS band [$lower, $upper] is empty: the base model was not different from the target"
  fi
  # 0.1: with 50 particles and 200 distributions AIS on this 9-unit model is far closer than that.
  expect_near "AIS log Z" "$log_partition" "$exact" 0.1
  expect_near "AIS average LL" "$(json_value average_log_likelihood)" "$(times -9 $LN2)" 0.1
  # The same seed gives the same number.
  succeeds loglik --model zero.npz --data bar.npy --ais --particles 50 --distributions 200 --seed 5 --json
  expect_equal "AIS log Z, same seed" "$(json_value log_partition)" "$log_partition"
}

case_loglik_ais_flip() {
  # AIS with the flip-the-state operator on a random 8 + 4 model against its exact log Z. The unbiasedness test
  # with its stated false-failure rate is AisLogPartition.IsUnbiasedWithFewIntermediateDistributionsForEveryOperator;
  # here the CLI path: 0.05 is about 4 times the half-width of the ±3 standard-error band of 200 particles.
  succeeds model random --visible 8 --hidden 4 --weight-range 1 --seed 3 --out m.npz
  succeeds data make shifting-bar --length 8 --bar 1 --out bar.npy
  local exact
  succeeds loglik --model m.npz --data bar.npy --exact --json
  exact=$(json_value log_partition)
  succeeds loglik --model m.npz --data bar.npy --ais --operator flip --particles 200 --distributions 500 --seed 2 --json
  expect_equal operator "$(json_value operator)" flip
  expect_near "AIS (flip) log Z" "$(json_value log_partition)" "$exact" 0.05
  rejects "bogus" loglik --model m.npz --data bar.npy --ais --operator bogus --particles 4 --distributions 3
}

case_analyze_zero() {
  make_zero_model zero.npz 2 2
  succeeds analyze --model zero.npz --operators gibbs,naive,flip --json
  expect_equal "gibbs operator" "$(json_value operators.0.operator)" gibbs
  expect_equal "gibbs irreducible" "$(json_value operators.0.irreducible)" true
  expect_equal "gibbs period" "$(json_value operators.0.period)" 1
  # With W = 0, b = c = 0 one Gibbs sweep draws an independent uniform state: every other eigenvalue is 0.
  expect_near "gibbs SLEM" "$(json_value operators.0.slem)" 0 1e-9
  # The naive flip always flips a unit whose conditional probability is 1/2 (003 §3): every sweep flips all
  # units, so the chain alternates between x and its complement: not ergodic (period 2, SLEM 1).
  local naive_irreducible naive_period
  naive_irreducible=$(json_value operators.1.irreducible)
  naive_period=$(json_value operators.1.period)
  if [[ "$naive_irreducible" == true && "$naive_period" == 1 ]]; then
    fail "naive flip on the zero model reported ergodic (irreducible, period 1)"
  fi
  expect_equal "naive period" "$naive_period" 2
  expect_near "naive SLEM" "$(json_value operators.1.slem)" 1 1e-9
  expect_near "stationarity residual (gibbs)" "$(json_value operators.0.stationarity_residual_l1)" 0 1e-12
  succeeds analyze --model zero.npz --operators gibbs,naive
  expect_output_contains "period 2"
}

case_mixing_zero() {
  make_zero_model zero.npz 4 3
  succeeds mixing --model zero.npz --operator flip --steps 2000 --burn-in 10 --seed 3 --out run --json
  expect_equal "operator" "$(json_value configuration.operator)" flip
  [[ -s run/run.json ]] || fail "mixing --out did not write run/run.json"
  python -c 'import json,sys; r = json.load(open("run/run.json")); sys.exit(r["seed"] != 3)' ||
    fail "run/run.json does not record seed 3"
}

case_bad_missing_file() {
  make_zero_model zero.npz 9 4
  succeeds data make bas --size 3 --out bas.npy
  rejects "absent.npy" data info absent.npy
  rejects "absent.npz" model info absent.npz
  rejects "absent.npz" loglik --model absent.npz --data bas.npy --exact
  rejects "absent.npy" loglik --model zero.npz --data absent.npy --exact
  rejects "absent.npz" analyze --model absent.npz
  rejects "absent.npz" mixing --model absent.npz --steps 10
  rejects "absent.npy" train --data absent.npy --hidden 2 --updates 1 --out train-out
  mkdir a-directory
  rejects "a-directory" data info a-directory
  rejects "a-directory" model info a-directory
}

case_bad_truncated_npy() {
  succeeds data make bas --size 3 --out bas.npy
  head -c 100 bas.npy >truncated.npy
  rejects "truncated.npy" data info truncated.npy
  head -c 5 bas.npy >stub.npy
  rejects "stub.npy" data info stub.npy
  : >empty.npy
  rejects "empty.npy" data info empty.npy
  make_zero_model zero.npz 9 4
  rejects "truncated.npy" loglik --model zero.npz --data truncated.npy --exact
  # A float data set with a value that is not 0 or 1.
  python - <<'PY'
import struct
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"
header += " " * (63 - len(header) % 64) + "\n"
payload = struct.pack("<4d", 0.0, 1.0, 0.5, 1.0)
open("half.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload)
PY
  rejects "half.npy" data info half.npy
  # A data set with no rows.
  python - <<'PY'
import struct
header = "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 9), }"
header += " " * (63 - len(header) % 64) + "\n"
open("no-rows.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
PY
  rejects "no-rows.npy" loglik --model zero.npz --data no-rows.npy --exact
  run data info no-rows.npy
  check_no_crash "data info no-rows.npy"
}

case_bad_model_file() {
  succeeds data make bas --size 3 --out bas.npy
  echo "this is not a model" >text.npz
  rejects "text.npz" model info text.npz
  rejects "text.npz" loglik --model text.npz --data bas.npy --exact
  rejects "text.npz" analyze --model text.npz
  rejects "text.npz" mixing --model text.npz --steps 10
  # A data file passed as a model, and a model passed as data.
  rejects "bas.npy" model info bas.npy
  make_zero_model zero.npz 9 4
  rejects "zero.npz" data info zero.npz
  # A model whose bytes are damaged in place: the archive's CRC no longer matches.
  cp zero.npz damaged.npz
  python - <<'PY'
data = bytearray(open("damaged.npz", "rb").read())
position = data.find(b"NUMPY") + 200
data[position:position + 8] = b"\xff" * 8
open("damaged.npz", "wb").write(bytes(data))
PY
  rejects "damaged.npz" model info damaged.npz
  head -c 300 zero.npz >cut.npz
  rejects "cut.npz" model info cut.npz
}

case_bad_nan_model() {
  succeeds data make bas --size 3 --out bas.npy
  make_zero_model nan.npz 9 4
  set_weights_nan nan.npz
  rejects "nan.npz" model info nan.npz
  expect_output_contains "NaN"
  rejects "nan.npz" loglik --model nan.npz --data bas.npy --exact
  rejects "nan.npz" loglik --model nan.npz --data bas.npy --ais --particles 4 --distributions 10
  rejects "nan.npz" analyze --model nan.npz
  rejects "nan.npz" mixing --model nan.npz --steps 10
}

# Weights near the largest double are valid parameters, but log Z overflows: an error, not "log Z: null".
case_bad_overflow() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds model random --visible 9 --hidden 4 --weight-range 1e308 --seed 1 --out huge.npz
  rejects "huge.npz" loglik --model huge.npz --data bas.npy --exact --json
  rejects "huge.npz" loglik --model huge.npz --data bas.npy --ais --particles 4 --distributions 3 --json
}

case_bad_width() {
  make_zero_model zero.npz 9 4
  succeeds data make shifting-bar --length 8 --bar 2 --out eight.npy
  rejects "eight.npy" loglik --model zero.npz --data eight.npy --exact
  expect_output_contains "zero.npz"
  rejects "eight.npy" loglik --model zero.npz --data eight.npy --ais --particles 4 --distributions 10
}

case_bad_sizes() {
  rejects_clearly "--size" data make bas --size 0 --out x.npy
  rejects_clearly "--size" data make bas --size -3 --out x.npy
  rejects_clearly "--size" data make bas --size 11 --out x.npy
  rejects_clearly "--length" data make shifting-bar --length 0 --bar 1 --out x.npy
  rejects_clearly "--bar" data make shifting-bar --length 9 --bar 0 --out x.npy
  rejects_clearly "bar" data make shifting-bar --length 3 --bar 5 --out x.npy
  rejects_clearly "--size" data make modes --p-mut 0.1 --size 0 --seed 1 --out x.npy
  rejects_clearly "--p-mut" data make modes --p-mut 1.5 --size 10 --seed 1 --out x.npy
  rejects_clearly "--hidden" model random --visible 9 --hidden 0 --weight-range 0 --seed 1 --out x.npz
  rejects_clearly "--visible" model random --visible 0 --hidden 4 --weight-range 0 --seed 1 --out x.npz
  rejects_clearly "--weight-range" model random --visible 9 --hidden 4 --weight-range -1 --seed 1 --out x.npz
  rejects_clearly "--weight-range" model random --visible 9 --hidden 4 --weight-range inf --seed 1 --out x.npz
  rejects_clearly "--weight-range" model random --visible 9 --hidden 4 --weight-range nan --seed 1 --out x.npz
  rejects_clearly "--bias-range" model random --visible 9 --hidden 4 --weight-range 0 --bias-range nan --seed 1 \
    --out x.npz
  # Sizes that need more memory than any machine has: a message, not an uncaught std::bad_alloc. (AddressSanitizer
  # builds abort on such a request unless told to return null, as the plain allocator does.)
  ASAN_OPTIONS=allocator_may_return_null=1 rejects "out of memory" model random --visible 100000000 --hidden 100000000 --weight-range 0 --seed 1 --out x.npz
  rejects_clearly "--hidden" model random --visible 9 --hidden abc --weight-range 0 --seed 1 --out x.npz
  [[ ! -e x.npy && ! -e x.npz ]] || fail "a rejected command left an output file"
  make_zero_model zero.npz 9 4
  succeeds data make bas --size 3 --out bas.npy
  rejects_clearly "--particles" loglik --model zero.npz --data bas.npy --ais --particles 0 --distributions 10
  rejects_clearly "--particles" loglik --model zero.npz --data bas.npy --ais --particles 1 --distributions 10
  rejects_clearly "--distributions" loglik --model zero.npz --data bas.npy --ais --particles 4 --distributions 0
  rejects_clearly "--particles" loglik --model zero.npz --data bas.npy --ais --particles -5 --distributions 10
  rejects_clearly "--schedule" loglik --model zero.npz --data bas.npy --ais --schedule foo
  rejects_clearly "--layer" loglik --model zero.npz --data bas.npy --exact --layer foo
  rejects "--exact" loglik --model zero.npz --data bas.npy --exact --ais
  rejects "--exact" loglik --model zero.npz --data bas.npy
  rejects "--hidden" train --data bas.npy --hidden 0 --updates 1 --out t
  rejects "--steps" mixing --model zero.npz --steps 0
  rejects "--chains" mixing --model zero.npz --steps 10 --chains 0
  rejects "--burn-in" mixing --model zero.npz --steps 10 --burn-in -1
}

case_bad_operator() {
  make_zero_model zero.npz 3 2
  succeeds data make bas --size 2 --out bas.npy
  rejects "foo" mixing --model zero.npz --operator foo --steps 10
  rejects "foo" train --data bas.npy --hidden 2 --operator foo --updates 1 --out t1
  rejects "foo" analyze --model zero.npz --operators foo
  rejects "--operators" analyze --model zero.npz --operators ""
  rejects "foo" train --data bas.npy --hidden 2 --algo foo --updates 1 --out t2
}

case_bad_mixture_weight() {
  make_zero_model zero.npz 3 2
  succeeds data make bas --size 2 --out bas.npy
  local weight
  for weight in mix:1.5 mix:-0.1 mix:abc mix: mix:nan mix:0.5x; do
    rejects "$weight" mixing --model zero.npz --operator "$weight" --steps 10
    rejects "$weight" analyze --model zero.npz --operators "$weight"
    rejects "$weight" train --data bas.npy --hidden 2 --operator "$weight" --updates 1 --out "t-$weight"
  done
  succeeds mixing --model zero.npz --operator mix:0.5 --steps 20 --burn-in 0
}

case_bad_output_path() {
  echo "a plain file" >occupied
  make_zero_model zero.npz 3 2
  succeeds data make bas --size 2 --out bas.npy
  rejects "occupied" train --data bas.npy --hidden 2 --updates 1 --out occupied
  rejects "occupied" mixing --model zero.npz --steps 10 --burn-in 0 --out occupied
  rejects "occupied" data convert-mnist --dir . --out-dir occupied
  rejects "occupied" data mnist-patches --dir . --out-dir occupied --count 1
  rejects "occupied" experiment slem-sweep --scale smoke --out occupied
  # A file inside a path whose parent is a plain file, or a directory that does not exist.
  rejects "occupied/x.npy" data make bas --size 2 --out occupied/x.npy
  rejects "no-such-directory/x.npz" model random --visible 3 --hidden 2 --weight-range 0 --seed 1 \
    --out no-such-directory/x.npz
  mkdir a-directory
  rejects "a-directory" data make bas --size 2 --out a-directory
  expect_equal "occupied untouched" "$(cat occupied)" "a plain file"
}

case_bad_command_line() {
  rejects "frobnicate" frobnicate
  rejects "frobnicate" data frobnicate
  rejects "frobnicate" experiment frobnicate
  rejects "--no-such-flag" data make bas --size 3 --out x.npy --no-such-flag
  rejects "--out" data make bas --size 3
  run
  check_no_crash "rbmix (no arguments)"
  ((STATUS != 0)) || fail "rbmix with no arguments exited 0"
  run data
  check_no_crash "rbmix data"
  ((STATUS != 0)) || fail "rbmix data with no subcommand exited 0"
}

# Outputs that are not regular files (docs: README "Conventions"): a device or a FIFO is written through and stays
# what it was, a full device is an error naming it (exit 2), a symbolic link stays a link and its target gets the
# file. The devices are private copies made with mknod where the test may (root), so that a writer that replaced
# its output could only damage the copy; elsewhere the system's, which an unprivileged writer cannot replace.
memory_device() {
  local name=$1 minor=$2
  if mknod "$name" c 1 "$minor" 2>/dev/null; then echo "$PWD/$name"; else echo "/dev/$name"; fi
}

case_output_special_files() {
  local null full
  null=$(memory_device null 3)
  full=$(memory_device full 7)
  succeeds data make bas --size 2 --out direct.npy
  succeeds data make bas --size 2 --out "$null"
  [[ -c "$null" ]] || fail "$null is no longer a character device"
  rejects "$full" data make bas --size 2 --out "$full"
  expect_output_contains "No space left on device"
  expect_equal "exit status for a full device" "$STATUS" 2
  [[ -c "$full" ]] || fail "$full is no longer a character device"
  rejects "$full" model random --visible 3 --hidden 2 --weight-range 1 --seed 1 --out "$full"
  [[ -c "$full" ]] || fail "$full is no longer a character device"
  mkfifo pipe
  cat pipe >from-pipe.npy &
  local reader=$!
  succeeds data make bas --size 2 --out pipe
  wait "$reader"
  cmp -s direct.npy from-pipe.npy || fail "the FIFO's reader did not receive the data file"
  [[ -p pipe ]] || fail "the FIFO was replaced"
  mkdir results
  command ln -s results/bas.npy latest.npy  # ln is the logarithm in this script
  succeeds data make bas --size 2 --out latest.npy
  [[ -L latest.npy ]] || fail "the symbolic link latest.npy was replaced"
  cmp -s direct.npy results/bas.npy || fail "the link's target results/bas.npy was not written"
  ls ./*.partial* results/*.partial* >/dev/null 2>&1 && fail "a temporary file was left behind"
}

# same_parameters A B: the W, b and c members of two model files are byte for byte the same.
same_parameters() {
  python - "$1" "$2" <<'PY'
import sys, zipfile
a, b = (zipfile.ZipFile(path) for path in sys.argv[1:3])
sys.exit(any(a.read(name) != b.read(name) for name in ("W.npy", "b.npy", "c.npy")))
PY
}

# SIGTERM (a batch scheduler's time limit) stops training like Ctrl-C: exit 128 + 15, the model and a checkpoint
# written, and the resumed run ends bit-identical to one never interrupted.
case_train_sigterm() {
  succeeds data make bas --size 3 --out bas.npy
  local options=(--data bas.npy --hidden 6 --algo pcd --operator flip --k 1 --lr 0.05 --updates 300000
    --eval-every 100000 --checkpoint-every 5000 --seed 4)
  "$RBMIX" train "${options[@]}" --out stopped >stopped.log 2>&1 &
  local trainer=$! waited=0
  while [[ ! -e stopped/checkpoint.ckpt ]] && ((waited < 300)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -TERM "$trainer"
  wait "$trainer"
  local status=$?
  expect_equal "exit status after SIGTERM" "$status" 143
  grep -qF "training interrupted" stopped.log || fail "no interruption message: $(cat stopped.log)"
  [[ -s stopped/model.npz && -s stopped/run.json ]] || fail "SIGTERM left no model or run.json"
  succeeds train "${options[@]}" --out stopped --resume
  succeeds train "${options[@]}" --out whole
  same_parameters stopped/model.npz whole/model.npz || fail "the resumed run differs from the uninterrupted one"
}

# SIGKILL at arbitrary moments (a checkpoint every 40 updates, each synced to disk, so kills land during writes
# too) never leaves an unreadable checkpoint: each restart resumes, and the run that finally completes ends bit-identical to one never
# interrupted. The delays are fixed, so the case is repeatable up to the machine's timing.
case_train_sigkill() {
  succeeds data make bas --size 3 --out bas.npy
  local options=(--data bas.npy --hidden 6 --algo fpcd --fast-lr 0.05 --operator flip --k 1 --lr 0.05 --updates 8000
    --batch 4 --eval-every 4000 --checkpoint-every 40 --seed 9)
  local delay resume=()
  for delay in 0.3 0.15 0.45 0.05; do
    "$RBMIX" train "${options[@]}" --out killed "${resume[@]}" >killed.log 2>&1 &
    local trainer=$!
    sleep "$delay"
    kill -KILL "$trainer" 2>/dev/null
    wait "$trainer" 2>/dev/null
    if [[ -e killed/checkpoint.ckpt ]]; then resume=(--resume); fi
  done
  [[ ${#resume[@]} -eq 1 ]] || fail "no checkpoint was ever written before the kills"
  succeeds train "${options[@]}" --out killed "${resume[@]}"
  succeeds train "${options[@]}" --out whole
  same_parameters killed/model.npz whole/model.npz || fail "the run resumed after SIGKILLs differs"
}

# Every random draw comes from a stream owned by its chain, particle or row, so 1 and 2 threads give the same
# numbers: the trained model and its energy traces byte for byte, AIS's log Z to the last digit.
case_threads_identical() {
  succeeds data make bas --size 3 --out bas.npy
  local threads
  for threads in 1 2; do
    OMP_NUM_THREADS=$threads succeeds train --data bas.npy --hidden 5 --algo pt --operator mix:0.5 --k 1 --batch 7 \
      --updates 300 --eval-every 100 --seed 2 --out "train-$threads"
    OMP_NUM_THREADS=$threads succeeds loglik --model "train-$threads/model.npz" --data bas.npy --ais \
      --particles 64 --distributions 200 --seed 5 --json
    printf '%s' "$(json_value log_partition)" >"log-z-$threads"
    OMP_NUM_THREADS=$threads succeeds mixing --model "train-$threads/model.npz" --operator flip --steps 500 \
      --chains 8 --burn-in 10 --seed 6 --trace-out "trace-$threads.npy"
  done
  same_parameters train-1/model.npz train-2/model.npz || fail "1 and 2 threads trained different models"
  cmp -s log-z-1 log-z-2 || fail "AIS log Z differs: $(cat log-z-1) with 1 thread, $(cat log-z-2) with 2"
  cmp -s trace-1.npy trace-2.npy || fail "the energy traces differ between 1 and 2 threads"
}

# Beyond the dense limit Gibbs goes through the chain on its smaller layer (docs/algorithms/operators.md §2.5) and says
# so; flip-the-state does not factorise and stays matrix-free.
case_analyze_gibbs_through_a_layer() {
  succeeds model random --visible 6 --hidden 5 --weight-range 1 --seed 3 --out m65.npz
  succeeds analyze --model m65.npz --operators gibbs,flip --json
  expect_equal "gibbs SLEM method" "$(json_value operators.0.slem_method)" "through the hidden chain"
  expect_equal "flip SLEM method" "$(json_value operators.1.slem_method)" matrix-free
  expect_equal "gibbs irreducible" "$(json_value operators.0.irreducible)" true
  json_value operators.0.energy_autocorrelation_time >/dev/null
  succeeds analyze --model m65.npz --operators gibbs
  expect_output_contains "(through the hidden chain)"
}

# Weights near the largest double make E(v, h) infinite: analyze and mixing name the model file, not the routine
# (a Schur decomposition, an autocovariance) that the non-finite numbers would otherwise reach.
case_bad_infinite_energies() {
  succeeds model random --visible 9 --hidden 4 --weight-range 1e308 --seed 1 --out e308.npz
  rejects "e308.npz" analyze --model e308.npz
  expect_output_contains "not all finite"
  rejects "e308.npz" mixing --model e308.npz --steps 10 --burn-in 0
  expect_output_contains "not all finite"
}

# Weights of ±2000 make a chain that is ergodic on paper singular in double precision: analyze reports the
# operator's τ as unavailable and why, and still reports the rest.
case_analyze_numerically_non_ergodic() {
  succeeds model random --visible 3 --hidden 2 --weight-range 2000 --seed 1 --out w2000.npz
  succeeds analyze --model w2000.npz --operators gibbs,flip --json
  expect_output_contains "numerically non-ergodic"
  json_value operators.0.slem >/dev/null
  json_value operators.1.irreducible >/dev/null
}

# Every output location is checked before any work, so a bad one leaves nothing half written.
case_bad_output_before_work() {
  echo "a plain file" >occupied
  make_zero_model zero.npz 3 2
  rejects "occupied" mixing --model zero.npz --steps 10 --burn-in 0 --out occupied --trace-out t.npy
  [[ ! -e t.npy ]] || fail "mixing wrote t.npy although --out occupied was rejected"
  rejects "no-such-directory/t.npy" mixing --model zero.npz --steps 10 --burn-in 0 --out results \
    --trace-out no-such-directory/t.npy
  [[ ! -e results ]] || fail "mixing made results/ although --trace-out was rejected"
  expect_equal "occupied untouched" "$(cat occupied)" "a plain file"
}

# Counts below 1 are errors, not a silent fall-back to the scale's default.
case_bad_experiment_counts() {
  local option
  for option in --trials --updates --steps; do
    rejects_clearly "$option" experiment autocorr --scale smoke --out a "$option" 0
    rejects_clearly "$option" experiment autocorr --scale smoke --out a "$option" -3
  done
  for option in --trials --updates --steps --starts --cap; do
    rejects_clearly "$option" experiment class-changes --scale smoke --out c "$option" 0
    rejects_clearly "$option" experiment class-changes --scale smoke --out c "$option" -1
  done
  rejects_clearly "--count" experiment slem-sweep --scale smoke --out s --count 0
  rejects_clearly "--count" experiment slem-sweep --scale smoke --out s --count -2
  [[ ! -e a && ! -e c && ! -e s ]] || fail "a rejected experiment made its output directory"
}

# An empty range A:B with A > B says so.
case_bad_slem_range() {
  rejects "--c '5:1'" experiment slem-sweep --scale smoke --out s --c 5:1
  expect_output_contains "A <= B"
  rejects "--sizes '4:2'" experiment slem-sweep --scale smoke --out s --sizes 4:2
  expect_output_contains "A <= B"
}

# A fully visible MRF on Bars & Stripes 3×3: every unit has mean ½, so training starts at b = 0, J = 0, whose
# log-likelihood is −9 ln 2; no model beats the data's own entropy (best average log-likelihood −2.5993).
case_mrf_train() {
  succeeds data make bas --size 3 --out bas.npy
  local algorithm
  for algorithm in exact pcd pl; do
    succeeds mrf train --data bas.npy --algo "$algorithm" --lr 0.5 --updates 200 --eval-every 50 --out "$algorithm" \
      --json
    local best
    best=$(json_value best_validation_score)
    expect_near "$algorithm: train LL is the validation score" "$(json_value train.log_likelihood)" "$best" 1e-12
    awk -v b="$best" 'BEGIN { exit !(b > -6.2383246 && b <= -2.5993019) }' ||
      fail "$algorithm: best validation log-likelihood $best outside (−9 ln 2, −2.5993]"
    [[ -s "$algorithm/model.npz" ]] || fail "$algorithm: no model.npz"
    OUTPUT=$(cat "$algorithm/run.json")
    flatten_json
    expect_equal "$algorithm: command" "$(json_value command)" "mrf train"
    expect_equal "$algorithm: algorithm" "$(json_value configuration.algorithm)" "$algorithm"
    expect_near "$algorithm: starting log-likelihood" "$(json_value history.0.validation_score)" "$(times -9 $LN2)" \
      1e-12
  done
  succeeds mrf train --data bas.npy --algo pcd --operator flip --updates 50 --out flip
  expect_output_contains "best validation log-likelihood"
}

# mrf loglik recomputes from model.npz the exact log-likelihood and the pseudo-likelihood that training reported;
# a zero MRF on n units gives every row −n ln 2; each model loader refuses the other kind.
case_mrf_loglik() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds mrf train --data bas.npy --algo exact --lr 0.5 --updates 100 --eval-every 50 --out run --json
  local train_ll train_pl
  train_ll=$(json_value train.log_likelihood)
  train_pl=$(json_value train.pseudo_log_likelihood)
  succeeds mrf loglik --model run/model.npz --data bas.npy --out scored --json
  expect_equal measure "$(json_value measure)" log_likelihood
  expect_near "loglik = training's" "$(json_value average_log_likelihood)" "$train_ll" 1e-12
  succeeds mrf loglik --model run/model.npz --data bas.npy --measure pl --json
  expect_equal measure "$(json_value measure)" pseudo_log_likelihood
  expect_near "pl = training's" "$(json_value average_log_pseudo_likelihood)" "$train_pl" 1e-12
  succeeds mrf loglik --model run/model.npz --data bas.npy --measure pl
  expect_output_contains "average log pseudo-likelihood (not the log-likelihood"
  expect_files_listed scored
  OUTPUT=$(cat scored/run.json)
  flatten_json
  expect_equal "run.json command" "$(json_value command)" "mrf loglik"
  expect_equal "run.json measure" "$(json_value result.measure)" log_likelihood
  expect_equal "run.json model" "$(json_value configuration.model)" run/model.npz

  # The same rows as CSV, with a header: the same figure.
  find_python
  python -c '
import struct, sys
raw = open("bas.npy", "rb").read()
header_length = struct.unpack("<H", raw[8:10])[0]
data = raw[10 + header_length:]
with open("bas.csv", "w") as out:
    out.write(",".join("x%d" % k for k in range(9)) + "\n")
    for row in range(len(data) // 9):
        out.write(",".join(str(b) for b in data[row * 9:row * 9 + 9]) + "\n")
'
  succeeds mrf loglik --model run/model.npz --data bas.csv --json
  expect_near "CSV loglik" "$(json_value average_log_likelihood)" "$train_ll" 1e-12

  # By hand: J₁₂ = 1, b = 0 gives Z = 3 + e; on rows 11 and 00 the average log-likelihood is ½ − ln(3 + e) and
  # the pseudo-likelihood (h = 1 for both units of 11, h = 0 for 00) averages ln σ(1) + ln ½. The model is a
  # model.json of the layout mrf train wrote before model.npz, which still reads.
  printf '{"couplings": [[0, 1], [1, 0]], "biases": [0, 0]}\n' >hand.json
  printf '1,1\n0,0\n' >hand.csv
  succeeds mrf loglik --model hand.json --data hand.csv --json
  expect_near "hand log-likelihood" "$(json_value average_log_likelihood)" \
    "$(awk 'BEGIN { printf "%.15f", 0.5 - log(3 + exp(1)) }')" 1e-12
  succeeds mrf loglik --model hand.json --data hand.csv --measure pl --json
  expect_near "hand pseudo-likelihood" "$(json_value average_log_pseudo_likelihood)" \
    "$(awk 'BEGIN { printf "%.15f", -log(1 + exp(-1)) - log(2) }')" 1e-12

  make_zero_model zero.npz 9 2
  rejects "zero.npz: the model is a plain RBM, not a boltzmann-machine" mrf loglik --model zero.npz --data bas.npy
  rejects "is a boltzmann-machine, not a plain RBM; it is a fully visible MRF: use rbmix mrf loglik" \
    loglik --model run/model.npz --data bas.npy --exact
  write_random_rows four.npy 3 4 1
  rejects "--data four.npy has 4 columns but the model run/model.npz has 9 units" \
    mrf loglik --model run/model.npz --data four.npy
  rejects "--measure" mrf loglik --model run/model.npz --data bas.npy --measure ais
  # --measure pl on a model small enough to enumerate says that it was asked for.
  succeeds mrf loglik --model run/model.npz --data bas.npy --measure pl
  expect_output_contains "(not the log-likelihood: --measure pl)"

  # Parameters near the largest double: a figure beyond double's range is refused, never printed as null.
  printf '{"couplings": [[0, 0], [0, 0]], "biases": [1e308, 0]}\n' >huge-bias.json
  printf '{"couplings": [[0, -1e308], [-1e308, 0]], "biases": [0, 0]}\n' >huge-coupling.json
  printf '0,0\n0,0\n1,0\n' >off.csv
  printf '1,1\n1,1\n0,0\n' >on.csv
  rejects "huge-bias.json: the average log pseudo-likelihood of off.csv is not finite" \
    mrf loglik --model huge-bias.json --data off.csv --measure pl
  rejects "huge-coupling.json: the average log-likelihood of on.csv is not finite" \
    mrf loglik --model huge-coupling.json --data on.csv
  rejects "huge-coupling.json: the average log pseudo-likelihood of on.csv is not finite" \
    mrf loglik --model huge-coupling.json --data on.csv --measure pl --json
}

# data info reads CSV and labels: classes and counts per class; non-integer labels are refused with their index.
case_data_info_csv_and_labels() {
  printf 'a,b,c\n0,1,1\n1,1,0\n0,1,1\n' >rows.csv
  succeeds data info rows.csv --json
  expect_equal samples "$(json_value samples)" 3
  expect_equal features "$(json_value features)" 3
  expect_equal distinct_rows "$(json_value distinct_rows)" 2
  printf '0,1\n1\n' >ragged.csv
  rejects "ragged.csv: line 2, column 2: the row has 1 fields but line 1 has 2 (ragged rows)" data info ragged.csv
  printf 'label\n2\n0\n2\n3\n' >labels.csv
  succeeds data info labels.csv --labels --json
  expect_equal kind "$(json_value kind)" labels
  expect_equal classes "$(json_value classes)" 4
  expect_equal "class 2" "$(json_value class_counts.2)" 2
  expect_equal "class 1" "$(json_value class_counts.1)" 0
  expect_equal empty_classes "$(json_value empty_classes)" 1
  succeeds data info labels.csv --labels
  expect_output_contains "labels per class: 0:1 1:0 2:2 3:1"
  printf '1\n2.5\n' >half.csv
  rejects "half.csv: label 1 (counted from 0) is 2.5; a class label is an integer" data info half.csv --labels
}

# A classification RBM (000 §4.2) trained on labelled Artificial Modes classifies its test set almost perfectly;
# rbmix classify recomputes the error the trainer reported, and each loader refuses the other model kind.
case_classify() {
  succeeds data make modes --p-mut 0.05 --size 400 --seed 1 --out train.npy --labels train-labels.npy
  succeeds data make modes --p-mut 0.05 --size 400 --seed 2 --out test.npy --labels test-labels.npy
  succeeds train --data train.npy --labels train-labels.npy --test test.npy --test-labels test-labels.npy \
    --hidden 16 --algo pcd --operator flip --lr 0.05 --batch 20 --updates 1500 --eval-every 500 --seed 3 --out run
  expect_output_contains "final classification error"
  local reported
  reported=$(awk -F, 'END { print $4 }' run/learning_curve.csv)
  awk -v e="$reported" 'BEGIN { exit !(e < 0.05) }' || fail "test error $reported is not below 0.05"
  succeeds classify --model run/model.npz --data test.npy --labels test-labels.npy --out predicted.npy
  expect_near "classify recomputes the test error" \
    "$(sed -n 's/^classification error: \([^ ]*\) .*/\1/p' <<<"$OUTPUT")" "$reported" 1e-12
  [[ -s predicted.npy ]] || fail "no predicted.npy"
  rejects "not a plain RBM" loglik --model run/model.npz --data test.npy --exact
  succeeds model random --visible 16 --hidden 2 --weight-range 1 --seed 1 --out plain.npz
  rejects "not a classification-rbm" classify --model plain.npz --data test.npy --labels test-labels.npy
  rejects "--test-labels" train --data train.npy --labels train-labels.npy --test test.npy --hidden 2 --out o
  rejects "exact negative phase" train --data train.npy --labels train-labels.npy --algo exact --hidden 2 --out o
  rejects "--labels" classify --model run/model.npz --data test.npy
  succeeds train --data train.npy --resample-binarisation --hidden 4 --updates 20 --out grey
}

# Labels outside a model's classes are refused by name: classify's --labels as train's --test-labels. train counts
# the classes from --classes, or from labels that use every class 0 … max: a label of 200 among 0 … 3 (or a class
# never used) is refused rather than silently making a 201-class (or emptier) model.
case_bad_labels() {
  succeeds data make modes --p-mut 0.05 --size 40 --seed 1 --out data.npy --labels labels.npy
  succeeds train --data data.npy --labels labels.npy --hidden 2 --updates 10 --out run
  relabel labels.npy far.npy 3 200
  rejects "label 200 in row 3" classify --model run/model.npz --data data.npy --labels far.npy --out predicted.npy
  [[ ! -e predicted.npy ]] || fail "a refused classify wrote its predictions"
  rejects "--labels far.npy" train --data data.npy --labels far.npy --hidden 2 --updates 10 --out big
  expect_output_contains "--classes"
  relabel labels.npy gap.npy 2=3
  rejects "class 2" train --data data.npy --labels gap.npy --hidden 2 --updates 10 --out gap
  succeeds train --data data.npy --labels gap.npy --classes 4 --hidden 2 --updates 10 --out stated
  rejects "label 200 in row 3" train --data data.npy --labels far.npy --classes 4 --hidden 2 --updates 10 --out o
  printf '0\n1.5\n' >half.csv
  rejects "half.csv: label 1 (counted from 0) is 1.5" train --data data.npy --labels half.csv --hidden 2 --out half
  # Inputs are checked before the output directory is made: a refused run leaves none behind.
  local refused
  for refused in big gap o half; do [[ ! -e "$refused" ]] || fail "the refused train run made $refused/"; done
}

# A model whose rows each have a finite log-likelihood averages to a finite one even where their sum overflows
# (a visible bias of 1e308: log p is 0 for the rows with that unit on, about −1e308 for the others).
case_loglik_average_overflow() {
  succeeds data make bas --size 3 --out bas.npy
  make_zero_model edge.npz 9 4
  set_first_parameter edge.npz b.npy 1e308
  succeeds loglik --model edge.npz --data bas.npy --exact --json
  local average
  average=$(json_value average_log_likelihood)
  # Half the Bars & Stripes patterns have the first unit off: the average is about −5e307.
  awk -v a="$average" 'BEGIN { exit !(a < -1e307 && a > -1e308) }' || fail "average log-likelihood $average"
}

# Every experiment that reads MNIST runs its smoke scale with --mnist too, in seconds: against a tiny MNIST-style
# directory here (what CI can run), and also against the directory RBMIX_TEST_MNIST_DIR names when it is set (real
# MNIST: a local check that smoke scale stays small whatever the data). Each run.json records the smoke sizes.
case_experiment_smoke_with_mnist() {
  make_mnist_directory mnist
  local directories=(mnist) directory name ran=0
  [[ -n "${RBMIX_TEST_MNIST_DIR:-}" ]] && directories+=("$RBMIX_TEST_MNIST_DIR")
  succeeds experiment --help
  local names
  names=$(awk '/^Subcommands:/ { listed = 1; next } listed && NF { print $1 }' <<<"$OUTPUT" | grep -v '^merge$')
  [[ -n "$names" ]] || fail "experiment --help lists no experiments: $OUTPUT"
  for name in $names; do
    succeeds experiment "$name" --help
    grep -q -- "--mnist" <<<"$OUTPUT" || continue
    for directory in "${directories[@]}"; do
      succeeds experiment "$name" --scale smoke --mnist "$directory" --threads 2 --quiet --out "smoke-$name-$ran"
      python -c 'import json, sys; c = json.load(open(sys.argv[1]))["configuration"]; sys.exit(c["scale"] != "smoke")' \
        "smoke-$name-$ran/run.json" || fail "$name: run.json does not record the smoke scale"
      ran=$((ran + 1))
    done
  done
  ((ran >= 6 * ${#directories[@]})) || fail "only $ran smoke runs with --mnist (six experiments read MNIST)"
}

# The pcd-study experiment at smoke scale (synthetic data) writes its tables, one SVG per part and run.json.
case_experiment_pcd_study() {
  succeeds experiment pcd-study --scale smoke --updates 100 --mrf-updates 100 --trials 1 --threads 1 --seed 2 --out p
  expect_output_contains "MRF training-data entropy"
  local file
  for file in pcd_study.csv pcd_study_curves.csv pcd_study_exact.svg pcd_study_ais.svg pcd_study_ais_updates.svg \
    pcd_study_classification.svg pcd_study_mrf.svg run.json; do
    [[ -s "p/$file" ]] || fail "pcd-study wrote no $file"
  done
  [[ $(wc -l <p/pcd_study.csv) -eq 26 ]] || fail "pcd_study.csv should hold a header and 25 curves"
  grep -q '"likelihood": "trajectory"' p/run.json || fail "run.json does not say how the ais part was scored"
  # The tracked ais curves carry the AIS check of their final model; no other part does.
  [[ $(awk -F, '$1 == "ais" && $9 != "" && $9 < 0' p/pcd_study.csv | wc -l) -eq 7 ]] ||
    fail "the ais part's seven curves should each carry a final AIS test log-likelihood"
  [[ $(awk -F, '$1 == "exact" && $9 != ""' p/pcd_study.csv | wc -l) -eq 0 ]] || fail "the exact part has no AIS check"
  # Both ais plots ring each curve's end at its AIS check; the exact part's plot has none.
  for file in pcd_study_ais.svg pcd_study_ais_updates.svg; do
    [[ $(grep -c 'class="check"' "p/$file") -eq 7 ]] || fail "$file should ring the seven curves' AIS checks"
  done
  grep -q 'class="check"' p/pcd_study_exact.svg && fail "pcd_study_exact.svg rings an AIS check it has not got"
  rejects "--likelihood" experiment pcd-study --scale smoke --likelihood exact --out q
  rejects "--precision" experiment pcd-study --scale smoke --precision half --out q
  rejects "--parts" experiment pcd-study --scale smoke --parts exact,horse --out q
  rejects "--mnist" experiment pcd-study --scale paper --out q
  [[ ! -e q ]] || fail "a refused pcd-study made its output directory"
}

case_bad_mrf() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds data make bas --size 4 --out wide.npy
  rejects "algorithm" mrf train --data bas.npy --algo cd --out o
  rejects "learning rate" mrf train --data bas.npy --lr 0 --out o
  rejects "--operator" mrf train --data bas.npy --algo pcd --operator hot --out o
  rejects "--validation wide.npy has 16 columns" mrf train --data bas.npy --validation wide.npy --out o
  rejects "missing.npy" mrf train --data missing.npy --out o
  # Options the chosen --algo would ignore, refused as train refuses them.
  rejects "--operator applies to pcd" mrf train --data bas.npy --algo pl --operator flip --out o
  rejects "--operator applies to pcd" mrf train --data bas.npy --algo exact --operator gibbs --out o
  rejects "--chains applies to pcd" mrf train --data bas.npy --algo exact --chains 5 --out o
  rejects "--sweeps applies to pcd" mrf train --data bas.npy --algo pl --sweeps 2 --out o
  rejects "--batch applies to pl" mrf train --data bas.npy --algo pcd --batch 4 --out o
  [[ ! -e o ]] || fail "a rejected mrf run made its output directory"
}

# An option the chosen --algo would ignore is refused, naming it, before anything is written.
case_bad_train_ignored_options() {
  succeeds data make bas --size 2 --out bas.npy
  rejects "--operator" train --data bas.npy --hidden 2 --algo exact --operator flip --updates 1 --out t
  rejects "--operator" train --data bas.npy --hidden 2 --algo mfcd --operator gibbs --updates 1 --out t
  rejects "--d" train --data bas.npy --hidden 2 --algo cd --d 3 --updates 1 --out t
  rejects "--k-inner" train --data bas.npy --hidden 2 --algo pcd --k-inner 2 --updates 1 --out t
  rejects "--replicas" train --data bas.npy --hidden 2 --algo pcd --replicas 4 --updates 1 --out t
  rejects "--fast-lr" train --data bas.npy --hidden 2 --algo pcd --fast-lr 0.1 --updates 1 --out t
  rejects "--fast-decay" train --data bas.npy --hidden 2 --algo cd --fast-decay 0.5 --updates 1 --out t
  rejects "--fast-lr" train --data bas.npy --hidden 2 --algo fpcd --updates 1 --out t
  rejects "fast learning rate" train --data bas.npy --hidden 2 --algo fpcd --fast-lr -1 --updates 1 --out t
  rejects "decay" train --data bas.npy --hidden 2 --algo fpcd --fast-lr 0.1 --fast-decay 1 --updates 1 --out t
  [[ ! -e t ]] || fail "a refused training made its output directory"
}

# FPCD takes its fast learning rate and decay from the command line and records them; the options that apply to
# the chosen algorithm are accepted.
case_train_algorithm_options() {
  succeeds data make bas --size 2 --out bas.npy
  succeeds train --data bas.npy --hidden 2 --algo fpcd --fast-lr 0.05 --fast-decay 0.9 --updates 4 --eval-every 2 \
    --out f
  run_json_value() { python -c 'import json, sys; print(json.load(open(sys.argv[1]))["configuration"][sys.argv[2]])' "$@"; }
  expect_equal "fast_learning_rate" "$(run_json_value f/run.json fast_learning_rate)" "0.05"
  expect_equal "fast_weight_decay" "$(run_json_value f/run.json fast_weight_decay)" "0.9"
  succeeds train --data bas.npy --hidden 2 --algo sdcp --d 2 --k-inner 3 --updates 2 --out s
  expect_equal "inner_steps" "$(run_json_value s/run.json inner_steps)" "2"
  expect_equal "sampling_steps" "$(run_json_value s/run.json sampling_steps)" "3"
  succeeds train --data bas.npy --hidden 2 --algo pt --replicas 3 --operator flip --updates 2 --out p
  expect_equal "replicas" "$(run_json_value p/run.json replicas)" "3"
  succeeds train --data bas.npy --hidden 2 --algo exact --updates 2 --out e
  # The initial parameters: 003 §4.2's normal start is recorded; a malformed or doubled choice is refused.
  succeeds train --data bas.npy --hidden 2 --init normal:0.01 --updates 2 --out n
  expect_equal "initial_bias_scale" "$(run_json_value n/run.json initial_bias_scale)" "0.01"
  rejects_clearly "--init" train --data bas.npy --hidden 2 --init normal:0 --out bad-init
  rejects_clearly "--zero-visible-bias" train --data bas.npy --hidden 2 --zero-visible-bias --out bad-init
  rejects_clearly "--init" experiment class-changes --init uniform --out bad-init
}

# Every experiment writes run.json listing the files it wrote; the shared arguments are checked alike.
case_experiment_run_record() {
  succeeds experiment slem-sweep --scale smoke --sizes 2 --c 1,2 --count 2 --threads 1 --seed 4 --out s
  local files
  files=$(python -c 'import json; print(",".join(json.load(open("s/run.json"))["files"]))')
  expect_equal "files" "$files" "slem_sweep.csv,slem_per_rbm.csv,slem_sweep.svg,run.json"
  rejects_clearly "--threads" experiment slem-sweep --scale smoke --threads -1 --out t
  rejects "--scale" experiment dcp-small --scale huge --out t
  rejects "--mnist" experiment autocorr --mnist no-such-directory --out t
  [[ ! -e t ]] || fail "a refused experiment made its output directory"
}

# experiment samplers at smoke scale (a synthetic 4×4 image set, about a second): the tables, the ISL plot and one
# picture per sampler, all listed in run.json; the same run with one thread or two writes the same tables; its own
# options are checked.
case_experiment_samplers() {
  succeeds experiment samplers --scale smoke --threads 2 --seed 3 --out s2
  expect_output_contains "001's claims against this run"
  local files
  files=$(python -c 'import json; print(" ".join(json.load(open("s2/run.json"))["files"]))')
  for file in samplers.csv samplers_claims.csv samplers_tuning.csv samplers_models.csv samplers_curves.csv \
    isl_artificial-modes-4x4.svg training_artificial-modes-4x4.png samples_artificial-modes-4x4_gibbs.png \
    samples_artificial-modes-4x4_rates-fpcd.png samples_artificial-modes-4x4_rates-fpcd-flip.png \
    samples_artificial-modes-4x4_rates-herding.png samples_artificial-modes-4x4_herding.png \
    samples_artificial-modes-4x4_sp.png run.json; do
    [[ " $files " == *" $file "* ]] || fail "run.json does not list $file: $files"
    [[ -s "s2/$file" ]] || fail "s2/$file is missing or empty"
  done
  succeeds experiment samplers --scale smoke --threads 1 --seed 3 --out s1
  for file in samplers.csv samplers_tuning.csv samplers_curves.csv isl_artificial-modes-4x4.svg; do
    cmp -s "s1/$file" "s2/$file" || fail "$file differs between one thread and two"
  done
  rejects_clearly "--samples" experiment samplers --scale smoke --samples 0 --out t
  rejects "--fashion-mnist" experiment samplers --scale smoke --fashion-mnist no-such-directory --out t
  rejects "--hidden" experiment samplers --scale smoke --hidden 0 --out t
  rejects "--validation-rows" experiment samplers --scale smoke --validation-rows 10 --out t
  [[ ! -e t ]] || fail "a refused experiment made its output directory"
}

# rbmix experiment modified-sweep at smoke scale (random RBMs and BAS trained for 100 updates) writes its tables and
# plots, says that MNIST was skipped, and refuses a γ outside [0, 1].
case_experiment_modified_sweep() {
  succeeds experiment modified-sweep --scale smoke --threads 1 --seed 2 --out m
  expect_output_contains "MNIST with 10 hidden units skipped"
  local files
  files=$(python -c 'import json; print(",".join(json.load(open("m/run.json"))["files"]))')
  expect_equal "files" "$files" "modified_sweep.csv,modified_sweep_curve.csv,modified_sweep_per_rbm.csv,\
modified_sweep_slem.svg,modified_sweep_tau.svg,modified_sweep_best_gamma.svg,modified_sweep_trained_trials.csv,\
modified_sweep_trained.csv,run.json"
  rejects "--gammas" experiment modified-sweep --scale smoke --gammas 0,1.5 --out g
  rejects "--c" experiment modified-sweep --scale smoke --c 3:1 --out g
  [[ ! -e g ]] || fail "a refused experiment made its output directory"
}

# mixing reads any series back (--trace: 1-D, or chains × steps as --trace-out writes) and names its headline
# estimate, R̂ and the ESS, the same as from the model; a command with both or neither source is refused.
case_mixing_trace() {
  succeeds model random --visible 4 --hidden 3 --weight-range 2 --seed 1 --out m.npz
  succeeds mixing --model m.npz --operator gibbs --steps 3000 --chains 4 --burn-in 100 --seed 2 --trace-out t.npy
  local direct
  direct=$(grep "^tau = " <<<"$OUTPUT")
  succeeds mixing --trace t.npy
  expect_output_contains "initial_monotone_sequence, 95 % interval"
  expect_output_contains "R-hat (rank-normalised, split)"
  expect_output_contains "note: 4 chains: a mode no chain left is invisible to every estimate; run 16 or more"
  [[ "$(grep "^tau = " <<<"$OUTPUT")" == "$direct" ]] || fail "--trace of the written traces gives another tau"
  rejects "exactly one of --model and --trace" mixing --model m.npz --trace t.npy
  rejects "exactly one of --model and --trace" mixing --steps 10
  succeeds mixing --trace t.npy --json --out from-trace
  python -c 'import json,sys; r = json.load(open("from-trace/run.json")); sys.exit(r["configuration"]["chains"] != 4)' ||
    fail "mixing --trace did not read 4 chains"

  # The same traces in units whose squares overflow (x 1e200) give the same tau; chains too short to split into
  # halves of 4 steps are refused naming the file and its shape.
  python - <<'PY'
import ast, struct
data = open("t.npy", "rb").read()
length = struct.unpack("<H", data[8:10])[0]
header = ast.literal_eval(data[10:10 + length].decode())
values = struct.unpack("<%dd" % (len(data[10 + length:]) // 8), data[10 + length:])
def write(path, shape, numbers):
    text = "{'descr': '<f8', 'fortran_order': False, 'shape': %r, }" % (shape,)
    text += " " * ((64 - (10 + len(text) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode())
        out.write(struct.pack("<%dd" % len(numbers), *numbers))
write("huge.npy", header["shape"], [v * 1e200 for v in values])
write("short.npy", (4, 5), [float(k % 3) for k in range(20)])
PY
  succeeds mixing --trace huge.npy
  [[ "$(grep "^tau = " <<<"$OUTPUT")" == "$direct" ]] || fail "the traces x 1e200 give another tau: $OUTPUT"
  rejects "short.npy: the trace is 4 × 5 (chains × steps); each chain needs at least 8 steps" mixing --trace short.npy
  rejects "--steps 5: each chain needs at least 8 steps" mixing --model m.npz --steps 5
}

# mixing --start-states FILE starts chain c from row c (certified samples need no burn-in): one chain per row unless
# --chains says otherwise, which must then agree; rows of another width, superchains beside them, or a missing file
# are refused by name.
case_mixing_start_states() {
  succeeds model random --visible 4 --hidden 3 --weight-range 2 --seed 1 --out m.npz
  succeeds sample --model m.npz --sampler gibbs --samples 6 --seed 3 --out draws
  succeeds mixing --model m.npz --start-states draws/samples.npy --operator flip --steps 200 --burn-in 0 --out st
  expect_output_contains "6 chain(s) × 200 steps after 0 burn-in sweeps, started from draws/samples.npy"
  python -c 'import json,sys; c = json.load(open("st/run.json"))["configuration"]
sys.exit(not (c["chains"] == 6 and c["start"].startswith("the rows of draws/samples.npy")))' ||
    fail "run.json does not record the start states and their chains"
  succeeds mixing --model m.npz --start-states draws/samples.npy --chains 6 --steps 20 --burn-in 0
  rejects "draws/samples.npy holds 6 rows, one per chain, but --chains is 4" mixing --model m.npz \
    --start-states draws/samples.npy --chains 4 --steps 20
  succeeds model random --visible 5 --hidden 3 --weight-range 1 --seed 1 --out wide.npz
  rejects "the start states are 6 × 4; 6 chains of a model with 5 visible units need 6 × 5" mixing --model wide.npz \
    --start-states draws/samples.npy --steps 20
  rejects "--superchains" mixing --model m.npz --start-states draws/samples.npy --superchains 2 --steps 20
  rejects "absent.npy" mixing --model m.npz --start-states absent.npy --steps 20
}

# mixing --superchains K starts the chains of each of K superchains from one shared state and reports their nested
# R̂ (also of a file's chains, grouped the same way), in the output and in run.json; a K that does not divide the
# chains is refused before sampling.
case_mixing_superchains() {
  succeeds model random --visible 4 --hidden 3 --weight-range 2 --seed 1 --out m.npz
  succeeds mixing --model m.npz --steps 400 --chains 8 --superchains 4 --burn-in 0 --seed 2 --trace-out t.npy --out s
  expect_output_contains "nested R-hat (4 superchains, rank-normalised, split)"
  python -c 'import json,sys; r = json.load(open("s/run.json")); c = r["configuration"]
sys.exit(not (c["superchains"] == 4 and r["nested_potential_scale_reduction"] >= 1.0))' ||
    fail "run.json does not record the superchains and their nested R-hat"
  local direct
  direct=$(grep "^nested R-hat" <<<"$OUTPUT")
  succeeds mixing --trace t.npy --superchains 4
  [[ "$(grep "^nested R-hat" <<<"$OUTPUT")" == "$direct" ]] || fail "--trace gives another nested R-hat"
  rejects "--superchains" mixing --model m.npz --steps 10 --chains 8 --superchains 3
  rejects "--superchains" mixing --model m.npz --steps 10 --chains 8 --superchains 1
  rejects "--superchains" mixing --model m.npz --steps 10 --chains 8 --superchains -2
  rejects "superchains" mixing --trace t.npy --superchains 3
}

# rbmix experiment estimator-calibration at smoke scale (seconds): the score table against exact τ, the rule
# candidates, one plot per estimator, all listed in run.json; one thread or two give the same tables.
case_experiment_estimator_calibration() {
  succeeds experiment estimator-calibration --scale smoke --threads 2 --seed 5 --out c2
  expect_output_contains "chosen rule"
  local files
  files=$(python -c 'import json; print(" ".join(json.load(open("c2/run.json"))["files"]))')
  for file in estimator_calibration.csv estimator_calibration_runs.csv estimator_calibration_rules.csv \
    estimator_calibration_coverage.csv estimator_calibration_coverage.svg estimator_calibration_intervals.csv \
    estimator_calibration_goal_runs.csv estimator_calibration_initial_monotone_sequence.svg \
    estimator_calibration_batch_means.svg estimator_calibration_held_out.csv run.json; do
    [[ " $files " == *" $file "* ]] || fail "run.json does not list $file: $files"
    [[ -s "c2/$file" ]] || fail "c2/$file is missing or empty"
  done
  # The goals per estimator on both sets: the calibration set's rows, then the held-out models'.
  grep -q '^calibration,batch_means,' c2/estimator_calibration_held_out.csv || fail "no calibration rows"
  grep -q '^held-out,batch_means,' c2/estimator_calibration_held_out.csv || fail "no held-out rows"
  grep -q '^held-out random' c2/estimator_calibration_runs.csv || fail "no held-out model was run"
  succeeds experiment estimator-calibration --scale smoke --threads 1 --seed 5 --out c1
  for file in estimator_calibration.csv estimator_calibration_runs.csv estimator_calibration_rules.csv \
    estimator_calibration_coverage.csv estimator_calibration_held_out.csv; do
    cmp -s "c1/$file" "c2/$file" || fail "$file differs between one thread and two"
  done
  rejects "--replicates" experiment estimator-calibration --scale smoke --replicates 0 --out t
  [[ ! -e t ]] || fail "a refused experiment made its output directory"
  rejects "--configurations: '16by5000'" experiment estimator-calibration --configurations 16by5000 --out t
  rejects "divide the chains" experiment estimator-calibration --configurations 30x200/4 --out t
  succeeds experiment estimator-calibration --scale smoke --operators gibbs --configurations 2x500,32x200/4 --seed 5 \
    --out c3
  expect_output_contains "the goals per estimator under the rule of the options, on the calibration set and on the held-out"
  expect_output_contains "rbmix uses band + long batches x5"
  grep -q '^32,200,4,' c3/estimator_calibration_coverage.csv || fail "no coverage row of the superchain shape"
  succeeds experiment estimator-calibration --scale smoke --operators gibbs --configurations 2x500 --seed 5 --out c4
  expect_output_contains "no run of at least 16 chains within its horizon: no interval is chosen"
}

# The per-unit modified rule runs in every command that takes an operator, and analyze shifts its sweep too.
case_unit_modified_operator() {
  make_zero_model zero.npz 4 2
  succeeds data make bas --size 2 --out bas.npy
  succeeds analyze --model zero.npz --operators unit-modified:0.5,modified:unit-modified:0.5 --json
  expect_equal "irreducible" "$(json_value operators.0.irreducible)" true
  succeeds mixing --model zero.npz --operator unit-modified:0.5 --steps 50 --burn-in 0
  succeeds train --data bas.npy --hidden 2 --algo pcd --operator unit-modified:0.25 --updates 2 --out t
  succeeds loglik --model zero.npz --data bas.npy --ais --operator unit-modified:0.75 --particles 4 --distributions 3
  local shift
  for shift in unit-modified:1.5 unit-modified:-0.1 unit-modified: unit-modified; do
    rejects "$shift" mixing --model zero.npz --operator "$shift" --steps 10
  done
}

# mixing samples analyze's modified sweeps too (exactly, from the sweep's exact diagonal), on tiny models only.
case_mixing_modified_sweep() {
  succeeds model random --visible 3 --hidden 2 --weight-range 1 --seed 4 --out m.npz
  succeeds mixing --model m.npz --operator modified:flip --steps 200 --burn-in 5 --seed 2 --json
  expect_equal "operator" "$(json_value configuration.operator)" modified:flip
  succeeds mixing --model m.npz --operator modified:unit-modified:0.5 --steps 50 --float
  succeeds model random --visible 12 --hidden 10 --weight-range 1 --seed 4 --out big.npz
  rejects "at most 20 units" mixing --model big.npz --operator modified:gibbs --steps 10
  rejects "bogus" mixing --model m.npz --operator modified:bogus --steps 10
}

# write_bits_npy FILE ROW...: a uint8 .npy array with one row per argument, each a string of 0s and 1s.
write_bits_npy() {
  python - "$@" <<'PY'
import sys
path, rows = sys.argv[1], sys.argv[2:]
header = "{'descr': '|u1', 'fortran_order': False, 'shape': (%d, %d), }" % (len(rows), len(rows[0]))
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(path, "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
    out.write(bytes(int(bit) for row in rows for bit in row))
PY
}

# npy_summary FILE: "dtype rows cols min max" of a 2-D .npy array (uint8 or float32).
npy_summary() {
  python - "$1" <<'PY'
import ast, struct, sys
data = open(sys.argv[1], "rb").read()
length = struct.unpack("<H", data[8:10])[0]
header = ast.literal_eval(data[10:10 + length].decode())
payload = data[10 + length:]
values = list(payload) if header["descr"] == "|u1" else list(struct.unpack("<%df" % (len(payload) // 4), payload))
print(header["descr"], header["shape"][0], header["shape"][1], min(values), max(values))
PY
}

# The zero model draws every unit with probability ½ whatever the sampler's state, so Gibbs samples are binary,
# the grey levels E[x | E[h | x]] are exactly ½, and a 16-unit model is pictured as 4×4 tiles.
case_sample_gibbs() {
  make_zero_model zero.npz 16 3
  succeeds sample --model zero.npz --sampler gibbs --samples 50 --chains 2 --k 2 --seed 3 --out s
  expect_equal "samples.npy" "$(npy_summary s/samples.npy)" "|u1 100 16 0 1"
  expect_equal "grey.npy" "$(npy_summary s/grey.npy)" "<f4 100 16 0.5 0.5"
  # 100 tiles of 4×4 in rows of 10, each value an 8×8 block (tiles of 32 pixels), 2-pixel gaps: 342 × 342 pixels.
  expect_equal "samples.png" "$(png_summary s/samples.png | head -1)" "342 342"
  png_summary s/samples.png | grep -qF "Description: the first 100 samples in emission order, one per tile: p(v = 1 | h)" ||
    fail "samples.png does not say that its tiles are p(v | h): $(png_summary s/samples.png)"
  python -c 'import json,sys; r = json.load(open("s/run.json")); sys.exit("p(v = 1 | h)" not in r["samples_png"])' ||
    fail "s/run.json does not say what samples.png shows"
  python -c 'import json,sys; r = json.load(open("s/run.json")); sys.exit(r["seed"] != 3 or r["configuration"]["sampler"] != "gibbs")' ||
    fail "s/run.json does not record seed 3 and sampler gibbs"
  succeeds sample --model zero.npz --sampler gibbs --samples 50 --chains 2 --k 2 --seed 3 --out again
  cmp -s s/samples.npy again/samples.npy || fail "sample is not reproducible for a fixed seed"
  # 15 units are not a square: no picture unless a shape is given.
  make_zero_model fifteen.npz 15 2
  succeeds sample --model fifteen.npz --sampler gibbs --samples 5 --out f
  [[ ! -e f/samples.png ]] || fail "a 15-unit model was pictured without --image-shape"
  succeeds sample --model fifteen.npz --sampler gibbs --samples 5 --image-shape 3x5 --out g
  [[ -s g/samples.png ]] || fail "--image-shape 3x5 drew no picture"
}

# The weight filters of a model as a picture: one tile per hidden unit, square or --image-shape, the contrast named
# in the caption; rbmix train writes the same picture and its learning curve as a plot.
case_model_show_filters() {
  succeeds model random --visible 9 --hidden 4 --weight-range 1 --seed 1 --out m.npz
  local summary
  succeeds model show m.npz --filters --out f.png
  # Four 3×3 tiles, each value an 11×11 block (tiles of 33 pixels), 2-pixel gaps: 4·35 + 2 = 142 by 37.
  summary=$(png_summary f.png)
  expect_equal "f.png" "$(head -1 <<<"$summary")" "142 37"
  grep -qF "contrast per tile" <<<"$summary" || fail "f.png does not name its contrast: $summary"
  succeeds model show m.npz --filters --contrast global --columns 2 --out g.png
  summary=$(png_summary g.png)
  expect_equal "g.png" "$(head -1 <<<"$summary")" "72 72"
  grep -qF "contrast global" <<<"$summary" || fail "g.png does not name its contrast: $summary"
  succeeds model random --visible 6 --hidden 2 --weight-range 1 --seed 1 --out six.npz
  rejects "--image-shape" model show six.npz --filters --out six.png
  rejects "--image-shape 2x2" model show six.npz --filters --image-shape 2x2 --out six.png
  rejects "--contrast" model show m.npz --filters --contrast loud --out x.png
  succeeds model show six.npz --filters --image-shape 2x3 --out six.png
  [[ -s six.png && ! -e x.png ]] || fail "--image-shape 2x3 drew no picture, or a refused command wrote one"

  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --algo cd --updates 20 --eval-every 10 --seed 1 --out run
  for file in model.npz learning_curve.csv learning_curve.svg filters.png run.json; do
    [[ -s run/$file ]] || fail "train did not write run/$file"
  done
  expect_equal "run/filters.png (2 × 2 tiles of 4 filters)" "$(png_summary run/filters.png | head -1)" "72 72"
  grep -qF "average log-likelihood" run/learning_curve.svg || fail "learning_curve.svg lacks its y label"
  python -c 'import json,sys; r = json.load(open("run/run.json")); sys.exit(r["configuration"]["image_shape"] != [3, 3] or "contrast per tile" not in r["filters_png"])' ||
    fail "run/run.json does not record the picture's shape and contrast"
}

# Every sampler of 001 runs on Bars & Stripes 3×3; the herding samplers report their fixed-point searches.
case_sample_rates() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds model random --visible 9 --hidden 6 --weight-range 1 --seed 2 --out m.npz
  succeeds sample --model m.npz --sampler rates-fpcd --rates-data bas.npy --fast-lr 0.01 --operator flip \
    --samples 30 --chains 3 --out fpcd
  expect_equal "rates-fpcd samples" "$(npy_summary fpcd/samples.npy | cut -d' ' -f1-3)" "|u1 90 9"
  local sampler
  for sampler in rates-herding herding; do
    local extra=()
    [[ $sampler == herding ]] || extra=(--fast-lr 0.5)
    succeeds sample --model m.npz --sampler "$sampler" --rates-data bas.npy "${extra[@]}" --samples 40 --out "$sampler"
    python -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(r["fixed_point_searches"] != 40 or r["fixed_point_cap_hits"] != 0)' \
      "$sampler/run.json" || fail "$sampler/run.json does not report 40 fixed-point searches and no cap hit"
  done
  succeeds sample --model m.npz --sampler herding --rates-data bas.npy --fixed-point-cap 1 --samples 40 --out capped
  expect_output_contains "stopped at the cap"
  succeeds sample --model m.npz --sampler sp --fast-lr 0.1 --fast-decay 0.9 --samples 20 --out sp
  succeeds sample --model m.npz --sampler sp --fast-lr 0.1 --samples 20 --out sp-drift
  expect_output_contains "collapse onto the all-off state"
}

case_bad_sample_options() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds data make bas --size 2 --out bas2.npy
  succeeds model random --visible 9 --hidden 4 --weight-range 1 --seed 2 --out m.npz
  local base=(sample --model m.npz --samples 5 --out s)
  rejects "--fast-lr" "${base[@]}" --sampler gibbs --fast-lr 0.1
  rejects "--fast-decay" "${base[@]}" --sampler gibbs --fast-decay 0.9
  rejects "--rates-data" "${base[@]}" --sampler gibbs --rates-data bas.npy
  rejects "--rates-data" "${base[@]}" --sampler rates-fpcd --fast-lr 0.1
  rejects "--fast-lr" "${base[@]}" --sampler rates-fpcd --rates-data bas.npy
  rejects "--fast-lr" "${base[@]}" --sampler herding --rates-data bas.npy --fast-lr 0.5
  rejects "--k" "${base[@]}" --sampler herding --rates-data bas.npy --k 3
  rejects "--operator" "${base[@]}" --sampler rates-herding --rates-data bas.npy --fast-lr 0.1 --operator flip
  rejects "--fixed-point-cap" "${base[@]}" --sampler gibbs --fixed-point-cap 5
  rejects "--rates-data" "${base[@]}" --sampler sp --fast-lr 0.1 --rates-data bas.npy
  rejects_clearly "--fast-decay" "${base[@]}" --sampler sp --fast-lr 0.1 --fast-decay 1.5
  rejects_clearly "--fast-lr" "${base[@]}" --sampler sp --fast-lr nan
  rejects_clearly "--fast-lr" "${base[@]}" --sampler sp --fast-lr -1
  rejects_clearly "--k" "${base[@]}" --sampler gibbs --k 0
  rejects_clearly "--chains" "${base[@]}" --sampler gibbs --chains 0
  rejects_clearly "--samples" sample --model m.npz --out s --sampler gibbs --samples 0
  rejects "metropolis" "${base[@]}" --sampler metropolis
  rejects "bogus" "${base[@]}" --sampler gibbs --operator bogus
  rejects "bas2.npy" "${base[@]}" --sampler rates-fpcd --fast-lr 0.1 --rates-data bas2.npy
  rejects "--image-shape" "${base[@]}" --sampler gibbs --image-shape 3x4
  rejects "--image-shape" "${base[@]}" --sampler gibbs --image-shape three
  # Grey levels are not rates data.
  succeeds sample --model m.npz --sampler gibbs --samples 5 --out grey
  rejects "grey/grey.npy" "${base[@]}" --sampler rates-fpcd --fast-lr 0.1 --rates-data grey/grey.npy
  [[ ! -e s ]] || fail "a rejected sample command made its output directory"
}

# One sample at Hamming distance 2 from the only validation and test row (m = 8): β = 1 − 2/8 maximises
# 6 log β + 2 log(1 − β), and the ISL is that maximum: 6 ln(3/4) + 2 ln(1/4).
case_isl_closed_form() {
  write_bits_npy sample.npy 10110010
  write_bits_npy row.npy 10011010
  succeeds isl --samples sample.npy --valid row.npy --test row.npy --json
  expect_equal "N" "$(json_value curve.0.samples)" 1
  expect_near "beta" "$(json_value curve.0.beta)" 0.75 1e-6
  expect_equal "beta inside its range" "$(json_value curve.0.beta_bound)" none
  expect_near "ISL" "$(json_value curve.0.isl)" "$(awk 'BEGIN { printf "%.12f", 6 * log(0.75) + 2 * log(0.25) }')" 1e-9
  # The training set as its own sample set: every test row is a sample, so more samples cannot hide it.
  succeeds data make bas --size 3 --out bas.npy
  succeeds isl --samples bas.npy --valid bas.npy --test bas.npy --counts 4,16 --out isl
  expect_output_contains "samples"
  [[ -s isl/isl.csv && -s isl/run.json ]] || fail "isl --out did not write isl.csv and run.json"
  # With all 16 rows as samples every validation row is one: β goes to the upper end of its range, and says so.
  expect_output_contains "warning: β sits on an end of its search range"
  expect_output_contains "N = 16 (upper)"
  OUTPUT=$(cat isl/run.json)
  flatten_json
  expect_equal "beta on its upper bound" "$(json_value curve.1.beta_bound)" upper
  expect_output_contains "N = 16 (upper)"
}

case_bad_isl_input() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds data make bas --size 2 --out bas2.npy
  succeeds model random --visible 9 --hidden 4 --weight-range 1 --seed 2 --out m.npz
  succeeds sample --model m.npz --sampler gibbs --samples 5 --out s
  rejects "bas2.npy" isl --samples bas.npy --valid bas2.npy --test bas.npy
  rejects "bas2.npy" isl --samples bas.npy --valid bas.npy --test bas2.npy
  rejects "s/grey.npy" isl --samples s/grey.npy --valid bas.npy --test bas.npy
  rejects "absent.npy" isl --samples absent.npy --valid bas.npy --test bas.npy
  rejects "--counts" isl --samples bas.npy --valid bas.npy --test bas.npy --counts 0
  rejects "--counts" isl --samples bas.npy --valid bas.npy --test bas.npy --counts 17
  rejects "--counts" isl --samples bas.npy --valid bas.npy --test bas.npy --counts 8,4
}

# write_random_rows FILE ROWS COLS SEED: random 0/1 rows (|u1) with P(1) = 0.3, the same for the same seed.
write_random_rows() {
  python - "$@" <<'PY'
import random, struct, sys
path, rows, cols, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
header = "{'descr': '|u1', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    out.write(bytes(1 if rng.random() < 0.3 else 0 for _ in range(rows * cols)))
PY
}

# json_file_value FILE PATH: the value at PATH (keys and indices joined by '.') in a JSON file.
json_file_value() {
  python - "$1" "$2" <<'PY'
import json, sys
value = json.load(open(sys.argv[1]))
for key in sys.argv[2].split("."):
    value = value[int(key)] if isinstance(value, list) else value[key]
print(json.dumps(value) if isinstance(value, (dict, list)) else value)
PY
}

# expect_files_listed DIR FILE...: DIR/run.json lists exactly FILE... and run.json, and each exists.
expect_files_listed() {
  local directory=$1
  shift
  local listed expected
  listed=$(json_file_value "$directory/run.json" files)
  expected=$(printf '"%s", ' "$@" run.json)
  expect_equal "$directory/run.json files" "$listed" "[${expected%, }]"
  for file in "$@"; do [[ -s "$directory/$file" ]] || fail "$directory/$file is listed but missing"; done
}

# Beyond the enumeration limit (30 × 30 units) the automatic monitor is AIS: every evaluation holds the estimate,
# its band and the proxies, no column is NaN, and run.json names the monitor. An exact monitor is refused saying
# why. The same seed gives the same curve.
case_train_monitor_ais() {
  write_random_rows train.npy 200 30 1
  write_random_rows test.npy 100 30 2
  local options=(--data train.npy --test test.npy --hidden 30 --algo pcd --lr 0.05 --batch 20 --updates 40
    --eval-every 20 --monitor-particles 8 --monitor-distributions 100 --seed 3)
  succeeds train "${options[@]}" --out run
  expect_output_contains "monitor: ais: AIS log-likelihood (8 particles x 100 distributions"
  expect_output_contains "final average log-likelihood (ais)"
  expect_equal "learning-curve columns" "$(head -1 run/learning_curve.csv)" \
    "update,epoch,train_log_likelihood,test_log_likelihood,train_log_likelihood_lower,train_log_likelihood_upper,test_log_likelihood_lower,test_log_likelihood_upper,train_pseudo_log_likelihood,test_pseudo_log_likelihood,train_reconstruction_error,test_reconstruction_error,free_energy_gap"
  expect_equal "evaluations" "$(wc -l <run/learning_curve.csv)" 4
  if grep -qi nan run/learning_curve.csv; then fail "NaN in the learning curve: $(cat run/learning_curve.csv)"; fi
  expect_equal "monitor in run.json" "$(json_file_value run/run.json monitor.kind)" ais
  expect_equal "best chosen by" "$(json_file_value run/run.json summary.best_by)" train_log_likelihood
  expect_files_listed run model.npz learning_curve.csv learning_curve.svg checkpoint.ckpt
  succeeds train "${options[@]}" --out again
  cmp -s run/learning_curve.csv again/learning_curve.csv || fail "the same seed gave another learning curve"
  rejects "2^30 states" train "${options[@]}" --monitor exact --out exact
  rejects "unknown monitor 'exactly'" train "${options[@]}" --monitor exactly --out exact
  succeeds train "${options[@]}" --monitor proxies --out proxies
  expect_equal "proxy columns" "$(head -1 proxies/learning_curve.csv)" \
    "update,epoch,train_pseudo_log_likelihood,test_pseudo_log_likelihood,train_reconstruction_error,test_reconstruction_error,free_energy_gap"
  # The monitor only watches: the parameters are the same bits whichever monitor ran.
  same_parameters run/model.npz proxies/model.npz || fail "the monitor changed the trained parameters"
}

# log Z tracked along training (docs/algorithms/log-partition-along-training.md): every evaluation holds the estimate,
# its band and, on this enumerable model, the exact value beside it; the curve resumes from the checkpoint to the
# same bytes; the parameters are those of any other monitor; bad trajectory options are refused naming them.
case_train_monitor_trajectory() {
  write_random_rows train.npy 200 12 1
  # An option is given once per command (the parser refuses a repeated one), so the variants are spelled out.
  local common=(--data train.npy --hidden 6 --algo pcd --lr 0.05 --batch 20 --eval-every 10 --seed 3)
  local tracked=("${common[@]}" --monitor trajectory --trajectory-particles 40)
  # A stride that divides neither the evaluation nor the checkpoint interval: the checkpoint holds the model the
  # particles last annealed to.
  local options=("${tracked[@]}" --trajectory-groups 4 --resampling-threshold 0.9 --trajectory-stride 7)
  succeeds train "${options[@]}" --updates 40 --out run
  expect_output_contains "monitor: trajectory: log-likelihood from log Z tracked along training (40 particles in 4"
  expect_output_contains "exact beside it: train"
  expect_output_contains "over the groups, or their lognormal band where wider"
  expect_output_contains "band (log Z +- 3 standard errors, or the groups' lognormal band where wider): train ["
  expect_equal "learning-curve columns" "$(head -1 run/learning_curve.csv)" \
    "update,epoch,train_log_likelihood,train_log_likelihood_lower,train_log_likelihood_upper,train_log_likelihood_exact,train_pseudo_log_likelihood,train_reconstruction_error"
  expect_equal "evaluations" "$(wc -l <run/learning_curve.csv)" 6
  succeeds train "${options[@]}" --updates 20 --out resumed
  succeeds train "${options[@]}" --updates 40 --out resumed --resume
  cmp -s run/learning_curve.csv resumed/learning_curve.csv || fail "the resumed run tracked another log Z"
  succeeds train "${common[@]}" --updates 40 --monitor proxies --out proxies
  same_parameters run/model.npz proxies/model.npz || fail "the trajectory monitor changed the trained parameters"
  rejects "multiple of the 3 groups" train "${tracked[@]}" --updates 40 --trajectory-groups 3 --out bad
  rejects "resampling threshold" train "${tracked[@]}" --updates 40 --resampling-threshold 2 --out bad
  rejects "a stride of at least 1 update" train "${tracked[@]}" --updates 40 --trajectory-stride 0 --out bad
  rejects "a positive step size" train "${tracked[@]}" --updates 40 --trajectory-step-size 0 --out bad
  rejects "annealed every 7 updates in steps of 0.1, this run every 8" \
    train "${tracked[@]}" --trajectory-groups 4 --resampling-threshold 0.9 --trajectory-stride 8 --updates 40 \
    --out resumed --resume
  rejects "holds no state of the trajectory monitor" train "${options[@]}" --updates 40 --out proxies --resume
}

# tools/scripts/trajectory-coverage.sh at smoke scale (its full scale: docs/algorithms/log-partition-along-training.md
# §11.4): one row per seed and evaluation, the error log Ẑ − log Z and the inside flag recomputed from each run's
# learning curve, the total they add up to; bad usage exits 2.
case_trajectory_coverage_script() {
  local script
  script=$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")/../../tools/scripts/trajectory-coverage.sh
  write_random_rows train.npy 100 10 4
  OUTPUT=$(bash "$script" "$RBMIX" 2 cover -- --data train.npy --hidden 5 --algo cd --lr 0.1 --batch 10 \
    --updates 60 --eval-every 20 --trajectory-particles 40 --trajectory-groups 4 2>&1) || fail "the script failed: $OUTPUT"
  expect_equal "coverage rows" "$(wc -l <cover/coverage.csv)" 9
  local expected
  expected=$(python - cover <<'PY'
import csv, math, sys
rows = []
for seed in (1, 2):
    for point in csv.DictReader(open(f"{sys.argv[1]}/seed-{seed}/learning_curve.csv")):
        exact, estimate = float(point["train_log_likelihood_exact"]), float(point["train_log_likelihood"])
        inside = float(point["train_log_likelihood_lower"]) <= exact <= float(point["train_log_likelihood_upper"])
        rows.append(f"{seed},{point['update']},{exact - estimate:.4f},{int(inside)}")
print("\n".join(rows))
PY
)
  expect_equal "coverage table" "$(tail -n +2 cover/coverage.csv)" "$expected"
  expect_output_contains "inside the band: $(grep -c ',1$' <<<"$expected") of 8 evaluations"
  OUTPUT=$(bash "$script" "$RBMIX" 0 cover -- --data train.npy 2>&1)
  expect_equal "status of a bad seed count" "$?" 2
  expect_output_contains "usage: trajectory-coverage.sh"
}

# The progress line: quiet where stderr is not a terminal, whole lines there with --progress (the last one at 100 %
# with the latest monitored score), and --quiet and --progress together are refused.
case_train_progress() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --updates 50 --eval-every 25 --out quiet
  if grep -qF "train: update" <<<"$OUTPUT"; then fail "a progress line where stderr is not a terminal: $OUTPUT"; fi
  succeeds train --data bas.npy --hidden 4 --updates 50 --eval-every 25 --progress --out logged
  expect_output_contains "train: update 50/50 (100%)"
  expect_output_contains "train LL -"
  if grep -qF $'\r' <<<"$OUTPUT"; then fail "carriage returns in a log"; fi
  succeeds sample --model logged/model.npz --sampler gibbs --samples 20 --progress --out sample
  expect_output_contains "sample: sample 20/20 (100%)"
  rejects "--quiet" train --data bas.npy --hidden 4 --updates 5 --progress --quiet --out both
}

# --keep best writes the model of the best evaluation, whose exact log-likelihood is the one recorded; a run
# driven far below the uniform model's log-likelihood (−9 ln 2 on 3×3 Bars & Stripes) by a huge learning rate
# is warned about and the warning recorded.
case_train_keep_best_and_failure_warning() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 6 --algo pcd --lr 0.1 --batch 8 --updates 200 --eval-every 50 --keep best \
    --seed 1 --out run
  expect_files_listed run model.npz best-model.npz learning_curve.csv learning_curve.svg filters.png checkpoint.ckpt
  local best
  best=$(json_file_value run/run.json summary.best.train_log_likelihood)
  succeeds loglik --model run/best-model.npz --data bas.npy --exact --json
  expect_near "best model's log-likelihood" "$(json_value average_log_likelihood)" "$best" 1e-9
  expect_equal "no warning" "$(json_file_value run/run.json summary.warnings)" "[]"
  succeeds train --data bas.npy --hidden 6 --algo cd --lr 100 --updates 50 --eval-every 25 --seed 1 --out wild
  expect_output_contains "far below the uniform model"
  expect_near "uniform log-likelihood" "$(json_file_value wild/run.json summary.uniform_log_likelihood)" \
    "-$(times 9 "$(ln 2)")" 1e-9
  [[ "$(json_file_value wild/run.json summary.warnings)" == *"far below"* ]] || fail "the warning is not recorded"
}

# --rows N and --rows A:B train on a subset of the rows; a range beyond the data is refused naming --rows.
case_train_rows() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --updates 5 --eval-every 5 --rows 10 --out first
  expect_equal "rows of --rows 10" "$(json_file_value first/run.json configuration.training_samples)" 10
  succeeds train --data bas.npy --hidden 4 --updates 5 --eval-every 5 --rows 4:12 --out middle
  expect_equal "rows of --rows 4:12" "$(json_file_value middle/run.json configuration.rows)" "[4, 12]"
  rejects "--rows 0:100" train --data bas.npy --hidden 4 --rows 0:100 --out bad
  rejects "--rows 5:5" train --data bas.npy --hidden 4 --rows 5:5 --out bad
  rejects "--rows x" train --data bas.npy --hidden 4 --rows x --out bad
}

# Every command-line error is "rbmix: error: ..." with status 2; a misspelt option or subcommand gets the nearest
# names; a refused --hidden 0 prints no 300-digit bound.
case_command_line_errors() {
  succeeds data make bas --size 3 --out bas.npy
  rejects "did you mean --hidden?" train --data bas.npy --hiden 4 --out x
  expect_equal "status of an unknown option" "$STATUS" 2
  expect_output_contains "rbmix: error:"
  rejects "did you mean train?" trian --data bas.npy
  expect_equal "status of a misspelt subcommand" "$STATUS" 2
  rejects "did you mean make?" data mkae bas --size 3 --out y.npy
  rejects_clearly "at least 1, got 0" train --data bas.npy --hidden 0 --out x
  expect_equal "status of a value out of range" "$STATUS" 2
  expect_output_contains "rbmix: error:"
  rejects "--data is required" train --hidden 3 --out x
  expect_equal "status of a missing option" "$STATUS" 2
  succeeds train --help
  expect_output_contains "0 means full batch"
  # --help beside an unknown word reports the word, as without --help, instead of the help above it.
  rejects "NONEXISTENT" NONEXISTENT --help
  expect_equal "status of an unknown subcommand with --help" "$STATUS" 2
  rejects "did you mean dcp-small?" experiment dcp-smal --help
  expect_equal "status of a misspelt subcommand with --help" "$STATUS" 2
  rejects "--bogus" train --bogus --help
  expect_equal "status of an unknown option with --help" "$STATUS" 2
  # Control characters of an input are shown escaped, never sent to the terminal.
  rejects 'no\x1b[2Jsuch.npy' mixing --trace $'no\x1b[2Jsuch.npy'
  if grep -q $'\x1b' <<<"$OUTPUT"; then fail "an escape character reached the terminal: $OUTPUT"; fi
}

# --resume with a changed option names it, with both values.
case_train_resume_changed_option() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --lr 0.05 --updates 20 --eval-every 10 --seed 2 --out run
  rejects "learning_rate was 0.05, now 0.1" train --data bas.npy --hidden 4 --lr 0.1 --updates 20 --eval-every 10 \
    --seed 2 --out run --resume
  if grep -qF "fast_learning_rate" <<<"$OUTPUT"; then fail "names fast_learning_rate, never given: $OUTPUT"; fi
}

# Grey levels given to the binary trainer are refused with the option that reads them.
case_train_grey_levels_hint() {
  python - <<'PY'
import struct
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), }"
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open("grey.npy", "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    out.write(struct.pack("<12d", *([0.25, 0.5, 1.0] * 4)))
PY
  rejects "--resample-binarisation" train --data grey.npy --hidden 2 --out x
  succeeds train --data grey.npy --hidden 2 --batch 2 --updates 4 --eval-every 2 --resample-binarisation --out run
}

# S-DCP with one inner step is CD bit for bit (trainer.hpp): the run is warned about, and gives CD's model.
case_train_sdcp_warning() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --algo sdcp --updates 10 --eval-every 5 --seed 1 --out sdcp
  expect_output_contains "bit-identical numbers to --algo cd"
  succeeds train --data bas.npy --hidden 4 --algo cd --updates 10 --eval-every 5 --seed 1 --out cd
  same_parameters sdcp/model.npz cd/model.npz || fail "sdcp --d 1 differs from cd"
  succeeds train --data bas.npy --hidden 4 --algo csdcp --d 2 --updates 10 --eval-every 5 --seed 1 --out csdcp
  if grep -qF "bit-identical" <<<"$OUTPUT"; then fail "csdcp --d 2 warned: $OUTPUT"; fi
}

# rbmix transform writes p(h = 1 | v): under the zero model every feature is 1/2, under a model with hidden bias
# c and W = 0 it is σ(c) whatever the row.
case_transform() {
  succeeds data make bas --size 3 --out bas.npy
  make_zero_model zero.npz 9 4
  succeeds transform --model zero.npz --data bas.npy --out h.npy
  expect_output_contains "16 rows x 4 hidden units"
  python - <<'PY' || fail "h.npy is not a 16 x 4 float64 array of 0.5"
import ast, struct, sys
data = open("h.npy", "rb").read()
length = struct.unpack("<H", data[8:10])[0]
header = ast.literal_eval(data[10:10 + length].decode())
values = struct.unpack("<64d", data[10 + length:])
sys.exit(not (header["descr"] == "<f8" and header["shape"] == (16, 4) and all(v == 0.5 for v in values)))
PY
  write_random_rows four.npy 3 4 1
  rejects "9 visible units" transform --model zero.npz --data four.npy --out h.npy
}

# Every result directory holds run.json listing the files written beside it.
case_run_json_lists_files() {
  succeeds data make bas --size 3 --out bas.npy
  make_zero_model zero.npz 9 4
  succeeds sample --model zero.npz --sampler gibbs --samples 5 --out sample
  expect_files_listed sample samples.npy grey.npy samples.png
  succeeds isl --samples bas.npy --valid bas.npy --test bas.npy --counts 4,16 --out isl
  expect_files_listed isl isl.csv
  succeeds mrf train --data bas.npy --algo pl --updates 20 --eval-every 10 --out mrf
  expect_files_listed mrf model.npz
  succeeds model random --visible 9 --hidden 4 --weight-range 1 --seed 2 --out m.npz
  succeeds mixing --model m.npz --operator flip --steps 200 --burn-in 5 --seed 2 --out mixing
  expect_files_listed mixing autocorrelation.csv autocorrelation.svg
}

# One writer per output directory: while a run writes into a directory, every other command that would write there
# exits 2 naming the directory and the process holding it; a holder killed with SIGKILL leaves a stale lock file that
# the next run takes over.
case_one_writer_per_directory() {
  succeeds data make bas --size 3 --out bas.npy
  make_zero_model zero.npz 9 4
  succeeds mrf train --data bas.npy --algo pl --updates 20 --eval-every 10 --out mrf
  "$RBMIX" train --data bas.npy --hidden 6 --algo pcd --k 1 --updates 100000000 --eval-every 50000000 \
    --out busy >busy.log 2>&1 &
  local holder=$! waited=0
  while ! grep -qF "process $holder" busy/.rbmix.lock 2>/dev/null && ((waited < 300)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  local in_use="output directory 'busy' is in use by process $holder"
  local second
  for second in "train --data bas.npy --hidden 3 --updates 10 --seed 2" \
    "sample --model zero.npz --sampler gibbs --samples 5" \
    "mixing --model zero.npz --steps 100 --burn-in 0" \
    "isl --samples bas.npy --valid bas.npy --test bas.npy --counts 4,16" \
    "mrf train --data bas.npy --algo pl --updates 20 --eval-every 10" \
    "mrf loglik --model mrf/model.npz --data bas.npy" \
    "experiment autocorr --scale smoke --seed 2"; do
    # shellcheck disable=SC2086  # the command's words
    rejects "$in_use" $second --out busy
    expect_equal "status of a second writer ($second)" "$STATUS" 2
  done
  kill -KILL "$holder"
  wait "$holder" 2>/dev/null
  [[ -e busy/.rbmix.lock ]] || fail "SIGKILL left no lock file (the case tests nothing)"
  succeeds train --data bas.npy --hidden 3 --updates 10 --seed 2 --out busy
  [[ ! -e busy/.rbmix.lock ]] || fail "a finished run left its lock file behind"
}

# ---------------------------------------------------------------------------------------------------------------

# rbmix convergence: on the all-zero model every unit is a fair coin whatever the other layer, so one coupled Gibbs
# sweep makes any pair equal: every meeting time is L + 1 and the bound is 1 at t = 0 and 0 after (closed form). A
# tiny random model gets its bound beside the exact distance, with the files. The naive flip on the zero model is
# periodic: its pairs never meet with L = 1, and with L = 2 they meet but no bound is claimed.
case_convergence() {
  make_zero_model zero.npz 4 3
  succeeds convergence --model zero.npz --operator gibbs --lag 1 --pairs 10 --seed 2 --json
  expect_equal "pairs_met" "$(json_value pairs_met)" 10
  expect_equal "meeting time" "$(json_value meeting_times.9)" 2
  expect_equal "tv_bound" "$(json_value tv_bound)" "[1.0, 0.0]"
  expect_equal "exact_tv at t = 1" "$(json_value exact_tv.1)" 0.0
  succeeds model random --visible 4 --hidden 3 --weight-range 2 --bias-range 1 --seed 1 --out tiny.npz
  succeeds convergence --model tiny.npz --operator flip --lag 5 --pairs 50 --start ones --seed 3 --out run
  expect_output_contains "50 of 50 pairs met"
  expect_output_contains "exact_tv"
  for file in run.json bound.csv bound.svg; do [[ -s run/$file ]] || fail "convergence --out did not write $file"; done
  succeeds convergence --model zero.npz --operator naive --start zeros --lag 1 --pairs 10 --max-sweeps 50
  expect_output_contains "0 of 10 pairs met within 50 sweeps"
  expect_output_contains "no bound"
  succeeds convergence --model zero.npz --operator naive --start zeros --lag 2 --pairs 10 --max-sweeps 50 --json
  expect_equal "bound_available" "$(json_value bound_available)" false
  expect_equal "mixing_time_bound" "$(json_value mixing_time_bound)" null
  rejects "lag" convergence --model zero.npz --lag 0
  rejects "'sometimes'" convergence --model zero.npz --start sometimes
  rejects "absent.npy" convergence --model zero.npz --start data:absent.npy
  succeeds convergence --model tiny.npz --operator modified:gibbs --lag 5 --pairs 50 --seed 3 --json
  expect_equal "modified bound_available" "$(json_value bound_available)" true
  succeeds model random --visible 6 --hidden 5 --weight-range 1 --seed 1 --out eleven.npz
  rejects "at most 10 units" convergence --model eleven.npz --operator modified:gibbs
}

# rbmix experiment coupling at smoke scale (seconds): both tables, their CSVs and run.json; one thread or two give
# the same tables; a bad option is refused before anything is written.
case_experiment_coupling() {
  succeeds experiment coupling --scale smoke --threads 2 --seed 4 --out k2
  expect_output_contains "share where T's bound on t_mix(1/4) is below G's"
  expect_output_contains "bas4x4"
  for file in coupling_random.csv coupling_trained.csv run.json; do [[ -s "k2/$file" ]] || fail "coupling wrote no $file"; done
  succeeds experiment coupling --scale smoke --threads 1 --seed 4 --out k1
  for file in coupling_random.csv coupling_trained.csv; do
    cmp -s "k1/$file" "k2/$file" || fail "$file differs between one thread and two"
  done
  rejects "lag" experiment coupling --lag 0 --out t
  rejects "--settings: no setting 'bogus'" experiment coupling --settings bogus --out t
  succeeds experiment coupling --scale smoke --settings none --sizes 2 --c 1 --count 1 --out k0
  expect_output_contains "share where T's bound"
  [[ $(wc -l <k0/coupling_trained.csv) -eq 1 ]] || fail "--settings none bounded trained RBMs"
  [[ ! -e t ]] || fail "a refused experiment made its output directory"
}



# trajectory_records FILE: "OFFSET SIZE" of every record of a trajectory file (the header first); each record is
# framed as byte count (8 bytes) · payload · CRC-32 (8 bytes).
trajectory_records() {
  python - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
position = 0
while position < len(data):
    size = struct.unpack("<Q", data[position:position + 8])[0]
    print(position, 16 + size)
    position += 16 + size
PY
}

case_trajectory_and_ladders() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --algo cd --k 5 --lr 0.1 --updates 200 --eval-every 0 --seed 1 \
    --trajectory 11 --trajectory-spacing linear --out run
  succeeds trajectory list run/trajectory.rbtraj --json
  expect_equal "first update" "$(json_value models.0.update)" 0
  expect_equal "sixth update" "$(json_value models.5.update)" 100
  expect_equal "last update" "$(json_value models.10.update)" 200
  # The last model kept is the run's final model, bit for bit.
  succeeds trajectory extract run/trajectory.rbtraj --update 200 --out last.npz
  same_parameters last.npz run/model.npz || fail "the trajectory's last model differs from model.npz"
  rejects "kept no model at that update" trajectory extract run/trajectory.rbtraj --update 7 --out x.npz
  succeeds sample --ptt run/trajectory.rbtraj --chains 3 --samples 40 --seed 1 --out ptt
  for file in run.json samples.npy ladder.csv samples.png; do [[ -s ptt/$file ]] || fail "sample --ptt did not write $file"; done
  expect_output_contains "round trips"
  # In float: the same ladder, its record says so; 001's samplers run in double and refuse the flag.
  succeeds sample --ptt run/trajectory.rbtraj --chains 3 --samples 40 --seed 1 --float --out ptt-float
  [[ -s ptt-float/samples.npy ]] || fail "sample --ptt --float did not write samples.npy"
  expect_equal "float ladder recorded" "$(json_file_value ptt-float/run.json configuration.float)" True
  rejects "--float does not apply to --sampler gibbs" sample --model last.npz --sampler gibbs --float --out x
  succeeds convergence --ptt run/trajectory.rbtraj --pairs 10 --max-sweeps 1000 --seed 1 --json
  expect_equal "ladder pairs met" "$(json_value pairs_met)" 10
  expect_equal "ladder bound" "$(json_value bound_available)" true
  succeeds convergence --temperature-ladder --model last.npz --pairs 10 --max-sweeps 1000 --seed 1
  expect_output_contains "10 of 10 pairs of ladders met"
  # Particle Metropolis along the same path: every pair meets, the bound and its files are written, the proposals'
  # log Z-hat are recorded; it needs a path, and refuses a start of its own.
  succeeds convergence --ptt run/trajectory.rbtraj --particle-metropolis --pairs 10 --particles 10 --smc-steps 40 \
    --max-sweeps 200 --seed 1 --out pm
  expect_output_contains "10 of 10 pairs met"
  expect_output_contains "mass check: the proposals' mean Z-hat gives log Z = "
  for file in run.json bound.csv bound.svg; do [[ -s pm/$file ]] || fail "convergence --particle-metropolis did not write $file"; done
  # The mass check compares the proposals' mean Z-hat with the exact log Z of this small model.
  expect_equal "mass check reference" "$(json_file_value pm/run.json mass_check.reference)" exact
  expect_equal "mass check passed" "$(json_file_value pm/run.json mass_check.passed)" True
  rejects "--mass-gap must be at least 0 nats" convergence --ptt run/trajectory.rbtraj --particle-metropolis \
    --mass-gap -1
  succeeds convergence --ptt run/trajectory.rbtraj --particle-metropolis --pairs 10 --particles 10 --smc-steps 40 \
    --max-sweeps 200 --seed 1 --mass-gap inf --out pm-unchecked
  python -c 'import json, sys; sys.exit("mass_check" in json.load(open("pm-unchecked/run.json")))' ||
    fail "--mass-gap inf still ran the mass check"
  # Every proposal's log Z-hat: the first chains' and one start of each second chain.
  expect_equal "proposals recorded" "$(json_file_value pm/run.json particle_metropolis.proposal_log_partitions | \
    tr ',' '\n' | wc -l)" "$(($(json_file_value pm/run.json particle_metropolis.proposals_of_first_chains) + 10))"
  # The progress line counts the proposals as they are drawn, the pairs' starts included (seconds each at MNIST size).
  succeeds convergence --ptt run/trajectory.rbtraj --particle-metropolis --pairs 10 --particles 10 --smc-steps 40 \
    --max-sweeps 200 --seed 1 --progress
  expect_output_contains "10 of 10 pairs met, $(($(json_file_value pm/run.json particle_metropolis.proposals_of_first_chains) + 10)) proposals drawn"
  # The thread count changes no number.
  OMP_NUM_THREADS=1 succeeds convergence --ptt run/trajectory.rbtraj --particle-metropolis --pairs 4 --particles 64 \
    --smc-steps 40 --seed 2 --out pm-one-thread
  OMP_NUM_THREADS=2 succeeds convergence --ptt run/trajectory.rbtraj --particle-metropolis --pairs 4 --particles 64 \
    --smc-steps 40 --seed 2 --out pm-two-threads
  expect_equal "log Z-hat on 1 and 2 threads" \
    "$(json_file_value pm-one-thread/run.json particle_metropolis.proposal_log_partitions)" \
    "$(json_file_value pm-two-threads/run.json particle_metropolis.proposal_log_partitions)"
  rejects "--particle-metropolis needs a path" convergence --model last.npz --particle-metropolis
  # --base-rate: the temperature path from AIS's base-rate model of the rows instead of the uniform distribution
  # (rows whose means are not 1/2: BAS's base rate is the uniform distribution).
  succeeds data make shifting-bar --length 9 --bar 1 --out bar9.npy
  succeeds convergence --temperature-ladder --base-rate bar9.npy --model last.npz --particle-metropolis --pairs 10 \
    --particles 10 --smc-steps 40 --max-sweeps 200 --seed 1 --out pm-base-rate
  expect_output_contains "10 of 10 pairs met"
  expect_equal "base-rate path recorded" "$(json_file_value pm-base-rate/run.json particle_metropolis.path_start)" \
    "base rate of bar9.npy"
  expect_equal "base-rate path: mass check passed" "$(json_file_value pm-base-rate/run.json mass_check.passed)" True
  succeeds convergence --temperature-ladder --model last.npz --particle-metropolis --pairs 10 --particles 10 \
    --smc-steps 40 --max-sweeps 200 --seed 1 --out pm-uniform
  expect_equal "uniform path recorded" "$(json_file_value pm-uniform/run.json particle_metropolis.path_start)" uniform
  [[ "$(json_file_value pm-base-rate/run.json particle_metropolis.proposal_log_partitions)" != \
     "$(json_file_value pm-uniform/run.json particle_metropolis.proposal_log_partitions)" ]] ||
    fail "--base-rate did not change the proposals"
  rejects "--base-rate requires --temperature-ladder" convergence --ptt run/trajectory.rbtraj --base-rate bas.npy
  succeeds data make bas --size 2 --out bas2.npy
  rejects "--base-rate bas2.npy: rows of 4 units, but the model has 9 visible units" sample --temperature-ladder \
    --base-rate bas2.npy --model last.npz --particle-metropolis --out x
  # Samples of the same chains: --chains × --samples rows after --burn-in proposals; --burn-in is theirs alone.
  succeeds sample --ptt run/trajectory.rbtraj --particle-metropolis --chains 3 --samples 20 --burn-in 2 --particles 10 \
    --smc-steps 40 --seed 1 --out pm-samples
  expect_output_contains "60 samples (3 chain(s) × 20 after 2 proposals of burn-in)"
  expect_equal "particle Metropolis burn-in recorded" "$(json_file_value pm-samples/run.json configuration.burn_in)" 2
  [[ -s pm-samples/samples.npy ]] || fail "sample --particle-metropolis did not write samples.npy"
  expect_equal "the samples' mass check" "$(json_file_value pm-samples/run.json mass_check.reference)" exact
  expect_equal "the samples' mass check passed" "$(json_file_value pm-samples/run.json mass_check.passed)" True
  rejects "--burn-in is for --particle-metropolis" sample --ptt run/trajectory.rbtraj --burn-in 3 --out x
  rejects "--k does not apply to --sampler particle Metropolis" sample --ptt run/trajectory.rbtraj \
    --particle-metropolis --k 2 --out x
  rejects "each chain starts at a proposal" convergence --ptt run/trajectory.rbtraj --particle-metropolis \
    --start data:bas.npy
  rejects "at least one step per segment of the path (11), got 4" convergence --ptt run/trajectory.rbtraj \
    --particle-metropolis --smc-steps 4
  ((STATUS == 2)) || fail "too few SMC steps exited $STATUS, not 2"

  # Damaged, cut, out of order, of another shape, or a single model: refused by name, exit 2.
  read -r -a records < <(trajectory_records run/trajectory.rbtraj | awk '{ printf "%s ", $1 }')
  cp run/trajectory.rbtraj damaged.rbtraj
  printf '\x7f' | dd of=damaged.rbtraj bs=1 seek=$((records[3] + 60)) conv=notrunc status=none
  rejects "record 3 is damaged" trajectory list damaged.rbtraj
  ((STATUS == 2)) || fail "a damaged trajectory exited $STATUS, not 2"
  head -c -30 run/trajectory.rbtraj >cut.rbtraj
  rejects "is cut short" sample --ptt cut.rbtraj --out x
  head -c "${records[2]}" run/trajectory.rbtraj >one.rbtraj
  rejects "a ladder along a trajectory needs at least 2" convergence --ptt one.rbtraj --pairs 4
  ((STATUS == 2)) || fail "a one-model trajectory exited $STATUS, not 2"
  { head -c "${records[2]}" run/trajectory.rbtraj; tail -c +$((records[3] + 1)) run/trajectory.rbtraj | head -c $((records[4] - records[3]));
    tail -c +$((records[2] + 1)) run/trajectory.rbtraj | head -c $((records[3] - records[2])); } >swapped.rbtraj
  rejects "update numbers must increase" trajectory list swapped.rbtraj
  succeeds train --data bas.npy --hidden 5 --updates 10 --eval-every 0 --trajectory 2 --out wide
  read -r -a wide < <(trajectory_records wide/trajectory.rbtraj | awk '{ printf "%s ", $1 }')
  { cat run/trajectory.rbtraj; tail -c +$((wide[1] + 1)) wide/trajectory.rbtraj | head -c $((wide[2] - wide[1])); } >shapes.rbtraj
  rejects "record 12 (update 0) W" trajectory list shapes.rbtraj
  rejects "--model and --ptt" convergence --ptt run/trajectory.rbtraj --model last.npz
  rejects "--temperature-ladder needs --model" sample --temperature-ladder --out x
  rejects "at least 2 models" train --data bas.npy --hidden 4 --updates 10 --trajectory 1 --out bad
}

# rbmix trajectory log-partition: log Z of every saved model by Bennett's acceptance ratio chained from the exact
# independent model; the last model's within 5.5 standard errors of its exact log Z (4e-8 per run at this seed), the
# train log-likelihood beside it, the files written; bad input refused naming it, exit 2.
case_trajectory_log_partition() {
  succeeds data make bas --size 3 --out bas.npy
  succeeds train --data bas.npy --hidden 4 --algo cd --k 5 --lr 0.1 --updates 200 --eval-every 0 --seed 1 \
    --trajectory 5 --out run
  succeeds trajectory extract run/trajectory.rbtraj --update 200 --out last.npz
  succeeds loglik --model last.npz --data bas.npy --exact --json
  local exact_log_z exact_likelihood
  exact_log_z=$(json_value log_partition)
  exact_likelihood=$(json_value average_log_likelihood)
  succeeds trajectory log-partition run/trajectory.rbtraj --data bas.npy --samples 500 --sweeps 50 --seed 2 \
    --out estimate --json
  expect_equal "models" "$(json_value models.4.update)" 200
  local estimate standard_error
  estimate=$(json_value models.4.log_partition)
  standard_error=$(json_value models.4.log_partition_standard_error)
  expect_near "log Z of the last model" "$estimate" "$exact_log_z" "$(awk -v s="$standard_error" 'BEGIN { print 5.5 * s }')"
  expect_near "train log-likelihood" "$(json_value models.4.train_log_likelihood)" \
    "$(awk -v l="$exact_likelihood" -v z="$exact_log_z" -v e="$estimate" 'BEGIN { printf "%.12g", l + z - e }')" 1e-6
  expect_equal "distinct-rows verdict" "$(json_value exceeds_distinct_rows)" 0
  expect_equal "seed recorded" "$(json_value seed)" 2
  for file in run.json log_partition.csv; do [[ -s estimate/$file ]] || fail "trajectory log-partition did not write $file"; done
  succeeds trajectory log-partition run/trajectory.rbtraj --data bas.npy --samples 20 --sweeps 5 --progress
  expect_output_contains "trajectory log-partition: link 5/5 (100%)"
  # The monitor's sequential Monte Carlo along the saved models: the last model's log Z near the exact value (its
  # error over seeds 2 to 5 was at most 0.02; the C++ tests check the band), inside a finite band of its own.
  succeeds trajectory anneal run/trajectory.rbtraj --data bas.npy --particles 400 --step-size 0.05 --seed 2 \
    --out annealed --json
  expect_equal "annealed models" "$(json_value models.4.update)" 200
  expect_near "annealed log Z of the last model" "$(json_value models.4.log_partition)" "$exact_log_z" 0.1
  awk -v z="$(json_value models.4.log_partition)" -v lo="$(json_value models.4.log_partition_band.0)" \
    -v hi="$(json_value models.4.log_partition_band.1)" 'BEGIN { exit !(lo < z && z < hi && hi - lo < 1) }' ||
    fail "the annealed band of the last model is not a finite band around its estimate"
  for file in run.json log_partition.csv; do [[ -s annealed/$file ]] || fail "trajectory anneal did not write $file"; done
  succeeds trajectory anneal run/trajectory.rbtraj --data bas.npy --particles 20 --progress
  expect_output_contains "trajectory anneal: model 5/5 (100%)"
  rejects "--step-size" trajectory anneal run/trajectory.rbtraj --data bas.npy --step-size 0
  ((STATUS == 2)) || fail "--step-size 0 exited $STATUS, not 2"
  rejects "multiple" trajectory anneal run/trajectory.rbtraj --data bas.npy --particles 15
  [[ $(wc -l <estimate/log_partition.csv) -eq 6 ]] || fail "log_partition.csv does not hold a header and 5 models"
  # With every visible state as a training row the distinct-rows bound is the exact log Z, so few short chains put
  # some estimates below it (this seed: at least one): each such model is flagged, the run's verdict is 1, a warning
  # names the updates, and no other model is flagged.
  local state unit row
  for ((state = 0; state < 512; state++)); do
    row=""
    for ((unit = 0; unit < 9; unit++)); do row+="$(((state >> unit) & 1)),"; done
    echo "${row%,}"
  done >every_state.csv
  succeeds trajectory log-partition run/trajectory.rbtraj --data every_state.csv --samples 20 --sweeps 20 --seed 1 \
    --out flagged
  expect_output_contains "rbmix: warning: the estimated log Z lies below"
  OUTPUT=$(cat flagged/run.json)
  flatten_json
  expect_equal "run verdict" "$(json_value exceeds_distinct_rows)" 1
  expect_near "distinct-rows bound of the last model" "$(json_value models.4.distinct_rows_log_partition)" "$exact_log_z" 1e-9
  local model flagged=0
  for model in 0 1 2 3 4; do
    local below
    below=$(awk -v z="$(json_value models.$model.log_partition)" -v b="$(json_value models.$model.distinct_rows_log_partition)" \
      'BEGIN { print (z < b) ? 1 : 0 }')
    expect_equal "model $model flagged" "$(json_value models.$model.exceeds_distinct_rows)" "$below"
    flagged=$((flagged + below))
  done
  ((flagged > 0)) || fail "no estimate fell below the bound at this seed: the flag is not exercised"
  awk -F, 'NR > 1 && $NF == 1 { found = 1 } END { exit !found }' flagged/log_partition.csv ||
    fail "log_partition.csv flags no model"
  rejects "--samples: at least 2" trajectory log-partition run/trajectory.rbtraj --data bas.npy --samples 1
  ((STATUS == 2)) || fail "--samples 1 exited $STATUS, not 2"
  succeeds data make bas --size 2 --out narrow.npy
  rejects "--data narrow.npy has 4 columns" trajectory log-partition run/trajectory.rbtraj --data narrow.npy
  ((STATUS == 2)) || fail "rows of another width exited $STATUS, not 2"
  rejects "missing.rbtraj" trajectory log-partition missing.rbtraj --data bas.npy
  ((STATUS == 2)) || fail "a missing trajectory exited $STATUS, not 2"
}

run_case
