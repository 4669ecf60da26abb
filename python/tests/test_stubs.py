"""The shipped type stubs (_swz.pyi) name exactly the compiled module's public API."""
import ast
import os

import swz
import swz._swz as ext

ALIASES = {"FormatLike", "PatternLike", "MipsLike", "BoxLike", "Entry", "ClearValueLike"}


def test_stub_matches_extension():
    path = os.path.join(os.path.dirname(swz.__file__), "_swz.pyi")
    assert os.path.exists(path), "the .pyi must sit next to the extension (build tree and install)"
    assert os.path.exists(os.path.join(os.path.dirname(swz.__file__), "py.typed"))
    tree = ast.parse(open(path, encoding="utf-8").read())
    stub = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stub[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
        elif isinstance(node, ast.FunctionDef):
            stub[node.name] = None
        elif isinstance(node, ast.AnnAssign):
            stub[node.target.id] = None
    problems = []
    for name in dir(ext):
        if name.startswith("__"):
            continue
        obj = getattr(ext, name)
        if name not in stub:
            problems.append(f"{name} missing from the stub")
        elif isinstance(obj, type):
            runtime = {a for a in vars(obj) if not a.startswith("_")}
            if runtime != stub[name]:
                problems.append(f"{name}: stub differs by {sorted(runtime ^ stub[name])}")
    problems += [f"{k} only in the stub" for k in stub if k not in ALIASES and not hasattr(ext, k)]
    assert not problems, problems


def test_package_exports():
    for name in swz.__all__:
        assert hasattr(swz, name), name
    for name in ("swizzle", "deswizzle", "offsets", "locate", "order_image", "plot_pattern"):
        doc = getattr(swz, name).__doc__
        assert doc and ("Raises" in doc or "raises" in doc), name


def test_signatures_name_real_types():
    # help() shows pybind11's signature line: every public function and method names its
    # arguments with the types the stub uses, never pybind11's "handle" / "object".
    import inspect
    import re

    bad = []
    def check(qual, fn):
        doc = getattr(fn, "__doc__", None) or ""
        for line in doc.splitlines():
            if "(" in line and "->" in line and re.search(r":\s*(handle|object)\b", line):
                bad.append(f"{qual}: {line.strip()}")
    for name in swz.__all__:
        obj = getattr(swz, name)
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and callable(member):
                    check(f"{name}.{attr}", getattr(obj, attr))
        elif callable(obj):
            check(name, obj)
    assert not bad, bad
    assert "(buffer: Buffer, layout: swz._swz.Layout, value: ClearValueLike" in swz.clear.__doc__
