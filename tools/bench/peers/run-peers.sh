#!/usr/bin/env bash
# Installs the peers (PyTorch and scikit-learn from Debian; never in CI), builds rbmix, converts MNIST, and times
# rbmix's PCD-1 training against both, interleaved, printing the table of ratios (peers.py). Extra arguments go to
# peers.py, e.g. --fraction 0.1 --repeats 3 --shapes 500:100; --algorithm ais --distributions 1000 --shapes 500:100
# times `rbmix loglik --ais` against the same AIS in PyTorch (ais_pytorch.py) on briefly trained models, shapes being
# hidden:particles.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
if [[ "${CI:-}" == "true" ]]; then
  echo "run-peers: not run in CI (it installs PyTorch and takes minutes)" >&2
  exit 0
fi
# Debian's interpreter, where apt installs the peers (a python3 earlier on PATH may be another one).
python=/usr/bin/python3
missing=()
[[ -x $python ]] || missing+=(python3)
"$python" -c "import torch" 2>/dev/null || missing+=(python3-torch)
"$python" -c "import sklearn" 2>/dev/null || missing+=(python3-sklearn)
"$python" -c "import numpy" 2>/dev/null || missing+=(python3-numpy)
# The peers' BLAS: without it libblas.so.3 is the reference BLAS (rbmix itself uses no BLAS).
dpkg -s libopenblas0-pthread > /dev/null 2>&1 || missing+=(libopenblas0-pthread)
if ((${#missing[@]})); then
  sudo_if_needed=()
  [[ $(id -u) -ne 0 ]] && sudo_if_needed=(sudo)
  "${sudo_if_needed[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
bash "$root/tools/scripts/build.sh" > /dev/null
data_dir=${RBMIX_DATA_DIR:-$root/data}
[[ -f "$data_dir/mnist/train-images-idx3-ubyte" || -f "$data_dir/mnist/train-images-idx3-ubyte.gz" ]] ||
  "$root/build/bin/rbmix" data fetch mnist --dir "$data_dir/mnist"
[[ -f "$data_dir/mnist-npy/train.npy" ]] ||
  "$root/build/bin/rbmix" data convert-mnist --dir "$data_dir/mnist" --out-dir "$data_dir/mnist-npy" > /dev/null
"$python" "$root/tools/bench/peers/peers.py" --rbmix "$root/build/bin/rbmix" --data "$data_dir/mnist-npy/train.npy" \
  --out "${RBMIX_PEERS_OUT:-peers.json}" "$@"
