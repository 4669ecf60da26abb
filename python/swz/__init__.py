"""swz: convert textures between linear numpy arrays and GPU swizzled layouts.

The D3D12 64KB standard swizzle, its 4KB form, row-major and any
parameterized swizzle pattern (D3D12DDI_SWIZZLE_PATTERN_DESC), for analysis
of GPU memory in Python. A thin layer over the C++ library (``swz._swz``).

Units
-----
* Linear arrays: C-contiguous numpy arrays of shape (H, W, C) for 2D textures
  or (D, H, W, C) for 3D, in ELEMENTS, whose ``dtype.itemsize * C`` equals the
  format's element size: uint8 (H, W, 4) for R8G8B8A8_UNORM, float32 (H, W, 4)
  for R32G32B32A32_FLOAT. BC formats: uint8 (ceil(H/4), ceil(W/4), 8 or 16).
  The C axis may be left out when ``itemsize`` equals the element size.
* Boxes: ``(left, top, front, right, bottom, back)`` in TEXELS (D3D12_BOX;
  right/bottom/back exclusive), or ``(left, top, right, bottom)``.
* ``offsets``/``locate`` coordinates are ELEMENTS (4x4 blocks for BC);
  offsets are BYTES from the start of the resource.
* Patterns count X in BYTES.

Errors
------
The C++ status becomes: ValueError (invalid argument, parse error,
unsupported input, buffer too small), IndexError (subresource, coordinate,
box or offset out of range), OverflowError (sizes past 64 bits), TypeError
(wrong argument types or dtypes).
"""
from __future__ import annotations

import os
from typing import Any as _Any, Optional as _Optional, Sequence as _Sequence, Tuple as _Tuple, Union as _Union

import numpy as np

from ._swz import (  # noqa: F401  (re-exported)
    ALL_SUBRESOURCES,
    Footprint,
    Format,
    IdentifyCandidate,
    Layout,
    Pattern,
    SubresourceLayout,
    backends,
    clear,
    decode,
    decode_supports,
    encode_clear_value,
    fill,
    format_info,
    formats,
    identify,
    infer,
    layout_families,
    layout_names,
    resolve,
)
from . import _swz
from ._copy_engine import (  # noqa: F401  (re-exported)
    copy_buffer_to_texture, copy_regions, copy_resources, copy_texture_to_buffer, copy_tiles)
from . import _copy_engine


def _signed(f):
    """`f`, a compiled function, as a Python function whose signature help()
    and inspect.signature show: the one pybind11 writes on the first line of
    its docstring (names, defaults and annotations as text). `f` itself when
    that line does not parse."""
    import ast
    import functools
    import inspect

    first = (f.__doc__ or "").split("\n", 1)[0]
    try:
        node = ast.parse("def " + first + ": pass").body[0]
        a = node.args
        params = []
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for arg, d in zip(positional, defaults):
            params.append(inspect.Parameter(
                arg.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=inspect.Parameter.empty if d is None else ast.literal_eval(d),
                annotation=ast.unparse(arg.annotation) if arg.annotation else inspect.Parameter.empty))
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append(inspect.Parameter(
                arg.arg, inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if d is None else ast.literal_eval(d),
                annotation=ast.unparse(arg.annotation) if arg.annotation else inspect.Parameter.empty))
        signature = inspect.Signature(
            params, return_annotation=ast.unparse(node.returns) if node.returns else inspect.Signature.empty)
    except (SyntaxError, ValueError, IndexError, AttributeError):
        return f

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)

    wrapper.__signature__ = signature
    return wrapper


(identify, infer, decode, decode_supports, clear, fill, resolve, encode_clear_value, formats, format_info,
 layout_families, layout_names, backends) = (
    _signed(f) for f in (identify, infer, decode, decode_supports, clear, fill, resolve, encode_clear_value,
                         formats, format_info, layout_families, layout_names, backends))

__all__ = [
    "Footprint", "Format", "IdentifyCandidate", "Layout", "Pattern", "SubresourceLayout", "LOCATION_DTYPE",
    "backends", "format_info", "formats", "identify", "infer", "layout_families", "layout_names", "swizzle", "deswizzle",
    "swizzle_surface", "deswizzle_surface", "offsets", "locate",
    "order_image", "plot_pattern",
    "ALL_SUBRESOURCES", "clear", "fill", "resolve", "encode_clear_value",
]
__all__ += list(_copy_engine.__all__)
#: The CMake project version the extension was built from.
__version__: str = _swz.__version__

