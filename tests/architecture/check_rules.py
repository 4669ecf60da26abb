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
6. No product file under src/ or include/ is over 800 lines.
7. No function under src/ or include/ is over 150 lines (from the first line
   of its signature to its closing brace), except those in
   LONG_FUNCTIONS_ALLOWED: a kernel's inner loop, whose reason is stated in a
   comment above it ("inner loop of a kernel"), or a function named as not
   yet split. Functions are found by brace matching on code stripped of
   comments, literals and preprocessor lines: a body opened at namespace or
   class scope after a parenthesised signature.

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


MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 150
# (path, function name) -> why it may be longer than MAX_FUNCTION_LINES.
LONG_FUNCTIONS_ALLOWED = {
    ("src/backends/simd/tile_walk-inl.h", "TileDeswizzle"):
        "kernel: inner loop of a kernel (the reason is stated above it)",
    # Not yet split: each entry leaves this list when its function is split.
    ("src/cli/main.cpp", "run_main"): "not yet split: the CLI's option declarations for every command",
}


def size_files():
    for base in ("src", "include"):
        for path in sorted((ROOT / base).rglob("*")):
            if path.suffix in (".cpp", ".hpp", ".h", ".cc", ".inl", ".comp") and "generated" not in path.parts:
                yield path


def check_file_sizes(errors):
    for path in size_files():
        n = len(path.read_text(errors="replace").splitlines())
        if n > MAX_FILE_LINES:
            errors.append(f"{path.relative_to(ROOT)}: {n} lines (at most {MAX_FILE_LINES}; split it by concern)")


def strip_code(text):
    """text with comments, string and character literals and preprocessor lines blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 1
                i += 1
            continue
        line_start = False
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:i + 20])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "'" and i > 0 and text[i - 1].isalnum() and text[i - 1] not in "uUL8":
            out.append(" ")  # a digit separator (1'000)
            i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def has_top_level_assignment(header):
    """A '=' outside parentheses (an initializer, a lambda) in a declaration's text."""
    h = re.sub(r"operator\s*[^\s(]*\s*\(", "operator(", header)
    if h.startswith("template"):
        depth = 0
        for k, ch in enumerate(h):
            depth += (ch == "<") - (ch == ">")
            if ch == ">" and depth == 0:
                h = h[k + 1:]
                break
    depth = 0
    for k, ch in enumerate(h):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "=" and depth == 0 and h[k - 1:k] not in ("=", "!", "<", ">") and h[k + 1:k + 2] != "=":
            return True
    return False


def function_spans(text):
    """(name, first line, last line) of each function body opened at namespace or class scope."""
    stack = []  # (kind, first line, name): ns, class, func, block (inside a function), init (a brace initializer)
    header, header_line, line = "", None, 1
    spans = []
    for ch in strip_code(text):
        if ch == "\n":
            line += 1
            header += " " if header else ""
            continue
        scope = stack[-1][0] if stack else "ns"
        if scope in ("func", "block"):
            if ch == "{":
                stack.append(("block", line, ""))
            elif ch == "}":
                kind, first, name = stack.pop()
                if kind == "func":
                    spans.append((name, first, line))
                    header, header_line = "", None
            continue
        if ch == "{":
            h = header.strip()
            if not h or re.match(r"(namespace|extern)\b", h):
                stack.append(("ns", line, ""))
                header, header_line = "", None
            elif re.match(r"(template\s*<.*>\s*)?(typedef\s+)?(struct|class|union|enum)\b", h) and "(" not in h:
                stack.append(("class", line, ""))
                header, header_line = "", None
            elif "(" in h and not has_top_level_assignment(h) and not re.search(r"\)\s*:[^:].*[\w>]\s*$", h):
                names = re.findall(r"[~\w:]+", h.split("(")[0])
                stack.append(("func", header_line or line, names[-1] if names else "?"))
            else:
                stack.append(("init", line, ""))  # the declaration goes on after it
            continue
        if ch == "}":
            if stack and stack.pop()[0] != "init":
                header, header_line = "", None
        elif scope == "init":
            continue
        elif ch == ";":
            header, header_line = "", None
        else:
            if header_line is None and not ch.isspace():
                header_line = line
            header += ch
    return spans


def check_function_lengths(errors):
    seen = set()
    for path in size_files():
        rel = str(path.relative_to(ROOT))
        text = path.read_text(errors="replace")
        lines = text.splitlines()
        for name, first, last in function_spans(text):
            n = last - first + 1
            if n <= MAX_FUNCTION_LINES:
                continue
            short = name.split("::")[-1]
            why = LONG_FUNCTIONS_ALLOWED.get((rel, short))
            if why is None:
                errors.append(f"{rel}:{first}: {name} is {n} lines (at most {MAX_FUNCTION_LINES}; "
                              "split it, or state why a kernel's inner loop cannot be split)")
                continue
            seen.add((rel, short))
            above = " ".join(lines[max(0, first - 15):first - 1])
            if why.startswith("kernel") and "inner loop of a kernel" not in above:
                errors.append(f"{rel}:{first}: {name} is allowed as a kernel but states no reason above it "
                              "(\"inner loop of a kernel: ...\")")
    for key in sorted(set(LONG_FUNCTIONS_ALLOWED) - seen):
        errors.append(f"tests/architecture/check_rules.py: LONG_FUNCTIONS_ALLOWED names {key[0]} {key[1]}, "
                      f"which is not over {MAX_FUNCTION_LINES} lines (or gone): remove the entry")


def main():
    errors = []
    check_includes(errors)
    check_overflow_builtins(errors)
    check_test_hooks(errors)
    check_named_paths(errors)
    check_overlap_rule(errors)
    check_file_sizes(errors)
    check_function_lengths(errors)
    for e in errors:
        print(e)
    print(f"architecture rules: {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
