"""swz.Pattern: forms, round trips, validation, block shape, repr."""
import json
import pickle
import random

import pytest

import swz
from helpers import decode_ddi, random_pattern

STD32 = "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8"


def test_text_round_trip():
    p = swz.Pattern(STD32)
    assert p.to_text() == STD32
    assert str(p) == STD32
    assert swz.Pattern.from_text(STD32) == p
    q = swz.Pattern("X0 X1 Y0^X5 Y1^_^Z1 post8=Y4^X9 imm=0x300 stack")
    assert swz.Pattern(q.to_text()) == q


def test_standard_pattern_matches_spec_example():
    # Seed 000: StandardSwizzle_2d_NonMSAA_16_32bpp, entries 0..15.
    spec = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (0, 4),
            (1, 3), (0, 5), (1, 4), (0, 6), (1, 5), (0, 7), (1, 6), (0, 8)]
    p = swz.Pattern.standard("std64k", 4)
    assert [("XYZS".index(e[0]), e[1]) for e in p.interleave[:16]] == spec
    assert p.interleave[16:] == [None] * 16
    assert p.block_bits == 16 and p.block_bytes == 65536
    assert p.block_extent == (512, 128, 1, 1)
    assert p.block_shape(4) == (128, 128)


def test_json_round_trip():
    p = swz.Pattern("X0 X1 Y0^X5 Y1 post8=Y4^X9 imm=0x4")
    j = p.to_json()
    assert json.loads(j)["bits"][2] == "Y0^X5"
    assert swz.Pattern.from_json(j) == p
    with pytest.raises(ValueError):
        swz.Pattern.from_json("{not json")


@pytest.mark.parametrize("key", ["postambel", "immediat", "flag"])
def test_json_misspelt_key_raises_naming_it(key):
    # Refused, not dropped with the pattern used without them.
    doc = json.dumps({"bits": ["X0", "X1", "Y0", "Y1"], key: ["stack"]})
    with pytest.raises(ValueError, match=f'unknown key "{key}" \\(known: bits, postamble, immediate, flags'):
        swz.Pattern.from_json(doc)


def test_json_hostile_key_is_escaped_and_short():
    # A key holding U+0000 cut the message there; escapes reached the terminal;
    # a key of a million bytes made a message as long.
    for key, shown in [("na\0me\x1b[31m\n", 'na\\u0000me\\u001b[31m\\n'), ("k" * 1000000, "k" * 64 + '...')]:
        doc = json.dumps({"bits": ["X0", "X1", "Y0", "Y1"], key: 1})
        with pytest.raises(ValueError) as e:
            swz.Pattern.from_json(doc)
        msg = str(e.value)
        assert f'unknown key "{shown}' in msg and msg.endswith("description, source)"), msg[:300]
        assert len(msg) < 300 and not any(ord(c) < 0x20 for c in msg), msg[:300]


def test_ddi_bytes_round_trip_and_layout():
    rng = random.Random(5)
    for _ in range(50):
        p = random_pattern(rng, rng.randint(0, 4))
        b = p.to_ddi_bytes()
        assert isinstance(b, bytes) and len(b) == 232
        assert swz.Pattern.from_ddi_bytes(b) == p
        assert swz.Pattern.from_ddi_bytes(bytearray(b)) == p
        assert swz.Pattern.from_ddi_bytes(memoryview(b)) == p
        d = decode_ddi(b)
        for i, e in enumerate(p.interleave):
            assert (e is not None) == d.interleave[i].valid
            if e is not None:
                assert ("XYZS"[d.interleave[i].channel], d.interleave[i].bit) == e
        assert d.immediate == p.immediate and d.flags == p.flags


def test_legacy_ddi_bytes():
    p = swz.Pattern("X0 X1 Y0^X5 Y1")
    b = p.to_ddi_bytes(legacy=True)
    assert len(b) == 104
    assert swz.Pattern.from_ddi_bytes(b) == p
    with pytest.raises(ValueError):
        swz.Pattern("X0 X1 Y0^X5^X6^X7 Y1").to_ddi_bytes(legacy=True)  # XOR3 does not fit
    with pytest.raises(ValueError):
        swz.Pattern.from_ddi_bytes(b"\x00" * 100)


@pytest.mark.parametrize("text, element_bytes, needle", [
    ("X0 - X1", 1, "prefix"),
    ("Y0 X0 X1", 4, "X0..X1"),
    ("X0 X1 Y0 Z0 stack", 4, "STACK_DEPTH_SLICES"),
    ("X0 X1 Y0 imm=0x8", 4, "PostambleXORImmediate"),
    ("X0 X1 Y0 Y0", 1, ""),
])
def test_validate_raises_value_error_with_cpp_message(text, element_bytes, needle):
    p = swz.Pattern(text)  # parsing does not validate
    assert not p.is_valid(element_bytes)
    with pytest.raises(ValueError) as e:
        p.validate(element_bytes)
    assert needle in str(e.value)
    assert str(e.value)


def test_validate_ok_returns_none():
    assert swz.Pattern(STD32).validate(4) is None
    assert swz.Pattern(STD32).is_valid(4)


def test_parse_errors():
    with pytest.raises(ValueError, match="Q5"):
        swz.Pattern("Q5")
    with pytest.raises(TypeError):
        swz.Pattern(5)


def test_repr_shows_bits_and_evaluates():
    p = swz.Pattern("X0 X1 Y0^X5 post8=Y4 imm=0x4")
    r = repr(p)
    assert "X0 X1 Y0^X5" in r
    assert eval(r, {"swz": swz}) == p


def test_hash_eq_pickle():
    a, b = swz.Pattern(STD32), swz.Pattern(STD32)
    assert a == b and hash(a) == hash(b)
    assert a != swz.Pattern("X0 X1")
    assert a != "not a pattern"
    assert len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a


def test_block_shape_3d_and_samples():
    p = swz.Pattern.standard("std64k", 4, 3)
    ex, ey, ez, es = p.block_extent
    assert ex * ey * ez == 65536 and ez > 1 and es == 1
    assert p.block_shape(4) == (ez, ey, ex // 4)
    m = swz.Pattern("X0 X1 S0 S1 X2 Y0")
    assert m.block_extent == (8, 2, 1, 4)


def test_chains_exposed():
    p = swz.Pattern("X0 X1 Y0^X5^_^Z2 post9=Y4^X9")
    assert p.xor_chains[0][2] == ("X", 5)
    assert p.xor_chains[1][2] is None
    assert p.xor_chains[2][2] == ("Z", 2)
    assert p.postamble[0][9] == ("Y", 4) and p.postamble[1][9] == ("X", 9)


def test_standard_errors():
    with pytest.raises(ValueError):
        swz.Pattern.standard("std32k", 4)
    with pytest.raises(ValueError):
        swz.Pattern.standard("std64k", 3)
