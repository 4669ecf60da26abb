#!/usr/bin/env python3
"""The rules of docs/ARCHITECTURE.md that a script can hold the tree to.

1. Includes between folders (ARCHITECTURE.md section 4): each folder of src/
   includes only the folders its row allows (a header of its own folder by
   bare name is always allowed).
2. Overflow-checked arithmetic is written once: no __builtin_*_overflow
   outside src/core/checked_math.hpp in the product (src/, include/, python/src).
3. No test hooks in product code: no SWZ_TEST_* environment variable is read
   under src/.
4. Every path the architecture document names in backticks exists.
5. The one resolver is the only place that tells memory overlap: no product
   file outside src/core/request.cpp compares two pointer ranges with
   reinterpret_cast<uintptr_t> for overlap ("overlap" near a uintptr_t cast).

Exit status 0 when every rule holds, 1 with one line per violation."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = ROOT / "src"

# folder under src/ -> include prefixes it may use (besides the C++ and C standard libraries and its own folder).
ALLOWED = {
    "core": ("swz/", "core/"),
    "hw": ("swz/", "core/", "hw/"),
    "io": ("swz/", "core/", "io/"),
    "identify": ("swz/", "core/", "identify/"),
    "capi": ("swz/", "capi/"),
    "cli": ("swz/", "cli/"),
    "backends/scalar": ("core/", "backends/scalar/"),
    "backends/simd": ("core/", "backends/simd/", "hwy/"),
    "backends/highway": ("core/", "backends/simd/", "backends/highway/", "hwy/"),
    "backends/xsimd": ("core/", "backends/simd/", "backends/xsimd/", "xsimd/"),
    "backends/vulkan": ("core/", "swz/", "backends/vulkan/", "vulkan/"),
}
THIRD_PARTY = ("nlohmann/", "CLI/", "stb_", "png.h", "jpeglib.h", "hwy/", "xsimd/", "vulkan/", "zlib.h", "httplib.h")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path: pathlib.Path) -> str:
    rel = path.relative_to(SRC).parts
    if rel[0] == "backends":
        return "backends/" + rel[1]
    return rel[0]


def check_includes(errors):
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h", ".cc") or "generated" in path.parts:
            continue
        folder = folder_of(path)
        allowed = ALLOWED.get(folder)
        if allowed is None:
            errors.append(f"{path.relative_to(ROOT)}: folder src/{folder} has no row in the include rules")
            continue
        for inc in INCLUDE.findall(path.read_text(errors="replace")):
            if "/" not in inc or inc.startswith(THIRD_PARTY) or inc.startswith(allowed):
                continue
            errors.append(f"{path.relative_to(ROOT)}: includes \"{inc}\"; src/{folder} may include {', '.join(allowed)}")


def product_files():
    for base in ("src", "include", "python/src"):
        for path in sorted((ROOT / base).rglob("*")):
            if path.suffix in (".cpp", ".hpp", ".h", ".cc", ".inl"):
                yield path


def check_overflow_builtins(errors):
    for path in product_files():
        if path == SRC / "core" / "checked_math.hpp":
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if re.search(r"__builtin_\w+_overflow", line):
                errors.append(f"{path.relative_to(ROOT)}:{n}: overflow builtin outside src/core/checked_math.hpp")


def check_test_hooks(errors):
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h"):
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if re.search(r'getenv\("SWZ_TEST_', line):
                errors.append(f"{path.relative_to(ROOT)}:{n}: a test hook (SWZ_TEST_*) read in product code")


def check_named_paths(errors):
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    for name in sorted(set(re.findall(r"`((?:src|include|tests|bench|python|patterns|cmake|docs|fuzz)/[^`\s]+)`", doc))):
        if "<" in name:
            continue  # a placeholder such as src/backends/<name>/
        candidate = name.rstrip("/")
        if not (ROOT / candidate).exists() and not list(ROOT.glob(candidate)):
            errors.append(f"docs/ARCHITECTURE.md names `{name}`, which does not exist")


def check_overlap_rule(errors):
    home = (SRC / "core" / "request.cpp", SRC / "core" / "request.hpp")
    for path in product_files():
        if path in home:
            continue
        text = path.read_text(errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if "reinterpret_cast<uintptr_t>" in line and re.search(r"overlap|alias", " ".join(
                    text.splitlines()[max(0, n - 4):n + 3]), re.I):
                errors.append(f"{path.relative_to(ROOT)}:{n}: an overlap test outside src/core/request.cpp")


def main():
    errors = []
    check_includes(errors)
    check_overflow_builtins(errors)
    check_test_hooks(errors)
    check_named_paths(errors)
    check_overlap_rule(errors)
    for e in errors:
        print(e)
    print(f"architecture rules: {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