#: dtype of the records swz.locate returns (aligned: itemsize 28).
LOCATION_DTYPE = np.dtype({
    "names": ["subresource", "x", "y", "z", "sample", "byte", "padding", "packed"],
    "formats": ["<u4", "<u4", "<u4", "<u4", "<u4", "<u4", "?", "?"],
    "offsets": [4, 8, 12, 16, 20, 24, 0, 1],  # the C++ swz::Location record, written in place
    "itemsize": 28,
})
assert LOCATION_DTYPE.itemsize == _swz.LOCATION_ITEMSIZE

_BoxLike = _Sequence[int]


def swizzle(array: _Any, layout: Layout, subresource: int = 0, box: _Optional[_BoxLike] = None, out: _Any = None,
            backend: _Optional[str] = None, threads: _Optional[int] = None, write_combined: bool = False) -> _Any:
    """Write a linear array into one subresource of a swizzled resource.

    array:       numpy array (or anything ``np.asarray`` takes) of shape (H, W, C)
                 for a 2D texture or (D, H, W, C) for 3D, in elements, with
                 ``dtype.itemsize * C == layout.format.element_bytes``; for a box,
                 the box's extent in elements. Where C is 1 the channel axis may
                 be left out: (H, W) or (D, H, W); ``deswizzle(..., out=)`` with
                 an array of that shape gives it back. A non-contiguous or
                 byte-swapped array is copied first.
    layout:      swz.Layout.
    subresource: index (mip + array_slice * mips).
    box:         (left, top, front, right, bottom, back) or (left, top, right,
                 bottom) in texels; None = the whole subresource. An empty box
                 does nothing.
    out:         writable, C-contiguous buffer (bytearray, numpy array, mmap,
                 memoryview) holding the resource, at least up to the end of the
                 subresource. Only the subresource's bytes are written. None
                 allocates a zeroed uint8 array of ``layout.size`` bytes.
    backend:     None/'auto', 'scalar', 'highway', 'xsimd' (see swz.backends()).
    threads:     None/0 = automatic, else the number of threads.
    write_combined: write whole lines in order with streaming stores (upload heaps).

    Returns ``out`` (or the new uint8 array). The GIL is released during the copy.
    Raises ValueError (shape/dtype mismatch, buffer too small, read-only out,
    out sharing memory with the subresource's input bytes, MSAA, non-power-of-two elements), IndexError (subresource or box out of
    range), TypeError (not an array / buffer).
    """
    return _swz.swizzle(array, layout, subresource, box, out, backend, threads, write_combined)


def deswizzle(buffer: _Any, layout: Layout, subresource: int = 0, box: _Optional[_BoxLike] = None, out: _Any = None,
              dtype: _Any = None, backend: _Optional[str] = None, threads: _Optional[int] = None,
              write_combined: bool = False, decode: bool = False, **decode_options: _Any) -> _Any:
    """Read one subresource of a swizzled resource into a linear numpy array.

    buffer:      the resource: any buffer-protocol object (bytes, bytearray,
                 memoryview, numpy array, mmap), read in place without a copy;
                 it must extend at least to the end of the subresource.
    layout:      swz.Layout.
    subresource: index (mip + array_slice * mips).
    box:         (left, top, front, right, bottom, back) or (left, top, right,
                 bottom) in texels; None = the whole subresource.
    out:         None, a writable C-contiguous numpy array of the right shape
                 (any dtype with ``itemsize * C`` == element bytes; where C is 1,
                 (H, W) or (D, H, W) as swizzle takes them), or any writable
                 buffer with room for the packed bytes.
    dtype:       dtype of the new array when out is None; default
                 ``layout.dtype`` (uint8 for 8-bit and BC formats, float16 /
                 float32 for _FLOAT, intN for _SINT/_SNORM, uintN otherwise).
    write_combined: the buffer is write-combined memory (a mapped upload
                 heap or DEVICE_LOCAL | HOST_VISIBLE Vulkan memory): read it
                 with streaming loads into a temporary first (ordinary loads
                 from such memory are uncached and many times slower).

    Returns an array of shape (H, W, C) for 2D or (D, H, W, C) for 3D, in
    elements (``layout.subresource_layout(i).shape``), C included even where
    it is 1 (R8: (H, W, 1)), or ``out`` in its own shape. The GIL is
    released during the copy. Raises ValueError (buffer too small, bad out, out sharing memory
    with the subresource),
    IndexError (subresource or box out of range), TypeError.

    decode=True returns pixels instead of texels: swz.decode of the result,
    (H, W, 4) uint8 for 2D or (D, H, W, 4) for 3D, in texels; decode_options
    are decode's keywords (float32, channel, exposure, tone_map, yuv_matrix,
    yuv_full_range, stencil). out and dtype do not apply then.
    """
    if not decode:
        if decode_options:
            raise TypeError("deswizzle() takes decode options (" + ", ".join(sorted(decode_options)) +
                            ") only with decode=True")
        return _swz.deswizzle(buffer, layout, subresource, box, out, dtype, backend, threads, write_combined)
    if out is not None or dtype is not None:
        raise ValueError("deswizzle(decode=True) returns new pixels: out= and dtype= do not apply")
    _swz.check_decodable(layout, subresource)
    texels = _swz.deswizzle(buffer, layout, subresource, box, None, None, backend, threads, write_combined)
    sub = layout.subresource_layout(subresource)
    if box is None:
        width, height = sub.width, sub.height
    else:
        b = tuple(box)
        left, top, right, bottom = (b[0], b[1], b[3], b[4]) if len(b) == 6 else b
        width, height = right - left, bottom - top
    fmt = layout.format
    if texels.ndim == 4:  # 3D: one image per depth slice
        return np.stack([_swz.decode(np.ascontiguousarray(s), fmt, width, height, **decode_options) for s in texels])
    return _swz.decode(texels, fmt, width, height, **decode_options)


