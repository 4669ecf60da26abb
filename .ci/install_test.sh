#!/usr/bin/env bash
# Install test: installs swz three ways into fresh prefixes and uses each
# installed package the way consumers do:
#   - readme: the README's install recipe, verbatim but for its folders
#     (-DSWZ_LIBRARY_ONLY=ON, build, install): the library alone;
#   - static: only the library target is built, then a plain `cmake --install`
#     with the default options (components not built are skipped);
#   - shared: library, CLI and Python module; checks the SONAME, that only the
#     API is exported, the rpath of bin/swz and of the module, and that the
#     `lib` component alone holds just the runtime library;
#   - each: the installed CMake package names none of the private
#     dependencies; tests/consumer (C++ and C) is configured with
#     -DCMAKE_DISABLE_FIND_PACKAGE_<dep>=ON for each of them (hwy, xsimd, xtl,
#     nlohmann_json, Vulkan, VulkanHeaders, astcenc), built and run; the README's CMake
#     recipe (find_package + swz::swz, no C++ standard set by the project) and
#     its pkg-config recipe (the same command for static and shared, run
#     without LD_LIBRARY_PATH) are run verbatim, and the pkg-config one must
#     print what the README says; the C API test (tests/capi/test_capi.c) is
#     compiled with gcc -std=c99 -Wall -Wextra -pedantic -Werror through
#     pkg-config and run.
# Build folders build-install-{readme,static,shared} are kept to make reruns
# fast; ccache is used when installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
JOBS=$(nproc 2>/dev/null || echo 2)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

LAUNCH=()
if command -v ccache >/dev/null 2>&1; then
  LAUNCH=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
DISABLE=()
for dep in hwy xsimd xtl nlohmann_json Vulkan VulkanHeaders astcenc; do
  DISABLE+=("-DCMAKE_DISABLE_FIND_PACKAGE_${dep}=ON")
done
CFLAGS_STRICT=(-std=c99 -Wall -Wextra -pedantic -Werror)
VERSION=$(sed -n 's/^project(swz VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
SOVERSION=$(echo "$VERSION" | awk -F. '$1 == 0 { print $1 "." $2; next } { print $1 }')

fail() { echo "install_test: $*" >&2; exit 1; }

# The README's install recipe, verbatim but for its folders (build -> build-install-readme,
# /opt/swz -> a fresh prefix): a library-only build (-DSWZ_LIBRARY_ONLY=ON), installed.
echo "==> README install recipe (-DSWZ_LIBRARY_ONLY=ON)"
BR=$ROOT/build-install-readme
PR=$WORK/prefix-readme
cmake -DREADME="$ROOT/README.md" -DOUT="$WORK/install-recipe.sh" -DLANG=sh \
  -DMARKER="<!-- install recipe: run by .ci/install_test.sh -->" -P tests/capi/extract_readme_example.cmake
sed -E -i "s#(-B|--build|--install) build#\1 $BR#g; s#/opt/swz#$PR#g" "$WORK/install-recipe.sh"
grep -q -- "-B $BR" "$WORK/install-recipe.sh" || fail "README install recipe: no 'cmake -S . -B build' line: $(cat "$WORK/install-recipe.sh")"
# ccache and the job count come from the environment, as a user's would.
(export CMAKE_BUILD_PARALLEL_LEVEL=$JOBS; command -v ccache >/dev/null && export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
 bash -e "$WORK/install-recipe.sh") >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "README install recipe failed: $(cat "$WORK/install-recipe.sh")"; }
targets=$(cmake --build "$BR" --target help | awk '{ print $2 }')
extra=$(grep -xE 'swz_cli|swz_python|swz_tests|swz_test_simd|swz_bench.*' <<<"$targets" || true)
[ -z "$extra" ] || fail "SWZ_LIBRARY_ONLY builds more than the library: $extra"
[ -f "$PR/lib/libswz.a" ] && [ -f "$PR/include/swz/swz.h" ] && [ -f "$PR/lib/pkgconfig/swz.pc" ] && [ ! -e "$PR/bin/swz" ] ||
  fail "README install recipe: $PR lacks lib/libswz.a, include/swz/swz.h or lib/pkgconfig/swz.pc, or has bin/swz: $(find "$PR" -maxdepth 2)"
echo "    library only: $(find "$PR" -type f | wc -l) files in the prefix, no CLI, no Python module"

