"""Test helpers: random valid patterns, the DDI byte decoder, and a per-bit
pure-Python SimpleSwizzle written from the spec text (an oracle independent of
the C++ code)."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import List, Optional, Tuple

import swz

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.environ.get("SWZ_EXAMPLES_DIR", os.path.join(REPO, "examples"))

# A format and numpy dtype / channel count per element size.
FORMAT_FOR_BYTES = {1: "R8_UNORM", 2: "R8G8_UNORM", 4: "R8G8B8A8_UNORM", 8: "R16G16B16A16_UNORM",
                    16: "R32G32B32A32_FLOAT"}


def random_pattern(rng: random.Random, element_log2: int = 2, max_block_bits: int = 14, allow_z: bool = True,
                   allow_stack: bool = True, allow_samples: bool = False, four_xor: bool = True) -> swz.Pattern:
    """A random pattern valid for 2**element_log2-byte elements: a random
    interleave of the channels' bits (in order or shuffled), random XOR terms
    (up to the four a bit entry holds) from any coordinate bit above an
    element's bytes, postamble terms inside the block, an immediate,
    sometimes STACK_DEPTH_SLICES. With four_xor, one address bit above the
    element carries all four XOR terms. Retries until Pattern.validate
    accepts it."""
    k = element_log2
    for _ in range(1000):
        n = rng.randint(max(k, 1), max(k, max_block_bits))
        stack = allow_stack and rng.random() < 0.2
        use_z = allow_z and not stack and rng.random() < 0.5
        use_s = allow_samples and rng.random() < 0.5
        chans = ["X", "Y"] + (["Z"] if use_z else [])
        tail = [rng.choice(chans) for _ in range(k, n)]
        if use_s and len(tail) > 1:
            for i in rng.sample(range(len(tail)), rng.randint(1, min(2, len(tail)))):
                tail[i] = "S"
        nxt = {}
        for c in ("X", "Y", "Z", "S"):
            m = tail.count(c)
            bits = [k + b if c == "X" else b for b in range(m)]
            if rng.random() < 1 / 3:
                rng.shuffle(bits)
            nxt[c] = bits
        count = {"X": k, "Y": tail.count("Y"), "Z": tail.count("Z"), "S": tail.count("S")}
        tokens = [f"X{i}" for i in range(k)]
        used = {c: 0 for c in nxt}
        for c in tail:
            tokens.append(f"{c}{nxt[c][used[c]]}")
            used[c] += 1

        def term(allow_in_block: bool) -> str:
            while True:
                c = rng.choice(chans)
                if c == "X":
                    lo = k if allow_in_block else max(k, count["X"])
                else:
                    lo = 0 if allow_in_block else count[c]
                if lo <= 31:
                    return f"{c}{rng.randint(lo, min(31, lo + 10))}"

        four_at = rng.randrange(k, n) if four_xor and n > k else None
        for i in range(k, n):
            if i == four_at:
                tokens[i] += "".join("^" + term(False) for _ in range(4))
                continue
            for _ in range(rng.randint(0, 4)):
                if rng.random() < 0.5:
                    tokens[i] += "^" + term(rng.random() < 0.25)
        extra = []
        for i in range(8, min(24, n)):
            if rng.random() < 0.25:
                extra.append(f"post{i}=" + term(rng.random() < 0.25))
        if n > k and rng.random() < 0.5:
            extra.append(f"imm={hex(rng.randrange(1 << n) & ~((1 << k) - 1))}")
        if stack:
            extra.append("stack")
        p = swz.Pattern(" ".join(tokens + extra))
        if p.is_valid(1 << k):
            return p
    raise RuntimeError("no valid random pattern found")


@dataclass
class Entry:
    valid: bool
    channel: int
    bit: int


@dataclass
class DdiPattern:
    interleave: List[Entry]
    xors: List[List[Entry]]
    postamble: List[List[Entry]]
    immediate: int
    flags: int


def decode_ddi(data: bytes) -> DdiPattern:
    """D3D12DDI_SWIZZLE_PATTERN_DESC_0022 bytes -> entries (bit 0 Valid,
    bits 1-2 ChannelIndex, bits 3-7 SourceBitIndex; then two UINTs)."""
    assert len(data) == 232

    def arr(i: int) -> List[Entry]:
        return [Entry(bool(b & 1), (b >> 1) & 3, b >> 3) for b in data[32 * i:32 * i + 32]]

    return DdiPattern(arr(0), [arr(1), arr(2), arr(3), arr(4)], [arr(5), arr(6)],
                      int.from_bytes(data[224:228], "little"), int.from_bytes(data[228:232], "little"))


def simple_swizzle(p: DdiPattern, source: Tuple[int, int, int, int], pre: Tuple[int, int, int], stride: int,
                   depth_stride: int) -> int:
    """The spec's SimpleSwizzle (the D3D12 parameterized-swizzle specification, "Sample routine to convert a source
    address to a swizzled address"), per bit, read with docs/ARCHITECTURE.md §2:
    source = (X bytes, Y, Z, sample); 64-bit (Python ints); elementsPerBlock
    derived from the pattern; STACK_DEPTH_SLICES per the prose: slices are
    stacked (y += z * depthStride rows, z = 0) BEFORE block indices are taken
    and depthStride is then not added in bytes."""
    n = 0
    while n < 32 and p.interleave[n].valid:
        n += 1
    elements_per_block = [1, 1, 1, 1]
    for i in range(n):
        elements_per_block[p.interleave[i].channel] *= 2
    stack = bool(p.flags & 1)
    off = [source[0] + pre[0], source[1] + pre[1], source[2] + pre[2], source[3]]
    if stack:
        off[1] += depth_stride * source[2]
        off[2] = 0
    block = [off[i] // elements_per_block[i] for i in range(3)]
    dest_block_offset = (1 << n) * block[0] + block[1] * stride + block[2] * (0 if stack else depth_stride)

    def bit_of(e: Entry) -> int:
        return (off[e.channel] >> e.bit) & 1

    swizzled = 0
    for i in range(n):
        b = bit_of(p.interleave[i])
        for chain in p.xors:
            if chain[i].valid:
                b ^= bit_of(chain[i])
        swizzled |= b << i
    swizzled ^= p.immediate
    total = dest_block_offset + swizzled
    for i in range(8, 24):
        b = (total >> i) & 1
        for chain in p.postamble:
            if chain[i].valid:
                b ^= bit_of(chain[i])
        total = (total & ~(1 << i)) | (b << i)
    return total


def load_example_photo() -> Optional["object"]:
    """examples/coffee.png as uint8 (H, W, 4), or None when no image reader
    (matplotlib, then PIL) is installed or the file is missing."""
    import numpy as np

    path = os.path.join(EXAMPLES, "coffee.png")
    if not os.path.exists(path):
        return None
    img = None
    try:
        import matplotlib.image as mpimg

        img = mpimg.imread(path)
        if img.dtype != np.uint8:  # PNGs come back as float in 0..1
            img = np.round(img * 255).astype(np.uint8)
    except ImportError:
        try:
            from PIL import Image

            img = np.asarray(Image.open(path).convert("RGBA"))
        except ImportError:
            return None
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=-1)
    if img.shape[2] == 3:
        img = np.concatenate([img, np.full(img.shape[:2] + (1,), 255, np.uint8)], axis=2)
    return np.ascontiguousarray(img)