def swizzle_surface(linear: _Any, layout: Layout, out: _Any = None, linear_offsets: _Optional[_Sequence[int]] = None,
                    backend: _Optional[str] = None, threads: _Optional[int] = None, write_combined: bool = False) -> _Any:
    """Write every subresource of a texture in one call (all mips and array slices).

    linear:      any buffer (bytes, bytearray, memoryview, numpy array, mmap)
                 holding every subresource in subresource order (mip +
                 array_slice * mips), each tightly packed (rows of width_el *
                 element_bytes bytes): ``layout.surface_linear_size`` bytes, as
                 DDS files and raw dumps hold them. Read in place.
    layout:      swz.Layout.
    out:         writable, C-contiguous buffer holding the resource (at least
                 ``layout.size`` bytes); None allocates a zeroed uint8 array.
    linear_offsets: None, or one byte offset per subresource into ``linear``
                 (for containers that align each mip); entries must not overlap.
    backend, threads, write_combined: as for swizzle.

    Every subresource is checked before anything is written. Returns ``out``
    (or the new array). The GIL is released during the copy. Raises ValueError
    (buffer too small, overlapping offsets, MSAA, packed mip tail), TypeError
    (not a buffer).
    """
    return _swz.swizzle_surface(linear, layout, out, linear_offsets, backend, threads, write_combined)


def deswizzle_surface(buffer: _Any, layout: Layout, out: _Any = None, linear_offsets: _Optional[_Sequence[int]] = None,
                      backend: _Optional[str] = None, threads: _Optional[int] = None,
                      write_combined: bool = False) -> _Any:
    """Read every subresource of a texture in one call; the mirror of swizzle_surface.

    buffer:      the resource, any buffer-protocol object, read in place.
    layout:      swz.Layout.
    out:         None (a new uint8 array of ``layout.surface_linear_size``
                 bytes, or up to the end of the last entry of linear_offsets),
                 or a writable C-contiguous buffer.
    linear_offsets: None, or one byte offset per subresource into the output.
    backend, threads, write_combined: as for deswizzle.

    Returns the linear bytes (uint8, 1-D) or ``out``; split it with
    ``layout.surface_linear_offsets`` and ``subresource_layout(i).shape``.
    Raises ValueError (buffer too small, overlapping offsets, MSAA, packed mip
    tail), TypeError (not a buffer).
    """
    return _swz.deswizzle_surface(buffer, layout, out, linear_offsets, backend, threads, write_combined)


_INT64_MAX = np.iinfo(np.int64).max


def _as_int64(v: _Any, name: str, label: str) -> np.ndarray:
    """v as int64; values outside int64 raise IndexError naming the value given (label = value)."""
    a = np.asarray(v)
    if a.dtype.kind == "O":
        # Python ints past 64 bits: numpy keeps them as objects.
        flat = a.ravel()
        if not all(isinstance(e, (int, np.integer)) and not isinstance(e, (bool, np.bool_)) for e in flat):
            raise TypeError(f"{name} must be integers (an int or an integer numpy array), not dtype {a.dtype}")
        for e in flat:
            if e < np.iinfo(np.int64).min:
                raise IndexError(f"{label} = {int(e)} is negative")
            if e > _INT64_MAX:
                raise IndexError(f"{label} = {int(e)} is out of range (above 2^63 - 1)")
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers (an int or an integer numpy array), not dtype {a.dtype}")
    if a.dtype.kind == "u" and a.dtype.itemsize == 8:
        over = a > np.uint64(_INT64_MAX)
        if over.any():
            raise IndexError(f"{label} = {int(a[over].ravel()[0])} is out of range (above 2^63 - 1)")
    return np.asarray(a.astype(np.int64, copy=False))


