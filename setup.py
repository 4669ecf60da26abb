"""Builds the swz Python module with CMake for `pip install .` (see pyproject.toml).

The extension swz._swz is the CMake target swz_python (python/CMakeLists.txt);
only it and the static library it links are built. The package version is the
CMake project version, read from CMakeLists.txt. Environment:
  CMAKE_ARGS                    extra CMake arguments (split on spaces)
  CMAKE_BUILD_PARALLEL_LEVEL    build jobs (default: the CPU count)
ccache is used as the compiler launcher when it is on the PATH and CMAKE_ARGS
names no launcher.
"""
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

# pip builds a wheel, which needs the `wheel` package: offline, a venv gets it
# from the system only when made with --system-site-packages. Without it pip's
# own message is "invalid command 'bdist_wheel'"; this one says what to do.
_WHEEL_COMMANDS = {"bdist_wheel", "dist_info", "editable_wheel"}
if _WHEEL_COMMANDS.intersection(sys.argv[1:]):
    if importlib.util.find_spec("wheel") is None:
        sys.stderr.write(
            f"swz: pip install needs the Python package wheel, which this environment ({sys.prefix}) lacks.\n"
            "  Offline on Debian 12 (README, Python): apt install python3-venv python3-setuptools python3-wheel "
            "python3-numpy pybind11-dev, then\n"
            "    python3 -m venv --system-site-packages v && v/bin/pip install --no-build-isolation .\n"
            "  Online: pip install . (build isolation fetches them).\n")
        sys.exit(1)

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\s*\(\s*swz\s+VERSION\s+([0-9]+(?:\.[0-9]+){0,3})", text)
    if not m:
        raise RuntimeError("CMakeLists.txt: no 'project(swz VERSION x.y.z' line to take the version from")
    return m.group(1)


class CMakeExtension(Extension):
    def __init__(self, name: str, target: str):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext: CMakeExtension) -> None:
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("swz: building the Python module needs cmake (Debian: apt-get install cmake)")
        build_dir = Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        out_path = Path(self.get_ext_fullpath(ext.name)).resolve()
        extra = shlex.split(os.environ.get("CMAKE_ARGS", ""))
        args = [
            f"-DCMAKE_BUILD_TYPE={'Debug' if self.debug else 'Release'}",
            f"-DPython3_EXECUTABLE={sys.executable}",
            # Only the module: no CLI, tests, benchmarks; the GPU path is not
            # used by the Python module.
            "-DSWZ_PYTHON=ON", "-DBUILD_SHARED_LIBS=OFF", "-DSWZ_CLI=OFF", "-DSWZ_TESTS=OFF", "-DSWZ_BENCH=OFF", "-DSWZ_GPU=OFF",
            "-DSWZ_FUZZ=OFF",
        ]
        try:  # pybind11 from pip (build isolation) carries its CMake package; Debian's pybind11-dev is found as usual
            import pybind11  # noqa: PLC0415

            if not any(a.startswith("-Dpybind11_DIR") for a in extra):
                args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        if shutil.which("ccache") and not any("COMPILER_LAUNCHER" in a for a in extra):
            args += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        subprocess.run([cmake, "-S", str(ROOT), "-B", str(build_dir), *args, *extra], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.run([cmake, "--build", str(build_dir), "--target", ext.target, "--parallel", jobs], check=True)
        built = sorted((build_dir / "python" / "swz").glob("_swz*.so"))
        if len(built) != 1:
            raise RuntimeError(f"swz: expected one _swz*.so in {build_dir / 'python' / 'swz'}, found {built}")
        out_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], out_path)


setup(
    version=cmake_project_version(),
    ext_modules=[CMakeExtension("swz._swz", target="swz_python")],
    cmdclass={"build_ext": CMakeBuild},
    # Not "build/": that is where the README's CMake build goes.
    options={"build": {"build_base": "build-pip"}},
    zip_safe=False,
)
