#!/usr/bin/env bash
# check-folder-includes.sh refuses what it is there to refuse: on a copy of lib/rbmix/ and analysis/rbmix/, an engine
# file that includes an experiment, and a lib/ folder that includes one of analysis/ (a cycle through the folders).
# Usage: check-folder-includes-refuses.sh REPOSITORY_ROOT
set -euo pipefail
root="$(cd "${1:?usage: check-folder-includes-refuses.sh REPOSITORY_ROOT}" && pwd)"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT

# expect_refusal WHAT FILE INCLUDE MESSAGE: FILE given INCLUDE makes the check fail with MESSAGE.
expect_refusal() {
  rm -rf "$copy/lib" "$copy/analysis"
  mkdir -p "$copy/lib" "$copy/analysis"
  cp -r "$root/lib/rbmix" "$copy/lib/"
  cp -r "$root/analysis/rbmix" "$copy/analysis/"
  printf '#include "%s"\n' "$3" >> "$copy/$2"
  local output status=0
  output="$(bash "$root/tests/docs/check-folder-includes.sh" "$copy" 2>&1)" || status=$?
  if ((status != 1)) || ! grep -qF "$4" <<< "$output"; then
    echo "check-folder-includes-refuses: $1 was not refused (exit $status): $output" >&2
    exit 1
  fi
}
expect_refusal "an engine file including an experiment" analysis/rbmix/jobs/trial_seed.cpp \
  rbmix/experiments/experiment.hpp "the job engine includes an experiment"
expect_refusal "a cycle through the folders" lib/rbmix/core/error.hpp rbmix/analysis/slem.hpp "form a cycle"
bash "$root/tests/docs/check-folder-includes.sh" "$root" > /dev/null
echo "check-folder-includes-refuses: both refused, the repository itself passes"