def _as_int_array(v: _Any, name: str, label: str) -> np.ndarray:
    """v as a native-order integer array, read in place when it is one (int8..int64,
    uint8..uint64 up to 2^63 - 1: the C++ loop reads each type), else as _as_int64."""
    a = np.asarray(v)
    if a.dtype.kind in "iu" and a.dtype.isnative and a.dtype.itemsize in (1, 2, 4, 8):
        if a.dtype.kind == "u" and a.dtype.itemsize == 8:
            over = a > np.uint64(_INT64_MAX)
            if over.any():
                raise IndexError(f"{label} = {int(a[over].ravel()[0])} is out of range (above 2^63 - 1)")
        return a
    return _as_int64(v, name, label)


def offsets(layout: Layout, x: _Any, y: _Any, z: _Any = 0, sample: _Any = 0, subresource: int = 0) -> _Any:
    """Byte offsets in the resource of elements, vectorised with numpy broadcasting.

    x, y, z, sample: ints or integer arrays, broadcast together. ELEMENT
    coordinates (texels; 4x4 blocks for BC) of ``subresource``; z is the slice
    of a 3D texture (0 for 2D).

    Returns a uint64 array of the broadcast shape: the offset in BYTES from the
    start of the resource of the element's first byte (a numpy scalar when all
    inputs are scalars). Runs in C++ over the plan's XOR tables with the GIL
    released. Raises IndexError for a coordinate outside the subresource or a
    bad subresource, TypeError for non-integer inputs.
    """
    args = [_as_int_array(v, n, n) for v, n in ((x, "x"), (y, "y"), (z, "z"), (sample, "sample"))]
    b = np.broadcast_arrays(*args)
    r = _swz._offsets(layout, subresource, *b)
    return r[()] if r.ndim == 0 else r


def locate(layout: Layout, offsets: _Any) -> _Any:
    """What each byte of the resource holds (the inverse of swz.offsets).

    offsets: int or integer array of byte offsets from the start of the resource.

    Returns a numpy record array (np.recarray) of the same shape with dtype
    swz.LOCATION_DTYPE: fields subresource, x, y, z, sample (element
    coordinates), byte (byte inside the element) and padding (True when the
    byte belongs to no element: then only subresource is meaningful and the
    coordinates are 0) and packed (True when the byte is in an adapter-specific
    packed mip tail: then too only subresource is meaningful). A scalar input gives one np.record. Raises IndexError
    for offsets < 0 or >= layout.size.
    """
    a = _as_int64(offsets, "offsets", "offset")
    flat = a if a.flags.c_contiguous else a.copy(order="C")  # (ascontiguousarray would make 0-d 1-d)
    rec = np.empty(flat.shape, dtype=LOCATION_DTYPE)  # every record is written in full
    _swz._locate_into(layout, flat, rec)
    r = rec.view(np.recarray)
    return r.reshape(1)[0] if r.ndim == 0 else r


def _pattern_and_element(source: _Union[Layout, Pattern, str], subresource: int,
                         element_bytes: _Optional[int]) -> _Tuple[Pattern, int]:
    if isinstance(source, Layout):
        s = source.subresource_layout(subresource)
        if element_bytes is not None and element_bytes != s.element_bytes:
            raise ValueError(f"element_bytes = {element_bytes} but the layout's format has {s.element_bytes}-byte elements")
        return s.pattern, s.element_bytes
    if isinstance(source, str):
        source = Pattern(source)
    if not isinstance(source, Pattern):
        raise TypeError(f"expected a swz.Layout, swz.Pattern or pattern text, not {type(source).__name__}")
    return source, 1 if element_bytes is None else int(element_bytes)


