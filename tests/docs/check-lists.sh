#!/usr/bin/env bash
# Keeps the lists a reader relies on equal to what they list (docs/README.md, "Keeping it true").
# Usage: check-lists.sh REPOSITORY_ROOT [RBMIX_PROGRAM]
# Fails (exit 1, one line per problem) when
#  - docs/README.md's index leaves out a docs/*.md file or links one that does not exist;
#  - docs/algorithms.md leaves out an area file of docs/algorithms/ or a numbered section of one, or names one that
#    does not exist, or two area files number a section alike;
#  - README.md's "Layout" block or docs/design.md's "2. Layout" block leaves out a top-level folder or a folder of
#    tools/, or names one that does not exist; docs/design.md's leaves out a folder of lib/rbmix/ or analysis/rbmix/;
#  - lib/CMakeLists.txt's opening comment leaves out a folder of lib/rbmix/;
# and, given the rbmix program, when
#  - an experiment that `rbmix experiment --help` lists has no `rbmix experiment NAME` in docs/reproducing.md;
#  - README.md, docs/*.md or docs/algorithms/*.md shows a command (`rbmix NAME`, `$rbmix NAME`) or an experiment
#    (`rbmix experiment NAME`) that the program does not have.
set -euo pipefail
export LC_ALL=C

root="${1:?usage: check-lists.sh REPOSITORY_ROOT [RBMIX_PROGRAM]}"
program="${2:-}"
cd "$root"

problems=0
problem() {
  echo "check-lists: $*" >&2
  problems=$((problems + 1))
}

# 1. docs/README.md indexes every document of docs/, and only those.
index=docs/README.md
for document in docs/*.md; do
  name="${document#docs/}"
  [[ "$name" == README.md ]] && continue
  grep -qF "]($name)" "$index" || problem "$index: the index does not link $name"
done
while IFS= read -r linked; do
  [[ -f "docs/$linked" ]] || problem "$index: links $linked, which is not in docs/"
done < <(grep -oE '\]\([a-z_-]+[.]md\)' "$index" | sed -E 's/^\]\((.*)\)$/\1/' | sort -u)

# 1b. docs/algorithms.md, the index of the algorithms, links every area file of docs/algorithms/ and only those, and
#     its table of sections lists every numbered heading of the area files, each number once, with the file holding it.
algorithms=docs/algorithms.md
for area in docs/algorithms/*.md; do
  name="${area#docs/}"
  grep -qF "]($name)" "$algorithms" || problem "$algorithms: the map does not link $name"
done
while IFS= read -r linked; do
  [[ -f "docs/$linked" ]] || problem "$algorithms: links $linked, which is not in docs/algorithms/"
done < <(grep -oE '\]\(algorithms/[a-z_-]+[.]md\)' "$algorithms" | sed -E 's/^\]\((.*)\)$/\1/' | sort -u)
# "NUMBER FILE" for every numbered heading of the area files, and for every row of the index's table.
headings="$(for area in docs/algorithms/*.md; do
  grep -oE '^#+ [0-9]+(\.[0-9]+)*' "$area" | awk -v file="${area#docs/}" '{ sub(/\.$/, "", $2); print $2, file }'
done | sort)"
rows="$(grep -oE '^\| [0-9]+(\.[0-9]+)* \|.*\]\(algorithms/[a-z_-]+[.]md\) \|$' "$algorithms" |
  sed -E 's/^\| ([0-9.]+) \|.*\]\((algorithms\/[a-z_-]+[.]md)\) \|$/\1 \2/' | sort)"
while read -r number file; do
  [[ -n "$number" ]] && problem "docs/$file: §$number is not in $algorithms's table of sections with this file"
done < <(comm -23 <(echo "$headings") <(echo "$rows"))
while read -r number file; do
  [[ -n "$number" ]] && problem "$algorithms: its table puts §$number in $file, which has no such heading"
done < <(comm -13 <(echo "$headings") <(echo "$rows"))
while read -r number; do
  [[ -n "$number" ]] && problem "docs/algorithms/: §$number is a heading of more than one area file"
done < <(cut -d' ' -f1 <<< "$headings" | uniq -d)

# 2. The layouts, README.md's "Layout" block and docs/design.md's "2. Layout" block, each name every top-level folder
#    and every folder of tools/, and only those; docs/design.md's also every folder of lib/rbmix/ and analysis/rbmix/.
#    The folders are the tracked ones where the repository is a git checkout (a build folder is not part of it).
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  folders="$(git ls-files | grep / | cut -d/ -f1 | sort -u)"
  tool_folders="$(git ls-files tools | cut -d/ -f2 | grep -v '[.]' | sort -u)"
else
  folders="$(find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name 'build*' -printf '%f\n' | sort)"
  tool_folders="$(find tools -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)"
fi
# The fenced block under the heading $2 of file $1.
layout_block() {
  awk -v heading="$2" '$0 == heading { inside = 1; next } /^## / { inside = 0 } inside' "$1" |
    awk '/^```/ { fenced = !fenced; next } fenced'
}
# check_layout FILE HEADING: the block lists the top-level folders and those of tools/, and only those.
check_layout() {
  local file="$1" place="$1, ${2#\#\# }" layout folder
  layout="$(layout_block "$1" "$2")"
  [[ -n "$layout" ]] || problem "$file: no fenced block under '$2'"
  for folder in $folders; do
    [[ "$folder" == .* ]] && continue
    grep -qE "^$folder/" <<< "$layout" || problem "$place: the folder $folder/ is not listed"
  done
  for folder in $(grep -oE '^[a-z_-]+/' <<< "$layout" | tr -d /); do
    grep -qxF "$folder" <<< "$folders" || problem "$place: lists $folder/, which is not a folder of the repository"
  done
  for folder in $tool_folders; do
    grep -qF "tools/$folder" <<< "$layout" || problem "$place: the folder tools/$folder is not listed"
  done
  for folder in $(grep -oE 'tools/[a-z_-]+' <<< "$layout" | cut -d/ -f2 | sort -u); do
    grep -qxF "$folder" <<< "$tool_folders" || problem "$place: lists tools/$folder, which does not exist"
  done
}
check_layout README.md "## Layout"
check_layout docs/design.md "## 2. Layout"
design_layout="$(layout_block docs/design.md "## 2. Layout")"
for folder in lib/rbmix/*/; do
  folder="$(basename "$folder")"
  grep -qE "^  $folder/" <<< "$design_layout" ||
    problem "docs/design.md, 2. Layout: the folder lib/rbmix/$folder/ is not listed"
