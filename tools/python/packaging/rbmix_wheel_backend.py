"""The PEP 517 build backend of the Python package rbmix (pyproject.toml, docs/python.md "Installing").

It needs nothing but the Python standard library (tomllib: Python 3.11 or later), so `pip install .` works where no
package index can be reached (pip installs a backend's requirements into an isolated environment first; this one has
none). A wheel is built by
CMake, the same build as tools/scripts/build.sh but of one target, the module rbmix._rbmix, for the interpreter that
runs pip:

    cmake -S <source> -B <build-dir> -DPython3_EXECUTABLE=<that interpreter> -DRBMIX_PYTHON=ON (tests, benchmarks
          and the CLI off; the unity build, CMakeLists.txt's default, as the demo builds the libraries and the module)
    cmake --build <build-dir> --target rbmix_python

then the package the build assembles in <build-dir>/python/rbmix is written into a wheel with its dist-info
(METADATA, WHEEL, RECORD, top_level.txt; PEP 427, core metadata 2.1). The version is the project's, read from the
`project(rbmix VERSION ...)` line of CMakeLists.txt: the one the CLI reports with --version and rbmix.__version__
returns.

Settings (`pip install . --config-settings NAME=VALUE`, the same for `pip wheel`; pip 23.1 and later also take
`-C NAME=VALUE`):
    build-dir   the CMake build directory; default build/wheel-<python tag> in the source tree, kept between
                installs so that the next one is incremental. A directory already configured (tools/scripts/build.sh's
                build/, say) is built as it is, not re-configured, and must have been configured for an
                interpreter of the same ABI as the one running pip.
    cmake-args  more arguments for the first configuration, separated by spaces (-DRBMIX_NATIVE=OFF for a wheel
                that runs on other x86-64 machines than this one).
"""

import base64
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[3]
# pyproject.toml's [project] table: name, description, requires-python, dependencies (numpy: pip checks it against
# what the environment has; a virtual environment made with --system-site-packages sees Debian's python3-numpy).
PROJECT = tomllib.loads((SOURCE_DIR / "pyproject.toml").read_text(encoding="utf-8"))["project"]
NAME = PROJECT["name"]
# What the sdist leaves out (.gitignore): at the top, build trees (build*), data, results and outputs; anywhere, git's
# files and Python's caches.
NOT_SOURCE_AT_TOP = {"data", "results", "out"}
NOT_SOURCE_ANYWHERE = {".git", "__pycache__"}


def project_version():
    """The VERSION of CMakeLists.txt's project() command, the one version of rbmix."""
    text = (SOURCE_DIR / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*rbmix\s+VERSION\s+([0-9][0-9.]*)", text)
    if match is None:
        raise RuntimeError(f"{SOURCE_DIR / 'CMakeLists.txt'}: no `project(rbmix VERSION x.y.z ...)` line")
    return match.group(1)


def python_tag():
    return f"cp{sys.version_info.major}{sys.version_info.minor}"


def wheel_tag():
    """python-abi-platform (PEP 425) of the interpreter running the build: the module is built for it alone."""
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python_tag()}-{python_tag()}{sys.abiflags}-{platform}"


def distribution_name():
    return f"{NAME}-{project_version()}"


def metadata_text():
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {project_version()}",
        f"Summary: {PROJECT['description']}",
        f"Requires-Python: {PROJECT['requires-python']}",
    ]
    lines += [f"Requires-Dist: {requirement}" for requirement in PROJECT["dependencies"]]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + (SOURCE_DIR / PROJECT["readme"]).read_text(encoding="utf-8")


def wheel_text():
    return f"Wheel-Version: 1.0\nGenerator: {NAME} build backend\nRoot-Is-Purelib: false\nTag: {wheel_tag()}\n"


def write_dist_info(directory):
    """The dist-info files other than RECORD; returns their names relative to `directory`'s parent."""
    directory.mkdir(parents=True, exist_ok=True)
    files = {"METADATA": metadata_text(), "WHEEL": wheel_text(), "top_level.txt": NAME + "\n"}
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return sorted(files)


def run(command):
    print("+", shlex.join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True)


def build_directory(config_settings):
    configured = (config_settings or {}).get("build-dir")
    if configured:
        return Path(configured).resolve()
    return SOURCE_DIR / "build" / f"wheel-{python_tag()}"


def build_module(config_settings):
    """Configures (once) and builds the module; returns the directory of the assembled package."""
    build_dir = build_directory(config_settings)
    # Configured: a cache and a build system (a failed configuration leaves the cache alone; it is configured again).
    configured = (build_dir / "CMakeCache.txt").exists() and any(
        (build_dir / name).exists() for name in ("build.ninja", "Makefile"))
    if not configured:
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        extra = shlex.split((config_settings or {}).get("cmake-args", ""))
        run(["cmake", "-S", SOURCE_DIR, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=Release",
             "-DRBMIX_BUILD_TESTS=OFF", "-DRBMIX_BUILD_BENCHMARKS=OFF", "-DRBMIX_BUILD_TOOLS=OFF",
             "-DRBMIX_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}", *extra])
    parallel = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
    run(["cmake", "--build", build_dir, "--target", "rbmix_python", "--parallel", parallel])
    package = build_dir / "python" / NAME
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not (package / f"_rbmix{suffix}").exists():
        built = sorted(path.name for path in package.glob("_rbmix*"))
        raise RuntimeError(f"build-dir {build_dir}: configured for another Python (it holds {built}, this "
                           f"interpreter, {sys.executable}, loads _rbmix{suffix}); give a new build-dir")
    return package


def record_line(path, archive_name):
    data = path.read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{archive_name},sha256={digest},{len(data)}"


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = f"{distribution_name()}.dist-info"
    write_dist_info(Path(metadata_directory) / dist_info)
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = build_module(config_settings)
    wheel_name = f"{distribution_name()}-{wheel_tag()}.whl"
    dist_info = f"{distribution_name()}.dist-info"
    staging = Path(wheel_directory) / f".{wheel_name}.dist-info"
    shutil.rmtree(staging, ignore_errors=True)
    names = write_dist_info(staging)
    records = []
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for path in sorted(package.iterdir()):
            # Only this interpreter's module: a build directory may hold another's from an earlier configuration.
            if path.is_file() and (not path.name.startswith("_rbmix") or path.name == f"_rbmix{suffix}"):
                archive_name = f"{NAME}/{path.name}"
                wheel.write(path, archive_name)
                records.append(record_line(path, archive_name))
        for name in names:
            wheel.write(staging / name, f"{dist_info}/{name}")
            records.append(record_line(staging / name, f"{dist_info}/{name}"))
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    shutil.rmtree(staging)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The source tree without build trees, data and results, with PKG-INFO at its top (PEP 517, core metadata)."""
    base = distribution_name()
    sdist_name = f"{base}.tar.gz"

    def source_only(info):
        parts = Path(info.name).parts[1:]
        if parts and (parts[0].startswith("build") or parts[0] in NOT_SOURCE_AT_TOP or
                      any(part in NOT_SOURCE_ANYWHERE for part in parts)):
            return None
        return info

    with tarfile.open(Path(sdist_directory) / sdist_name, "w:gz") as sdist:
        for path in sorted(SOURCE_DIR.iterdir()):
            sdist.add(path, f"{base}/{path.name}", filter=source_only)
        pkg_info = metadata_text().encode("utf-8")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(pkg_info)
        sdist.addfile(info, io.BytesIO(pkg_info))
    return sdist_name
