"""The conformance table (tests/conformance/requests.json) through the Python
module and the swz command.

Every case the entry point can express must get the table's verdict
(refusals as the Python exception of the status code, or a non-zero exit
status), leave memory untouched when refused, and where accepted produce the
bytes of the specification's SimpleSwizzle routine (helpers.simple_swizzle,
an independent transcription) at the layout's subresource placements. The
swz command's accepted outputs must equal the Python module's bytes."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import swz
from helpers import decode_ddi, simple_swizzle

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "tests" / "conformance" / "requests.json").read_text())
EXCEPTION = {"out_of_range": IndexError, "overflow": OverflowError}
GUARD = 4096 + 16


def make_layout(name):
    spec = TABLE["layouts"][name]
    depth = spec.get("depth") if spec.get("dim") == "3d" else None
    return swz.Layout.from_name(spec["name"], spec["format"], spec["width"], spec["height"], depth=depth,
                                mips=spec.get("mips", 1))


def fmt_of(case):
    return TABLE["formats"][TABLE["layouts"][case["layout"]]["format"]]


def element_box(sub, fmt, box):
    """(x0, y0, z0, w, h, d) in elements, by the table's format facts."""
    eb, bw, bh = fmt
    if box is None:
        return 0, 0, 0, -(-sub.width // bw), -(-sub.height // bh), sub.depth
    l, t, f, r, b, k = box
    if r <= l or b <= t or k <= f:
        return 0, 0, 0, 0, 0, 0
    return l // bw, t // bh, f, -(-r // bw) - l // bw, -(-b // bh) - t // bh, k - f


def oracle_offset(L, sub_index, xb, y, z, sample=0):
    s = L.subresource_layout(sub_index)
    p = decode_ddi(s.pattern.to_ddi_bytes())
    depth_stride = s.stack_rows if s.stack_depth else s.depth_pitch_B
    return s.offset + simple_swizzle(p, (xb, y, z, sample), tuple(s.pre_swizzle), s.row_pitch, depth_stride)


def oracle_box(L, sub, e, eb, rp, dp, res, lin, to_res):
    x0, y0, z0, w, h, d = e
    for z in range(d):
        for y in range(h):
            for xb in range(w * eb):
                r = oracle_offset(L, sub, x0 * eb + xb, y0 + y, z0 + z)
                l_at = z * dp + y * rp + xb
                if to_res:
                    res[r] = lin[l_at]
                else:
                    lin[l_at] = res[r]


def placement(case, L):
    op = case["op"]
    if op == "copy_regions":
        return case.get("src_at"), L.size
    if op == "copy_tiles":
        return case["tiles"].get("buf_at"), case["tiles"]["buffer_size"]
    rel = case.get("lin_at")
    if rel == "end-16":
        rel = L.size - 16
    return rel, case.get("lin_size", 0)


class Memory:
    def __init__(self, res_size, lin_size, rel):
        self.res_size, self.lin_size = res_size, lin_size
        held = min(lin_size, 4 << 20)
        if rel is None:
            self.res_at = GUARD
            self.lin_at = GUARD + res_size + GUARD
            n = self.lin_at + held + GUARD
        else:
            self.res_at = GUARD + max(0, -rel)
            self.lin_at = self.res_at + rel
            n = max(self.res_at + res_size, self.lin_at + held) + GUARD
        i = np.arange(n, dtype=np.uint64)
        self.arena = ((i * 7 + 1 + (i >> 8)) & 255).astype(np.uint8)

    def res(self):
        return self.arena[self.res_at:self.res_at + self.res_size]

    def lin(self):
        return self.arena[self.lin_at:self.lin_at + self.lin_size]


def expressible_in_python(case):
    # Python takes no pitches: the linear side is a C-contiguous array.
    return not case.get("row_pitch") and not case.get("depth_pitch")


def run_python(case, L, mem):
    op, sub, box = case["op"], case.get("sub", 0), case.get("box")
    fmt = fmt_of(case)
    if op in ("write", "read"):
        if op == "write":
            e = None
            try:
                e = element_box(L.subresource_layout(sub), fmt, box)
            except IndexError:
                pass
            lin = mem.lin()
            if e is not None and e[3] and e[3] * e[4] * e[5] * fmt[0] == mem.lin_size:
                shape = ((e[5],) if TABLE["layouts"][case["layout"]].get("dim") == "3d" else ()) + (e[4], e[3], fmt[0])
                lin = lin.reshape(shape)
            swz.swizzle(lin, L, sub, box=box, out=memoryview(mem.res()))
        else:
            swz.deswizzle(memoryview(mem.res()), L, sub, box=box, out=memoryview(mem.lin()))
    elif op == "swizzle_surface":
        swz.swizzle_surface(memoryview(mem.lin()), L, out=memoryview(mem.res()))
    elif op == "deswizzle_surface":
        swz.deswizzle_surface(memoryview(mem.res()), L, out=memoryview(mem.lin()))
    elif op == "copy_regions":
        regions = []
        for r in case["regions"]:
            d = {"dst_subresource": r["dst_sub"], "src_subresource": r["src_sub"], "dst": tuple(r["dst"])}
            if r["box"] is not None:
                d["box"] = tuple(r["box"])
            regions.append(d)
        dst = memoryview(mem.res())
        src = dst if mem.lin_at == mem.res_at else memoryview(mem.lin())
        swz.copy_regions(dst, L, src, L, regions)
    elif op == "copy_tiles":
        t = case["tiles"]
        swz.copy_tiles(memoryview(mem.res()), L, memoryview(mem.lin()), start=tuple(t["start"]), subresource=sub,
                       num_tiles=t["num"], buffer_offset=t["buffer_offset"],
                       direction="to_buffer" if t["dir"] == "to_buffer" else "to_resource")
    elif op == "offset":
        x, y, z, s = case["coords"]
        return int(swz.offsets(L, x, y, z, s, subresource=sub))
    elif op == "locate":
        return swz.locate(L, np.array([case["offset_B"]], np.uint64))
    return None


def oracle(case, L, mem):
    """The memory (and value) the table expects after an accepted case; None where there is no byte oracle."""
    op, sub = case["op"], case.get("sub", 0)
    fmt = fmt_of(case)
    eb = fmt[0]
    arena = mem.arena.copy()
    res = arena[mem.res_at:mem.res_at + mem.res_size]
    lin = arena[mem.lin_at:mem.lin_at + min(mem.lin_size, 4 << 20)]
    if op in ("write", "read"):
        e = element_box(L.subresource_layout(sub), fmt, case.get("box"))
        if e[3]:
            oracle_box(L, sub, e, eb, e[3] * eb, e[3] * eb * e[4], res, lin, op == "write")
        return arena, None
    if op in ("swizzle_surface", "deswizzle_surface"):
        at = 0
        for i in range(L.subresource_count):
            e = element_box(L.subresource_layout(i), fmt, None)
            oracle_box(L, i, e, eb, e[3] * eb, e[3] * eb * e[4], res, lin[at:], op == "swizzle_surface")
            at += e[3] * eb * e[4] * e[5]
        return arena, None
    if op == "copy_regions":
        src = mem.arena[mem.lin_at:mem.lin_at + L.size].copy()
        for r in case["regions"]:
            e = element_box(L.subresource_layout(r["src_sub"]), fmt, r["box"])
            dx, dy, dz = r["dst"][0] // fmt[1], r["dst"][1] // fmt[2], r["dst"][2]
            for z in range(e[5]):
                for y in range(e[4]):
                    for xb in range(e[3] * eb):
                        res[oracle_offset(L, r["dst_sub"], dx * eb + xb, dy + y, dz + z)] = \
                            src[oracle_offset(L, r["src_sub"], e[0] * eb + xb, e[1] + y, e[2] + z)]
        return arena, None
    if op == "offset":
        x, y, z, s = case["coords"]
        return None, oracle_offset(L, sub, x * eb, y, z, s)
    return None, None


CASES = TABLE["cases"]


def test_table_size():
    assert len(CASES) >= 40
    assert sum(c["expect"] != "ok" for c in CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_python(case):
    if not expressible_in_python(case):
        pytest.skip("Python takes no pitch arguments")
    L = make_layout(case["layout"])
    rel, lin_size = placement(case, L)
    mem = Memory(L.size + case.get("res_delta", 0), lin_size, rel)
    before = mem.arena.copy()
    want = case["expect"]
    if want != "ok":
        with pytest.raises(EXCEPTION.get(want, ValueError)):
            run_python(case, L, mem)
        assert np.array_equal(mem.arena, before), "a refused request wrote memory"
        return
    value = run_python(case, L, mem)
    expect, expect_value = oracle(case, L, Memory(L.size + case.get("res_delta", 0), lin_size, rel))
    if expect is not None:
        assert np.array_equal(mem.arena, expect), "bytes differ from the reference routine"
    if expect_value is not None:
        assert value == expect_value


def cli_args(case, L, spec, workdir, mem):
    """The swz command line for a case, or None where the command cannot express it."""
    op = case["op"]
    size = f'{spec["width"]}x{spec["height"]}' + (f'x{spec["depth"]}' if spec.get("dim") == "3d" else "")
    common = ["--layout", spec["name"], "--format", spec["format"], "--size", size, "--mips", str(spec.get("mips", 1))]
    if case.get("box") or case.get("lin_at") is not None or case.get("row_pitch") or case.get("depth_pitch"):
        return None
    whole = op in ("swizzle_surface", "deswizzle_surface") or (op in ("write", "read") and L.subresource_count == 1)
    if op in ("write", "swizzle_surface") and whole and not case.get("res_delta") and case.get("sub", 0) == 0:
        src = workdir / "in.raw"
        src.write_bytes(mem.lin().tobytes())
        return ["swizzle", *common, str(src), str(workdir / "out.bin")], "out.bin"
    if op in ("read", "deswizzle_surface") and whole:
        src = workdir / "in.bin"
        src.write_bytes(mem.res().tobytes())
        extra = ["--subresource", str(case.get("sub", 0))] if op == "read" else []
        return ["deswizzle", *common, *extra, str(src), str(workdir / "out.raw")], "out.raw"
    if op == "offset":
        x, y, z, s = case["coords"]
        return ["offset", *common, str(x), str(y)], None
    if op == "locate":
        return ["locate", *common, str(case["offset_B"])], None
    return None


@pytest.mark.parametrize("case", [c for c in CASES if c.get("cli")], ids=[c["name"] for c in CASES if c.get("cli")])
def test_cli(case, tmp_path):
    cli = os.environ.get("SWZ_CLI")
    if not cli:
        pytest.skip("SWZ_CLI (the swz command under test) is not set")
    L = make_layout(case["layout"])
    spec = TABLE["layouts"][case["layout"]]
    rel, lin_size = placement(case, L)
    mem = Memory(L.size + case.get("res_delta", 0), lin_size, rel)
    made = cli_args(case, L, spec, tmp_path, mem)
    assert made is not None, "a case marked cli must be expressible through the command"
    args, out_name = made
    # The command brings its own sanitizer runtime where it has one: the interpreter's preload is not its.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120, env=env)
    if case["expect"] != "ok":
        assert p.returncode != 0, p.stdout
        assert p.stderr.strip(), "a refusal must say why"
        if out_name:
            assert not (tmp_path / out_name).exists(), "a refused request left an output"
        return
    assert p.returncode == 0, p.stderr
    # The same request through the module gives the bytes the command wrote.
    op = case["op"]
    if op in ("write", "swizzle_surface"):
        want = swz.swizzle_surface(mem.lin(), L)
        assert (tmp_path / out_name).read_bytes() == bytes(want)
    elif op == "read":
        want = swz.deswizzle(mem.res(), L, case.get("sub", 0))
        assert (tmp_path / out_name).read_bytes() == want.tobytes()
    elif op == "deswizzle_surface":
        want = swz.deswizzle_surface(mem.res(), L)
        assert (tmp_path / out_name).read_bytes() == bytes(want)
    elif op == "offset":
        x, y, z, s = case["coords"]
        assert int(p.stdout.split()[0], 0) == int(swz.offsets(L, x, y, z, s))
    elif op == "locate":
        assert f"byte=" in p.stdout
