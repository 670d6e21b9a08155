#!/usr/bin/env bash
# Keeps every citation in the repository resolvable from inside it (docs/README.md, "Keeping it true").
# Usage: check-citations.sh [REPOSITORY_ROOT]   (default: the current directory)
# Scans the sources, tests, proofs, scripts, Python and Markdown files; fails (exit 1, one line per problem) when one
#  - names one of the team's specification files, which are not part of the repository (see `forbidden` below);
#  - cites docs/NAME.md §N or docs/algorithms/NAME.md §N (inside docs/ without "docs/", and inside docs/algorithms/
#    also NAME.md §N for a file beside it) where the file or its heading N does not exist;
#  - cites a paper as "NNN §x" where NNN has no "### NNN" entry in docs/bibliography.md or the entry does not list §x.
set -euo pipefail
export LC_ALL=C

root="${1:-.}"
cd "$root"
bibliography=docs/bibliography.md
[[ -f "$bibliography" ]] || { echo "check-citations: $bibliography is missing" >&2; exit 1; }

scanned=()
for path in lib analysis tools tests proofs cmake docs .ci README.md CMakeLists.txt; do
  [[ -e "$path" ]] && scanned+=("$path")
done
includes=(--include='*.hpp' --include='*.cpp' --include='*.h' --include='*.md' --include='*.sh' --include='*.txt'
          --include='*.cmake' --include='*.in' --include='*.py' --include='run')

# Prints "file:line:match" for every match of an extended regular expression in the scanned files.
matches() { grep -rnoE "${includes[@]}" -e "$1" "${scanned[@]}" || true; }

problems=0
problem() {
  echo "check-citations: $*" >&2
  problems=$((problems + 1))
}

# 1. The specification files of the team are not in the repository: citing them leaves the reader stranded.
forbidden='(ALGORITHMS|DESIGN|STYLE)[.]md'
while IFS= read -r hit; do
  [[ -n "$hit" ]] && problem "${hit%:*}: cites '${hit##*:}', which is not part of the repository" \
    "(cite docs/algorithms/AREA.md §N, docs/design.md §N or docs/bibliography.md instead)"
done < <(matches "$forbidden")

# True when $1 has a heading numbered $2 ("## 2. Title" or "### 2.1 Title").
has_heading() {
  local number="${2//./\\.}"
  [[ -f "$1" ]] && grep -qE "^#+ ${number}\.?( |$)" "$1"
}

# 2. Sections of the documentation: docs/NAME.md §N and docs/algorithms/NAME.md §N, and the plain NAME.md §N the docs
#    use among themselves (a file of docs/ or, from docs/algorithms/, one beside it). A list "§1, §5" after one file
#    name cites every listed section. The sections of the algorithms live in docs/algorithms/, one file per area; a
#    citation of docs/algorithms.md §N is told which file holds §N now.
section='§[0-9]+(\.[0-9]+)*'
while IFS= read -r hit; do
  [[ -z "$hit" ]] && continue
  rest="${hit#*:}" && location="${hit%%:*}:${rest%%:*}" && text="${rest#*:}"
  [[ "$text" =~ (([a-z][a-z_-]*/)?[a-z][a-z_-]*)\.md ]] && name="${BASH_REMATCH[1]#docs/}"
  file="docs/$name.md"
  [[ -f "$file" || "${hit%%:*}" != docs/algorithms/* ]] || file="docs/algorithms/$name.md"
  for number in $(grep -oE "$section" <<<"$text" | tr -d '§'); do
    has_heading "$file" "$number" && continue
    holder=""
    [[ "$name" != algorithms ]] ||
      holder="$(grep -lE "^#+ ${number//./\\.}\.?( |$)" docs/algorithms/*.md 2> /dev/null | head -n 1 || true)"
    problem "$location: cites $file §$number, which does not exist${holder:+ (§$number is in $holder)}"
  done
done < <(matches "(^|[^A-Za-z_/.-])(docs/)?([a-z][a-z_-]*/)?[a-z][a-z_-]*\.md ${section}((, |/)${section})*")

# The sections each paper's bibliography entry lists: every §x between "### NNN" and the next heading, one per line.
declare -A listed=()
for label in $(grep -oE '^### [0-9]{3}$' "$bibliography" | cut -c5-); do
  listed[$label]="$(awk -v heading="### $label" '$0 == heading { inside = 1; next } /^#/ { inside = 0 } inside' \
    "$bibliography" | grep -oE "$section" | tr -d '§' | sort -u)"
done

# 3. Papers: "NNN §x", with "NNN §x/§y", "NNN §x–y" and "NNN §x, §y" citing each part.
while IFS= read -r hit; do
  [[ -z "$hit" ]] && continue
  rest="${hit#*:}" && location="${hit%%:*}:${rest%%:*}" && text="${rest#*:}"
  [[ "$text" =~ ([0-9]{3})\ (.*)$ ]] && label="${BASH_REMATCH[1]}" && cited="${BASH_REMATCH[2]}"
  if [[ -z "${listed[$label]+present}" ]]; then
    problem "$location: cites paper $label, which has no entry '### $label' in $bibliography"
    continue
  fi
  for number in $(grep -oE '[0-9]+(\.[0-9]+)*' <<<"$cited"); do
    grep -qxF "$number" <<<"${listed[$label]}" ||
      problem "$location: cites $label §$number, a section that $bibliography does not list for $label"
  done
done < <(matches "(^|[^0-9A-Za-z.])[0-9]{3} ${section}(((, |/)${section})|(–[0-9]+(\.[0-9]+)*))*")

if ((problems > 0)); then
  echo "check-citations: $problems problem(s); every citation must resolve inside the repository (docs/README.md)" >&2
  exit 1
fi
echo "check-citations: every citation resolves"
