#!/usr/bin/env bash
# Runs the shell examples of the documentation as a reader would copy them: run-doc-examples.sh RBMIX ROOT.
#  - README.md, section "A tour of the program": every ```sh block, in order, as one session;
#  - docs/*.md and docs/algorithms/*.md: every ```sh block marked runnable by an HTML comment on the line before it,
#    `<!-- runnable -->`, each file as one session.
# A README block preceded by `<!-- not run: REASON -->` (e.g. it downloads MNIST) is skipped. Each session runs
# with `bash -euo pipefail` in a fresh temporary directory where build/bin/rbmix is the program under test, so the
# examples' `rbmix=build/bin/rbmix` works as written. Fails (exit 1) naming the file and the block's first line.
set -euo pipefail

if [[ $# -ne 2 || ! -x "$1" || ! -f "$2/README.md" ]]; then
  echo "usage: run-doc-examples.sh RBMIX REPOSITORY_ROOT" >&2
  exit 2
fi
rbmix=$(readlink -f -- "$1")
root=$(readlink -f -- "$2")

# extract FILE MODE: prints the selected ```sh blocks of FILE, each followed by a line "#--- end of block N (line L)".
# MODE tour: the blocks of README.md's tour section not marked `not run`; MODE marked: blocks marked runnable.
extract() {
  awk -v mode="$2" '
    /^## / { in_tour = ($0 == "## A tour of the program") }
    /^```/ && inside { inside = 0; if (keep) printf "#--- end of block %d (line %d)\n", blocks, start; next }
    /^```sh[[:space:]]*$/ {
      inside = 1; start = NR; ++blocks
      keep = mode == "tour" ? in_tour && previous !~ /^<!-- not run:/ : previous ~ /^<!-- runnable -->/
      next
    }
    inside && keep { print }
    NF { previous = $0 }
  ' "$1"
}

# run_session NAME SCRIPT: runs SCRIPT in a fresh directory; on failure names the file and the block.
run_session() {
  local name=$1 script=$2 work status=0
  work=$(mktemp -d)
  mkdir -p "$work/build/bin"
  ln -s "$rbmix" "$work/build/bin/rbmix"
  { echo 'trap '"'"'echo "run-doc-examples: failed: $BASH_COMMAND" >&2'"'"' ERR'; printf '%s\n' "$script"; } >"$work/session.sh"
  (cd "$work" && bash -euo pipefail session.sh >"$work/output.txt" 2>&1) || status=$?
  if ((status != 0)); then
    echo "run-doc-examples: $name: a shell example failed (status $status); the end of its output:" >&2
    tail -n 25 "$work/output.txt" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$work"
  echo "run-doc-examples: $name: $(grep -c '^#--- end of block' <<<"$script") block(s) ran"
}

failures=0
tour=$(extract "$root/README.md" tour)
if [[ -z "$tour" ]]; then
  echo "run-doc-examples: README.md has no runnable \`\`\`sh block under '## A tour of the program'" >&2
  exit 1
fi
run_session "README.md (A tour of the program)" "$tour" || failures=$((failures + 1))
for file in "$root"/docs/*.md "$root"/docs/algorithms/*.md; do
  script=$(extract "$file" marked)
  [[ -n "$script" ]] || continue
  run_session "${file#"$root"/}" "$script" || failures=$((failures + 1))
done
((failures == 0))
