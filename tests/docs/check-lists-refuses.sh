#!/usr/bin/env bash
# check-lists.sh refuses drift between docs/algorithms.md and its area files: on a copy of the repository, an area
# file the map does not link, a section the table leaves out, a row that puts a section in the wrong file, and a
# section number two area files share.
# Usage: check-lists-refuses.sh REPOSITORY_ROOT
set -euo pipefail
root="$(cd "${1:?usage: check-lists-refuses.sh REPOSITORY_ROOT}" && pwd)"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT

# expect_refusal WHAT MESSAGE COMMAND...: COMMAND, run in a fresh copy, makes the check fail with MESSAGE.
expect_refusal() {
  local what="$1" message="$2" output status=0
  shift 2
  rm -rf "${copy:?}"/*
  (cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$copy")
  (cd "$copy" && "$@")
  output="$(bash "$root/tests/docs/check-lists.sh" "$copy" 2>&1)" || status=$?
  if ((status != 1)) || ! grep -qF "$message" <<< "$output"; then
    echo "check-lists-refuses: $what was not refused (exit $status): $output" >&2
    exit 1
  fi
}
expect_refusal "an area file the map does not link" "the map does not link algorithms/new-area.md" \
  touch docs/algorithms/new-area.md
expect_refusal "a section the table leaves out" "docs/algorithms/calibration.md: §6.7.1 is not in" \
  sed -i '/^| 6\.7\.1 |/d' docs/algorithms.md
expect_refusal "a row in the wrong file" "its table puts §2.6 in algorithms/training.md, which has no such heading" \
  sed -i 's#^\(| 2\.6 |.*\)\[algorithms/operators\.md\](algorithms/operators\.md)#\1[algorithms/training.md](algorithms/training.md)#' \
  docs/algorithms.md
expect_refusal "a number two files share" "§3.1 is a heading of more than one area file" \
  sed -i '$a ### 3.1 Twice' docs/algorithms/pcd-study.md
bash "$root/tests/docs/check-lists.sh" "$root" > /dev/null
echo "check-lists-refuses: all refused, the repository itself passes"
