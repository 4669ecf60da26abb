#!/usr/bin/env bash
# pip packaging test: installs swz with pip into a fresh venv (Debian's
# setuptools/wheel/pybind11/numpy through --system-site-packages, no network),
# checks the version and import, runs the pytest suite (python/tests) against
# the INSTALLED package (not a build tree), then uninstalls it.
# CMake reuses build-pip/ from an earlier run and ccache when it is installed.
#   SWZ_PYTHON   interpreter to make the venv from (default /usr/bin/python3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
PY=${SWZ_PYTHON:-/usr/bin/python3}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}
unset PYTHONPATH

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
VENV=$WORK/venv

echo "==> pip: a bare venv (no --system-site-packages, no wheel) is refused with a message naming the fix"
"$PY" -m venv "$WORK/bare"
if "$WORK/bare/bin/python" -c "import wheel" 2>/dev/null; then
  echo "    (skipped: this Python's venv comes with wheel)"
else
  if "$WORK/bare/bin/pip" install --no-build-isolation --no-cache-dir --no-index --disable-pip-version-check -q . \
    >"$WORK/bare.log" 2>&1; then
    echo "pip install in a bare venv succeeded without wheel?" >&2; exit 1
  fi
  grep -q -- "--system-site-packages" "$WORK/bare.log" && grep -q "needs the Python package wheel" "$WORK/bare.log" ||
    { cat "$WORK/bare.log" >&2; echo "pip's error in a bare venv does not point to --system-site-packages" >&2; exit 1; }
  echo "    refused, pointing to --system-site-packages"
fi

echo "==> pip: fresh venv in $VENV"
"$PY" -m venv --system-site-packages "$VENV"

echo "==> pip install --no-build-isolation ."
"$VENV/bin/pip" install --no-build-isolation --no-cache-dir --no-index --disable-pip-version-check -q .

want=$(sed -n 's/^project(swz VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
got=$("$VENV/bin/pip" show swz | sed -n 's/^Version: //p')
[ "$got" = "$want" ] || { echo "pip show swz: version '$got', CMakeLists.txt says '$want'" >&2; exit 1; }
echo "    pip show swz: Version $got"

cd "$WORK"   # away from the source tree: python/ must not shadow the install
"$VENV/bin/python" - "$VENV" "$want" <<'PY'
import os, sys, swz
venv, want = sys.argv[1], sys.argv[2]
where = os.path.realpath(swz.__file__)
assert where.startswith(os.path.realpath(venv) + os.sep), f"swz imported from {where}, not the venv"
assert swz.__version__ == want, (swz.__version__, want)
print(f"    import swz: {swz.__version__} from {os.path.dirname(where)}")
PY

echo "==> pytest python/tests against the installed package"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/python/tests"

echo "==> pip uninstall swz"
"$VENV/bin/pip" uninstall -y -q swz
if "$VENV/bin/python" -c "import swz" 2>/dev/null; then
  echo "swz still importable after pip uninstall" >&2; exit 1
fi
left=$(find "$VENV" -path '*site-packages/swz*' | head -5)
[ -z "$left" ] || { echo "left after uninstall: $left" >&2; exit 1; }
echo "==> pip test passed"