for kind in readme static shared; do
  B=$ROOT/build-install-$kind
  P=$WORK/prefix-$kind
  if [ "$kind" = readme ]; then
    echo "==> [readme] the prefix the README install recipe made ($P)"
  elif [ "$kind" = static ]; then
    echo "==> [$kind] configure + build ($B)"
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DSWZ_TESTS=OFF -DSWZ_BENCH=OFF \
      "${LAUNCH[@]}" >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] configure failed"; }
    # Only the library: the install below must still work with the default options.
    cmake --build "$B" -j "$JOBS" --target swz >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] build failed"; }
    rm -f "$B/bin/swz"
  else
    echo "==> [$kind] configure + build ($B)"
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DSWZ_TESTS=OFF -DSWZ_BENCH=OFF \
      -DSWZ_PYTHON=ON "${LAUNCH[@]}" >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] configure failed"; }
    cmake --build "$B" -j "$JOBS" --target swz swz_cli swz_python >"$WORK/log" 2>&1 ||
      { cat "$WORK/log"; fail "[$kind] build failed"; }
  fi

  if [ "$kind" != readme ]; then
    echo "==> [$kind] cmake --install --prefix $P"
    cmake --install "$B" --prefix "$P" >/dev/null
  fi
  LIBDIR=$(dirname "$(find "$P" -name 'swz.pc' -path '*pkgconfig*' | head -1)")/..
  LIBDIR=$(cd "$LIBDIR" && pwd)
  # (comments aside; the runtime files libhwy.so.1 / libvulkan.so.1 / libastcenc.so.3d are fine)
  if grep -nE 'hwy::|xsimd|xtl|nlohmann|Vulkan::|astcenc::|find_dependency\((hwy|Vulkan|astcenc)' "$LIBDIR"/cmake/swz/*.cmake | grep -vE '^[^:]*:[0-9]+: *#'; then
    fail "[$kind] the installed CMake package names a private dependency (above)"
  fi

  if [ "$kind" != shared ]; then
    [ ! -e "$P/bin/swz" ] && [ -z "$(find "$P" -path '*/swz/__init__.py')" ] ||
      fail "[$kind] parts that were not built got installed"
    echo "    library-only build installed (CLI and Python module skipped)"
  else
    so=$LIBDIR/libswz.so
    [ -L "$so" ] || fail "no $so"
    soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$soname" = "libswz.so.$SOVERSION" ] || fail "SONAME '$soname', expected libswz.so.$SOVERSION"
    echo "    SONAME $soname"
    # Exported: swz_* (C), namespace swz (C++) and its typeinfo/vtables only.
    leaked=$(nm -D --defined-only -C "$so" | awk '{ $1 = ""; $2 = ""; sub(/^  /, ""); print }' |
      grep -vE '^(swz_|swz::|typeinfo for swz::|typeinfo name for swz::|vtable for swz::|guard variable for swz::)' |
      grep -vE '^(SWZ_|VERS_|_init$|_fini$)' || true)
    [ -z "$leaked" ] || fail "libswz.so exports symbols outside the API: $(echo "$leaked" | head -5)"
    nexp=$(nm -D --defined-only "$so" | grep -c ' swz_' || true)
    echo "    exports: $nexp C functions (swz_*) + namespace swz; nothing else"
    "$P/bin/swz" --version >/dev/null || fail "installed bin/swz does not run (rpath?)"
    pydir=$(dirname "$(find "$P" -name '__init__.py' -path '*/swz/*' | head -1)")/..
    (cd "$WORK" && PYTHONPATH=$pydir /usr/bin/python3 -c "import swz; assert swz.__version__ == '$VERSION'") ||
      fail "installed Python module does not import (rpath?)"
    echo "    bin/swz and the Python module run from the prefix"
    # swz.pc: an rpath for this prefix (outside the linker's directories), none for /usr.
    grep -q '^Libs: .*-Wl,-rpath,${libdir}' "$LIBDIR/pkgconfig/swz.pc" || fail "swz.pc for $P has no rpath: $(grep ^Libs "$LIBDIR/pkgconfig/swz.pc")"
    DESTDIR=$WORK/destdir cmake --install "$B" --prefix /usr --component dev >/dev/null
    usr_pc=$(find "$WORK/destdir" -name swz.pc | head -1)
    [ -n "$usr_pc" ] && ! grep -q rpath "$usr_pc" || fail "swz.pc for /usr has an rpath: $(grep ^Libs "$usr_pc")"
    echo "    swz.pc: -Wl,-rpath,\${libdir} for $P, none for /usr"
    # The lib component alone: the runtime library and nothing else.
    cmake --install "$B" --prefix "$WORK/lib-only" --component lib >/dev/null
    others=$(find "$WORK/lib-only" \( -type f -o -type l \) ! -name "libswz.so.*")
    [ -z "$others" ] || fail "component lib installs more than libswz.so.*: $others"
  fi

  echo "==> [$kind] tests/consumer with the private dependencies' packages disabled"
  cmake --no-warn-unused-cli -S tests/consumer -B "$WORK/consumer-$kind" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$P" \
    "${DISABLE[@]}" "${LAUNCH[@]}" >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] tests/consumer: configure failed"; }
  cmake --build "$WORK/consumer-$kind" -j "$JOBS" >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] tests/consumer: build failed"; }
  (cd "$WORK/consumer-$kind" && ctest --output-on-failure -V | grep -E '^[0-9]+: consumer_|tests passed')

  echo "==> [$kind] README's CMake recipe: find_package(swz) + swz::swz, no C++ standard set by the project"
  R=$WORK/readme-cmake-$kind
  mkdir -p "$R"
  cmake -DREADME="$ROOT/README.md" -DOUT="$R/recipe.cmake" -DLANG=cmake \
    -DMARKER="<!-- CMake consumer: built and run by .ci/install_test.sh, static and shared -->" \
    -P tests/capi/extract_readme_example.cmake
  cp tests/consumer/consumer.cpp "$R/app.cpp"
  { echo "cmake_minimum_required(VERSION 3.20)"; echo "project(app LANGUAGES CXX)"; echo "add_executable(app app.cpp)"
    cat "$R/recipe.cmake"; } >"$R/CMakeLists.txt"
  cmake --no-warn-unused-cli -S "$R" -B "$R/build" -DCMAKE_PREFIX_PATH="$P" "${DISABLE[@]}" "${LAUNCH[@]}" \
    >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] README CMake recipe: configure failed"; }
  cmake --build "$R/build" >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "[$kind] README CMake recipe: build failed"; }
  "$R/build/app" >/dev/null || fail "[$kind] README CMake recipe: app failed"
  echo "    README CMake recipe: built and ran"

  echo "==> [$kind] README's pkg-config recipe, verbatim (prefix /opt/swz -> $P), no LD_LIBRARY_PATH"
  R=$WORK/readme-pc-$kind
  mkdir -p "$R"
  cmake -DREADME="$ROOT/README.md" -DOUT="$R/app.c" -P tests/capi/extract_readme_example.cmake
  cmake -DREADME="$ROOT/README.md" -DOUT="$R/recipe.sh" -DLANG=sh \
    -DMARKER="<!-- pkg-config recipe: run by .ci/install_test.sh, static and shared -->" \
    -P tests/capi/extract_readme_example.cmake
  want=$(sed -n 's/^It prints `\(ok: [^`]*\)`.*/\1/p' README.md | head -1)
  [ -n "$want" ] || fail "README: no 'It prints \`ok: ...\`' line after the pkg-config recipe"
  sed -i "s|/opt/swz|$P|g" "$R/recipe.sh"
  got=$(cd "$R" && env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH bash -e recipe.sh) ||
    fail "[$kind] README pkg-config recipe failed: $(cat "$R/recipe.sh")"
  [ "$got" = "$want" ] || fail "[$kind] README pkg-config recipe printed '$got', the README says '$want'"
  echo "    $got"

  echo "==> [$kind] C API test through pkg-config"
  export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
  [ "$(pkg-config --modversion swz)" = "$VERSION" ] || fail "pkg-config --modversion swz != $VERSION"
  # shellcheck disable=SC2046
  gcc "${CFLAGS_STRICT[@]}" $(pkg-config --cflags swz) -o "$WORK/test_capi-$kind" tests/capi/test_capi.c tests/capi/header_alone.c $(pkg-config --libs swz)
  if [ "$kind" = shared ]; then
    got=$(ldd "$WORK/test_capi-$kind" | awk '/libswz\.so/ { print $3 }')
    [ -n "$got" ] && [ "$(readlink -f "$got")" = "$(readlink -f "$LIBDIR/libswz.so.$SOVERSION")" ] ||
      fail "test_capi is not linked to the installed libswz.so: $(ldd "$WORK/test_capi-$kind" | grep swz)"
  else
    # --static, as older instructions said, links the same way.
    # shellcheck disable=SC2046
    gcc "${CFLAGS_STRICT[@]}" $(pkg-config --cflags swz) -o "$WORK/test_capi-$kind-s" tests/capi/test_capi.c tests/capi/header_alone.c $(pkg-config --static --libs swz)
    "$WORK/test_capi-$kind-s" >/dev/null || fail "[static] test_capi linked with --static failed"
  fi
  env -u LD_LIBRARY_PATH "$WORK/test_capi-$kind" | tail -1
done
echo "==> install test passed"
