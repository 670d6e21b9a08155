#!/usr/bin/env bash
# The Python package as a user installs it (docs/python.md, "Installing"): a copy of the source (the package's own
# sdist, checked to hold every file git tracks), a fresh virtual environment of the given interpreter that sees its
# system packages (Debian's numpy), then
#   pip wheel --no-deps .                with build isolation: a wheel with its dist-info,
#   pip install --no-build-isolation .   then rbmix.__version__ and pip's listing,
#   every Python test (tests/python) against the installed package, from outside the source tree,
#   pip uninstall rbmix                  which removes it;
# and in an environment without numpy, where no index can supply it, pip stops before building, naming numpy.
# pip never reaches an index (--no-index): the build backend needs only the standard library, numpy is the system's.
# The backend builds in BUILD_DIR, the test suite's own build tree, already configured for this interpreter, so the
# module is not compiled a second time (a fresh configure and build take as long as the first build of rbmix).
# Usage: check-pip-install.sh SOURCE_DIR BUILD_DIR PYTHON RBMIX_CLI
set -euo pipefail
source_dir=$1 build_dir=$2 python=$3 cli=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/sdist"
sdist=$(cd "$source_dir/tools/python/packaging" &&
        "$python" -B -c "import sys, rbmix_wheel_backend as b; print(b.build_sdist(sys.argv[1]))" "$work/sdist")
tar -xzf "$work/sdist/$sdist" -C "$work"
source_copy="$work/${sdist%.tar.gz}"
# In a git checkout, the sdist holds every tracked file (a source folder that looks like data is still source).
if git -C "$source_dir" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  missing=$(cd "$source_dir" && git ls-files | while read -r file; do
              [[ ! -e "$file" || -e "$source_copy/$file" ]] || echo "$file"; done)
  if [[ -n "$missing" ]]; then
    echo "the sdist lacks tracked files:" >&2
    echo "$missing" | head -n 20 >&2
    exit 1
  fi
fi

"$python" -m venv --system-site-packages "$work/venv"
venv_python="$work/venv/bin/python"
pip=("$venv_python" -m pip --disable-pip-version-check --no-input)

"${pip[@]}" wheel --no-index --no-deps --config-settings build-dir="$build_dir" -w "$work/wheels" "$source_copy" \
  > "$work/wheel.log" || { cat "$work/wheel.log"; exit 1; }
wheel=$(ls "$work/wheels"/rbmix-*.whl)
"$venv_python" - "$wheel" <<'PYTHON'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
dist_info = {name.split("/")[1] for name in names if ".dist-info/" in name}
assert {"METADATA", "WHEEL", "RECORD"} <= dist_info, f"the wheel's dist-info lacks files: {sorted(dist_info)}"
assert any(name.startswith("rbmix/_rbmix") for name in names) and "rbmix/sklearn.py" in names, names
PYTHON

"${pip[@]}" install --no-index --no-build-isolation --config-settings build-dir="$build_dir" "$source_copy" \
  > "$work/install.log" || { cat "$work/install.log"; exit 1; }
mkdir "$work/elsewhere" "$work/test-run"
cd "$work/elsewhere"  # away from any source tree and the tests' files: `import rbmix` must find the installed package
version=$("$venv_python" -c "import rbmix; print(rbmix.__version__)")
listed=$("${pip[@]}" list) files=$("${pip[@]}" show --files rbmix)
grep -q "^rbmix  *$version\$" <<< "$listed" || { echo "pip list does not list rbmix $version" >&2; exit 1; }
grep -q "rbmix/_rbmix" <<< "$files" || { echo "pip show --files rbmix lacks the module" >&2; exit 1; }

(cd "$work/test-run" && RBMIX_CLI=$cli RBMIX_SOURCE_DIR=$source_copy "$venv_python" -m pytest -q -p no:cacheprovider \
  "$source_copy/tests/python")

installed_in_venv="import rbmix, sys; sys.exit(0 if rbmix.__file__.startswith('$work/venv/') else 1)"
"$venv_python" -c "$installed_in_venv"

"${pip[@]}" uninstall -y rbmix > /dev/null
# A package installed outside pip (`cmake --install build --component python`, as run-demo.sh does) may still be
# importable through the system site directory; the environment's own must be gone.
if "$venv_python" -c "$installed_in_venv" 2> /dev/null || "${pip[@]}" show rbmix > /dev/null 2>&1; then
  echo "rbmix is still installed in the environment after pip uninstall" >&2
  exit 1
fi
"$python" -m venv "$work/bare"
if "$work/bare/bin/python" -m pip install --no-index --disable-pip-version-check "$source_copy" \
     > "$work/bare.log" 2>&1 ||
   ! grep -q "No matching distribution found for numpy" "$work/bare.log" ||
   grep -q "Building wheel" "$work/bare.log"; then
  echo "without numpy, pip install did not stop before building with the missing numpy:" >&2
  cat "$work/bare.log" >&2
  exit 1
fi
echo "pip install, tests and uninstall: rbmix $version; without numpy refused before building"