done
for folder in analysis/rbmix/*/; do
  folder="$(basename "$folder")"
  grep -qE "^  rbmix/$folder/" <<< "$design_layout" ||
    problem "docs/design.md, 2. Layout: the folder analysis/rbmix/$folder/ is not listed"
done

# 3. lib/CMakeLists.txt's opening comment names every folder of lib/rbmix/.
opening="$(awk '/^#/ { print; next } { exit }' lib/CMakeLists.txt)"
for folder in lib/rbmix/*/; do
  folder="$(basename "$folder")"
  grep -qw "$folder" <<< "$opening" || problem "lib/CMakeLists.txt: the opening comment does not name lib/rbmix/$folder"
done

# 4. The commands and experiments the documentation shows are the program's.
# The names under "Subcommands:" in the program's help for the words given.
subcommands() {
  "$program" "$@" --help | awk '/^Subcommands:/ { inside = 1; next } inside && /^$/ { inside = 0 } inside { print $1 }'
}
if [[ -n "$program" ]]; then
  commands="$(subcommands)"
  experiments="$(subcommands experiment)"
  [[ -n "$commands" && -n "$experiments" ]] || problem "$program: its --help lists no subcommands"
  for experiment in $experiments; do
    grep -qE "rbmix experiment $experiment\b" docs/reproducing.md ||
      problem "docs/reproducing.md: the experiment $experiment (rbmix experiment --help) is not described"
  done
  while IFS=: read -r file shown; do
    name="${shown##* }"
    grep -qxF "$name" <<< "$experiments" ||
      problem "$file: shows 'rbmix experiment $name', which the program does not have"
  done < <(grep -oE 'rbmix experiment [a-z][a-z-]*' README.md docs/*.md docs/algorithms/*.md | sort -u)
  while IFS=: read -r file shown; do
    name="${shown##* }"
    grep -qxF "$name" <<< "$commands" || problem "$file: shows 'rbmix $name', which the program does not have"
  done < <(grep -oE '(`|[$])rbmix [a-z][a-z-]*' README.md docs/*.md docs/algorithms/*.md | sort -u)
fi

if ((problems > 0)); then
  echo "check-lists: $problems problem(s)" >&2
  exit 1
fi
echo "check-lists: every list matches what it lists"
