#!/usr/bin/env bash
# check-citations.sh refuses what it is there to refuse: on a copy of the repository's cited files, a citation of the
# old single file (docs/algorithms.md §N, told where §N is now), of a section that its area file does not hold (from
# C++ and from Python), of a file beside it in docs/algorithms/ without that section, and of a paper's unlisted
# section.
# Usage: check-citations-refuses.sh REPOSITORY_ROOT
set -euo pipefail
root="$(cd "${1:?usage: check-citations-refuses.sh REPOSITORY_ROOT}" && pwd)"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT

# expect_refusal WHAT FILE LINE MESSAGE: FILE given LINE makes the check fail with MESSAGE.
expect_refusal() {
  rm -rf "${copy:?}"/*
  (cd "$root" && cp -r --parents lib analysis tools tests proofs docs README.md "$copy/")
  printf '%s\n' "$3" >> "$copy/$2"
  local output status=0
  output="$(bash "$root/tests/docs/check-citations.sh" "$copy" 2>&1)" || status=$?
  if ((status != 1)) || ! grep -qF "$4" <<< "$output"; then
    echo "check-citations-refuses: $1 was not refused (exit $status): $output" >&2
    exit 1
  fi
}
# "§" stands apart from the numbers here, so that this file's own text cites nothing.
s="§"
expect_refusal "the old single file" lib/rbmix/core/error.hpp "// docs/algorithms.md ${s}6.2" \
  "cites docs/algorithms.md ${s}6.2, which does not exist (${s}6.2 is in docs/algorithms/mixing-metrics.md)"
expect_refusal "a section its area file does not hold" lib/rbmix/core/error.hpp \
  "// docs/algorithms/mixing-metrics.md ${s}6.7" "cites docs/algorithms/mixing-metrics.md ${s}6.7, which does not exist"
expect_refusal "a Python comment" tests/python/conftest.py "# docs/algorithms/training.md ${s}9" \
  "cites docs/algorithms/training.md ${s}9, which does not exist"
expect_refusal "a file beside it" docs/algorithms/training.md "As in mixing-metrics.md ${s}6.99." \
  "cites docs/algorithms/mixing-metrics.md ${s}6.99, which does not exist"
expect_refusal "a paper's unlisted section" lib/rbmix/core/error.hpp "// 003 ${s}9.9" \
  "cites 003 ${s}9.9, a section that docs/bibliography.md does not list"
bash "$root/tests/docs/check-citations.sh" "$root" > /dev/null
echo "check-citations-refuses: all refused, the repository itself passes"
