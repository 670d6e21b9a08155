#!/usr/bin/env bash
# Keeps the folders of lib/rbmix/ and analysis/rbmix/ in layers (docs/design.md §2): no folder includes a header of a
# folder that, directly or through others, includes one of its own; and the job engine (analysis/rbmix/jobs/) includes
# no experiment (analysis/rbmix/experiments/), so that experiments depend on it and never the reverse.
# Usage: check-folder-includes.sh [REPOSITORY_ROOT]   (default: the current directory)
# Fails (exit 1) naming the folders of a cycle, as tsort finds it, or the job engine's files that include an experiment.
set -euo pipefail
export LC_ALL=C

cd "${1:-.}"
# The engine first, by file: an include from it into an experiment also closes a cycle, which names only folders.
if upward="$(grep -rlE '#include "rbmix/experiments/' analysis/rbmix/jobs)"; then
  echo "check-folder-includes: the job engine includes an experiment (experiments depend on the engine, not the" \
       "reverse):" >&2
  echo "$upward" >&2
  exit 1
fi
edges="$(
  for file in $(find lib/rbmix analysis/rbmix -name '*.hpp' -o -name '*.cpp'); do
    folder="$(cut -d/ -f3 <<< "$file")"
    grep -oE '#include "rbmix/[a-z_]+/' "$file" | cut -d/ -f2 | grep -vxF "$folder" | sed "s/^/$folder /" || true
  done | sort -u
)"
if ! cycle="$(tsort <<< "$edges" 2>&1 > /dev/null)" || [[ -n "$cycle" ]]; then
  echo "check-folder-includes: the folders' includes form a cycle:" >&2
  echo "$cycle" >&2
  exit 1
fi
echo "check-folder-includes: no cycle between the folders of lib/rbmix/ and analysis/rbmix/, and the job engine" \
     "includes no experiment"