def order_image(source: _Union[Layout, Pattern, str], subresource: int = 0, *, element_bytes: _Optional[int] = None,
                origin: _Sequence[int] = (0, 0, 0)) -> np.ndarray:
    """The address order of one block: where each element of a block lands.

    source:        swz.Layout (uses the subresource's pattern and element size),
                   swz.Pattern or pattern text.
    element_bytes: element size for a bare pattern (default 1: then X counts bytes).
    origin:        (x, y, z) in elements of the block to draw (default the
                   first). Matters only for XOR terms on bits above the block.

    Returns an int64 array indexed [y, x] (2D) or [z, y, x] (when the pattern
    has Z bits), with a leading sample axis when it has S bits, in ELEMENTS of
    the block; each value is the element's position in memory order inside the
    block (in-block byte offset / element_bytes), a permutation of
    0 .. elements-1. Raises ValueError for an invalid pattern.
    """
    pattern, eb = _pattern_and_element(source, subresource, element_bytes)
    pattern.validate(eb)
    ex, ey, ez, es = pattern.block_extent
    if ex % eb:
        raise ValueError(f"the block is {ex} bytes wide in X, not a multiple of element_bytes = {eb}")
    nx = ex // eb
    o = [int(v) for v in origin] + [0] * (3 - len(origin))
    ox, oy, oz = (o[0] // nx) * nx, (o[1] // ey) * ey, (o[2] // ez) * ez
    s, z, y, x = np.meshgrid(np.arange(es), np.arange(ez), np.arange(ey), np.arange(nx), indexing="ij")
    off = _swz._pattern_offsets(pattern, eb, (x + ox) * eb, y + oy, z + oz, s, 0, 0)
    order = ((off & np.uint64(pattern.block_bytes - 1)) // np.uint64(eb)).astype(np.int64)
    if ez == 1:
        order = order[:, 0]
    if es == 1:
        order = order[0]
    return order


def plot_pattern(source: _Union[Layout, Pattern, str], path: _Union[str, "os.PathLike[str]"], subresource: int = 0, *,
                 element_bytes: _Optional[int] = None, origin: _Sequence[int] = (0, 0, 0), annotate: _Optional[bool] = None,
                 cmap: str = "viridis", title: _Optional[str] = None, dpi: int = 100) -> str:
    """Save a PNG heat map of one block's address order (swz.order_image).

    Each cell is an element of the block (x to the right, y down) coloured by
    its position in memory. 3D blocks and sample planes become a grid of
    panels (at most 64). annotate: write the order numbers into the cells
    (default: when the block has at most 256 elements).

    Needs matplotlib (imported only here): raises ImportError with install
    hints when it is missing. Returns the path written.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "swz.plot_pattern needs matplotlib, which is not installed "
            "(Debian: apt install python3-matplotlib; pip: pip install matplotlib). "
            "swz.order_image returns the same data as a numpy array without it."
        ) from e
    order = order_image(source, subresource, element_bytes=element_bytes, origin=origin)
    panels = order.reshape((-1,) + order.shape[-2:])
    labels = [""] if order.ndim == 2 else [f"{'s' if order.ndim == 3 and _has_samples(source, subresource) else 'z'}={i}"
                                           for i in range(panels.shape[0])]
    if order.ndim == 4:
        labels = [f"s={i // order.shape[1]} z={i % order.shape[1]}" for i in range(panels.shape[0])]
    if panels.shape[0] > 64:
        panels, labels = panels[:64], labels[:64]
    n = panels.shape[0]
    cols = int(np.ceil(np.sqrt(n)))
    rows = int(np.ceil(n / cols))
    h, w = panels.shape[1:]
    if annotate is None:
        annotate = n * h * w <= 256
    cell = 0.45 if annotate else max(0.02, 6.0 / max(h, w))
    fig = Figure(figsize=(max(3.0, cols * w * cell + 1.5), max(3.0, rows * h * cell + 1.0)), dpi=dpi)
    FigureCanvasAgg(fig)
    vmax = int(order.max()) if order.size else 1
    im = None
    for i in range(n):
        ax = fig.add_subplot(rows, cols, i + 1)
        im = ax.imshow(panels[i], cmap=cmap, vmin=0, vmax=vmax, interpolation="nearest")
        if labels[i]:
            ax.set_title(labels[i], fontsize=8)
        ax.set_xlabel("x (elements)", fontsize=7)
        ax.set_ylabel("y (rows)", fontsize=7)
        ax.tick_params(labelsize=6)
        if annotate:
            for yy in range(h):
                for xx in range(w):
                    ax.text(xx, yy, str(panels[i, yy, xx]), ha="center", va="center", fontsize=6, color="w")
    if im is not None:
        fig.colorbar(im, ax=fig.axes, shrink=0.8, label="order in memory (elements)")
    pattern, eb = _pattern_and_element(source, subresource, element_bytes)
    fig.suptitle(title if title is not None else f"{pattern.to_text()}  ({eb}-byte elements)", fontsize=8)
    fig.savefig(os.fspath(path))
    return os.fspath(path)


def _has_samples(source: _Union[Layout, Pattern, str], subresource: int) -> bool:
    pattern, _ = _pattern_and_element(source, subresource, None)
    return pattern.block_extent[3] > 1
