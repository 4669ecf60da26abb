"""The batched copy engine: region and tile copies, placed-footprint copies and
CopyResources on buffers (numpy arrays, bytearray, mmap, ...).

Conventions (as for swz.swizzle): boxes are ``(left, top, front, right, bottom,
back)`` or ``(left, top, right, bottom)`` in TEXELS (BC: multiples of 4, or the
subresource edge); destination points ``(x, y)`` or ``(x, y, z)`` in texels.
Every region is checked before the first byte is written: on error nothing is
written. Input and output buffers must not share memory (ValueError), except
``copy_regions`` with one buffer and one layout object for both sides. The GIL
is released during the copies.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from . import _swz
from ._swz import Footprint, Layout

FootprintLike = Union[Footprint, Mapping[str, Any]]


def copy_regions(dst: Any, dst_layout: Layout, src: Any, src_layout: Layout, regions: Sequence[Dict[str, Any]]) -> Any:
    """Copy boxes between two laid-out resources of any layouts (CopyTextureRegion), with no linear staging copy.

    dst, src:    buffers holding the resources (dst writable, C-contiguous).
    regions:     dicts with the keys ``dst_subresource`` (0), ``dst`` ((x, y[, z]) texels, (0, 0, 0)),
                 ``src_subresource`` (0) and ``box`` (source box in texels; None = the whole subresource).
    The formats must have the same element size and block shape; destination regions must not overlap.

    Returns ``dst``. Raises ValueError (overlapping regions, formats of another shape, buffers too small or
    sharing memory, MSAA, BC alignment), IndexError (a box or destination outside its subresource), TypeError.
    """
    return _swz.copy_regions(dst, dst_layout, src, src_layout, regions)


def copy_tiles(resource: Any, layout: Layout, buffer: Any, start: Sequence[int] = (0, 0, 0), subresource: int = 0,
               num_tiles: Optional[int] = None, box: Optional[Sequence[int]] = None, buffer_offset: int = 0,
               direction: str = "to_buffer") -> Any:
    """Copy whole tiles between a subresource and a buffer (CopyTiles).

    start:       the first tile, (x, y[, z]) in tiles.
    num_tiles:   tiles in x, then y, then z order from ``start`` (default 1, or the box's count).
    box:         (width, height[, depth]) in tiles: a box of tiles instead of a run.
    buffer:      the tiles one after another from ``buffer_offset`` (bytes), each linear within the tile
                 (rows of the tile's width).
    direction:   'to_buffer' (resource -> buffer) or 'to_resource' (buffer -> resource).

    Returns the buffer written. Raises ValueError (bad direction, buffer too small or sharing memory with the
    resource, packed mips, MSAA), IndexError (tiles outside the subresource's tile grid), TypeError.
    """
    return _swz.copy_tiles(resource, layout, buffer, start, subresource, num_tiles, box, buffer_offset, direction)


def copy_buffer_to_texture(resource: Any, layout: Layout, buffer: Any, footprint: FootprintLike, subresource: int = 0,
                           regions: Optional[Sequence[Dict[str, Any]]] = None) -> Any:
    """Copy from a placed footprint in ``buffer`` into a subresource of ``resource`` (CopyTextureRegion).

    footprint:   a swz.Footprint (``layout.footprints()[i]``) or a dict with ``offset`` (bytes, multiple of
                 512), ``format``, ``width``, ``height`` (texels), ``depth`` (1) and ``row_pitch`` (bytes,
                 multiple of 256) — D3D12_PLACED_SUBRESOURCE_FOOTPRINT.
    regions:     None (the whole footprint to (0, 0, 0)) or dicts with ``box`` (in the footprint, texels) and
                 ``dst`` ((x, y[, z]) in the subresource, texels).

    Returns ``resource``. Raises ValueError naming the field (misaligned offset or row pitch, a format of
    another family, footprint past the end of the buffer, overlapping regions, buffers sharing memory),
    IndexError (a box or destination outside its side), TypeError.
    """
    return _swz.copy_buffer_to_texture(resource, layout, buffer, footprint, subresource, regions)


def copy_texture_to_buffer(buffer: Any, footprint: FootprintLike, resource: Any, layout: Layout, subresource: int = 0,
                           regions: Optional[Sequence[Dict[str, Any]]] = None) -> Any:
    """Copy a subresource of ``resource`` into a placed footprint in ``buffer``; the mirror of copy_buffer_to_texture.

    regions:     None (the whole subresource to (0, 0, 0)) or dicts with ``box`` (in the subresource, texels)
                 and ``dst`` ((x, y[, z]) in the footprint, texels).

    Returns ``buffer``. Raises ValueError, IndexError, TypeError as copy_buffer_to_texture.
    """
    return _swz.copy_texture_to_buffer(buffer, footprint, resource, layout, subresource, regions)


def copy_resources(dst: Any, dst_layout: Layout, src: Any, src_layout: Layout) -> Any:
    """Copy every subresource of ``src`` into ``dst`` in another layout of the same texture (CopyResources).

    dst:         a writable buffer of at least ``dst_layout.size`` bytes, or None for a new zeroed uint8 array.
    The layouts must describe the same texture (dimension, size, format, mips, array, samples); the bytes move
    region by region, without a linear staging copy of the resource.

    Returns ``dst`` (or the new array). Raises ValueError naming the field that differs, or for buffers too
    small or sharing memory, MSAA and packed mip tails; TypeError.
    """
    return _swz.copy_resources(dst, dst_layout, src, src_layout)


__all__: Tuple[str, ...] = ("copy_regions", "copy_tiles", "copy_buffer_to_texture", "copy_texture_to_buffer", "copy_resources")
