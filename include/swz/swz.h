/* swz — C API (C99): convert textures between linear memory and GPU swizzled
 * layouts (D3D12 64KB / 4KB standard swizzle, row-major, parameterized swizzle
 * patterns, hardware layout families).
 *
 * A thin layer over the C++ library (swz/layout_names.hpp, swz/copy.hpp,
 * swz/surface.hpp, swz/address.hpp). Conventions:
 *   - Every call that can fail returns swz_status. SWZ_OK (0) is success; any
 *     other value leaves every output untouched and every caller buffer
 *     unwritten, and swz_last_error() then returns a message that names the
 *     field and value at fault.
 *   - No C++ exception crosses this API; running out of memory is
 *     SWZ_OUT_OF_MEMORY.
 *   - Units: sizes, offsets and pitches in BYTES (names end in _B), 64-bit.
 *     Boxes in TEXELS (D3D12_BOX: right, bottom, back exclusive). Element
 *     coordinates (swz_element_offset, swz_locate) in ELEMENTS: texels, or
 *     4x4 blocks for block-compressed formats.
 *   - A swz_layout is immutable after creation; it may be used from several
 *     threads at once. swz_last_error() is per thread.
 */
#ifndef SWZ_SWZ_H
#define SWZ_SWZ_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(SWZ_SHARED)
#if defined(SWZ_BUILDING_LIBRARY)
#define SWZ_API __declspec(dllexport)
#else
#define SWZ_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define SWZ_API __attribute__((visibility("default")))
#else
#define SWZ_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes. The first ten have the values of the C++ swz::Code. */
typedef enum swz_status {
  SWZ_OK = 0,
  SWZ_INVALID_ARGUMENT = 1, /**< a field has a value the rules forbid (or a null pointer) */
  SWZ_OUT_OF_RANGE = 2,     /**< a coordinate, box, index or offset lies outside the resource */
  SWZ_BUFFER_TOO_SMALL = 3, /**< a caller buffer is shorter than the call needs */
  SWZ_UNSUPPORTED = 4,      /**< valid input the operation refuses (MSAA copies, packed mip tails) */
  SWZ_PARSE_ERROR = 5,      /**< malformed layout name, pattern text or JSON */
  SWZ_IO_ERROR = 6,         /**< a file named by a layout name could not be read */
  SWZ_OVERFLOW = 7,         /**< a size or offset does not fit in 64 bits */
  SWZ_NO_DEVICE = 8,        /**< no Vulkan device (GPU path only; not returned by this API) */
  SWZ_INTERNAL = 9,         /**< a bug in swz; please report */
  SWZ_OUT_OF_MEMORY = 10    /**< an allocation failed */
} swz_status;

/** Short, static name of a status value ("invalid_argument"); "unknown" for
 *  other values. Takes an int so that any value may be passed. */
SWZ_API const char* swz_status_name(int status);

/** Message of the last swz_status-returning call on this thread: "" when it
 *  succeeded, else what failed (field and value). Valid until the next such
 *  call on this thread. Never NULL. */
SWZ_API const char* swz_last_error(void);

/** The library version, "MAJOR.MINOR.PATCH". */
SWZ_API const char* swz_version(void);

/** Texture dimension. */
typedef enum swz_dimension { SWZ_TEXTURE_2D = 0, SWZ_TEXTURE_3D = 1 } swz_dimension;

/** mip_levels value for the full mip chain (so is 0, as in D3D12_RESOURCE_DESC). */
#define SWZ_MIPS_FULL 0xFFFFFFFFu

/** What D3D12_RESOURCE_DESC says about a texture. Zero-initialize, then set
 *  format and width/height; a 0 in depth, array_size or samples means 1, and
 *  a 0 in mip_levels means the full mip chain (D3D12_RESOURCE_DESC's
 *  MipLevels = 0). Sizes in texels. */
typedef struct swz_texture_desc {
  uint32_t dimension;   /**< a swz_dimension value (other values: SWZ_INVALID_ARGUMENT) */
  const char* format;   /**< DXGI format name ("R8G8B8A8_UNORM", "DXGI_FORMAT_BC7_UNORM"; any case),
                             or NULL to use dxgi_format */
  uint32_t dxgi_format; /**< DXGI_FORMAT value, used when format is NULL (ETC, EAC and ASTC formats,
                             which DXGI lacks: their OpenGL internal-format value, e.g. 0x9274) */
  uint32_t width, height;
  uint32_t depth;      /**< 3D only */
  uint32_t array_size; /**< 2D only */
  uint32_t mip_levels; /**< 1..full chain; 0 or SWZ_MIPS_FULL: the full chain */
  uint32_t samples;
} swz_texture_desc;

/** Optional pitches and mip-tail policy for row-major, std64k, std4k and
 *  pattern layouts (hardware families and resource-layout files refuse
 *  non-zero values). Zero-initialize for the defaults. */
typedef struct swz_layout_options {
  uint64_t row_pitch_B;    /**< bytes between rows of blocks; 0 = the layout's default */
  uint64_t depth_pitch_B;  /**< bytes between slices of blocks; 0 = default */
  uint64_t stack_rows;     /**< stacked-depth patterns: rows between depth slices; 0 = default */
  uint32_t d3d12_mip_tail; /**< non-zero: the adapter packs the smallest mips (D3D12_PACKED_MIP_INFO below) */
  uint32_t num_standard_mips, num_packed_mips, num_tiles_for_packed_mips;
} swz_layout_options;

/** A laid-out texture (opaque). */
typedef struct swz_layout swz_layout;

/** Lays out a texture by layout name, the grammar of the swz command's
 *  --layout: "row-major", "std64k", "std4k", "FAMILY[:key=value,...]" (a
 *  hardware layout family, e.g. "nv-block-linear:gob=tegra,bh=8"),
 *  "pattern:TEXT" (one parameterized swizzle pattern), or a path to a JSON
 *  file (a pattern, or a resource layout, which fixes the texture itself:
 *  desc is then ignored and may be NULL). options may be NULL.
 *  On success *out receives a layout to free with swz_layout_destroy.
 *  Errors: SWZ_INVALID_ARGUMENT (null pointers, unknown format, zero sizes,
 *  options a layout refuses, ...), SWZ_PARSE_ERROR, SWZ_IO_ERROR,
 *  SWZ_UNSUPPORTED, SWZ_OVERFLOW, SWZ_OUT_OF_MEMORY. */
SWZ_API swz_status swz_layout_create(const char* name, const swz_texture_desc* desc, const swz_layout_options* options,
                                     swz_layout** out);

/** Frees a layout; NULL is ignored. */
SWZ_API void swz_layout_destroy(swz_layout* layout);

/** Whole-resource facts. */
typedef struct swz_layout_info {
  uint64_t size_B;                /**< bytes the resource spans */
  uint64_t alignment_B;           /**< alignment of the resource allocation */
  uint64_t allocation_size_B;     /**< size_B rounded up to alignment_B */
  uint64_t surface_linear_size_B; /**< linear bytes of every subresource tightly packed (swz_swizzle_surface) */
  uint32_t subresource_count;     /**< mip_levels * array_size * planes */
  uint32_t width, height, depth, array_size, mip_levels,
      samples; /**< the texture (from the file for resource layouts) */
  uint32_t dxgi_format;
  const char* format; /**< DXGI name without prefix; static storage */
  uint32_t dimension; /**< a swz_dimension value */
} swz_layout_info;

SWZ_API swz_status swz_layout_get_info(const swz_layout* layout, swz_layout_info* out);

/** Where one subresource lives. */
typedef struct swz_subresource_info {
  uint64_t offset_B;                /**< from the start of the resource */
  uint64_t size_B;                  /**< bytes the subresource spans in the resource */
  uint64_t row_pitch_B;             /**< bytes between rows of blocks in the resource */
  uint64_t depth_pitch_B;           /**< bytes between slices of blocks; 0 when stack_depth */
  uint64_t stack_rows;              /**< rows between stacked depth slices; 0 unless stack_depth */
  uint64_t linear_size_B;           /**< bytes of the subresource tightly packed (rows of width_el * element_bytes) */
  uint64_t surface_linear_offset_B; /**< its offset in the tightly packed whole-surface linear side */
  uint32_t mip, array_slice, plane;
  uint32_t width, height, depth; /**< texels */
  uint32_t width_el, height_el;  /**< elements (4x4 blocks for BC) */
  uint32_t element_bytes;
  uint32_t packed;      /**< 1: in an adapter-specific packed mip tail; copies refuse it */
  uint32_t stack_depth; /**< 1: depth slices stacked in rows (stack_rows != 0) */
} swz_subresource_info;

/** Errors: SWZ_OUT_OF_RANGE when subresource >= subresource_count. */
SWZ_API swz_status swz_layout_get_subresource(const swz_layout* layout, uint32_t subresource,
                                              swz_subresource_info* out);

/** D3D12_BOX, in texels; right, bottom, back exclusive. An empty box
 *  (right <= left, bottom <= top or back <= front) copies nothing. BC formats:
 *  left/top multiples of 4; right/bottom multiples of 4 or the subresource edge. */
typedef struct swz_box {
  uint32_t left, top, front, right, bottom, back;
} swz_box;

/** Copy backends. */
typedef enum swz_backend {
  SWZ_BACKEND_AUTO = 0,
  SWZ_BACKEND_SCALAR,
  SWZ_BACKEND_HIGHWAY,
  SWZ_BACKEND_XSIMD
} swz_backend;

/** Copy options; NULL or zero-initialized = defaults. */
typedef struct swz_copy_options {
  uint32_t backend;        /**< a swz_backend value; AUTO: $SWZ_BACKEND when set, else the fastest built in */
  uint32_t threads;        /**< 0 = automatic */
  uint32_t write_combined; /**< non-zero: the resource is write-combined (uncached) memory */
} swz_copy_options;

/** Bytes a linear buffer must hold for a copy of `box` (NULL = the whole
 *  subresource) with these pitches: (d-1)*depth_pitch_B + (h-1)*row_pitch_B
 *  + one row. A pitch of 0 means the tight one (one row of the box; rows *
 *  row pitch). Empty box: 0. Errors: those of swz_write_subresource for the box. */
SWZ_API swz_status swz_box_linear_size(const swz_layout* layout, uint32_t subresource, const swz_box* box,
                                       uint64_t row_pitch_B, uint64_t depth_pitch_B, uint64_t* out_B);

/** Linear -> resource (WriteToSubresource). `src` points at the box's first
 *  element and holds src_size_B bytes; row and depth pitches of the linear
 *  side in bytes (0 = tight, as swz_box_linear_size). box NULL = whole
 *  subresource. Nothing outside [resource, resource + resource_size_B) or
 *  [src, src + src_size_B) is touched, and on error nothing is written.
 *  Errors: SWZ_OUT_OF_RANGE (subresource, box), SWZ_INVALID_ARGUMENT (box off
 *  BC block edges, pitch too small, null buffer, the linear bytes sharing
 *  memory with the subresource's span), SWZ_BUFFER_TOO_SMALL, SWZ_OVERFLOW,
 *  SWZ_UNSUPPORTED (MSAA, packed mip tail, conditional postamble). */
SWZ_API swz_status swz_write_subresource(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                         uint32_t subresource, const swz_box* box, const void* src, uint64_t src_size_B,
                                         uint64_t src_row_pitch_B, uint64_t src_depth_pitch_B,
                                         const swz_copy_options* options);

/** Resource -> linear (ReadFromSubresource); the mirror of swz_write_subresource. */
SWZ_API swz_status swz_read_subresource(const swz_layout* layout, void* dst, uint64_t dst_size_B,
                                        uint64_t dst_row_pitch_B, uint64_t dst_depth_pitch_B, const void* resource,
                                        uint64_t resource_size_B, uint32_t subresource, const swz_box* box,
                                        const swz_copy_options* options);

/** Whole surface, linear -> resource: every subresource in subresource order
 *  (mip + slice * mip_levels), each tightly packed, from `linear`
 *  (swz_layout_info.surface_linear_size_B bytes). linear_offsets_B: NULL, or
 *  subresource_count offsets of each subresource in `linear` (for containers
 *  that align each mip); entries must not overlap. Every subresource is
 *  checked before the first byte is written. Errors: as swz_write_subresource,
 *  the message prefixed with the subresource. */
SWZ_API swz_status swz_swizzle_surface(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                       const void* linear, uint64_t linear_size_B, const uint64_t* linear_offsets_B,
                                       const swz_copy_options* options);

/** Whole surface, resource -> linear; the mirror of swz_swizzle_surface. */
SWZ_API swz_status swz_deswizzle_surface(const swz_layout* layout, void* linear, uint64_t linear_size_B,
                                         const void* resource, uint64_t resource_size_B,
                                         const uint64_t* linear_offsets_B, const swz_copy_options* options);

/** Byte offset in the resource of element (x, y, z) and sample of a
 *  subresource (ELEMENT coordinates). Errors: SWZ_OUT_OF_RANGE. */
SWZ_API swz_status swz_element_offset(const swz_layout* layout, uint32_t subresource, uint32_t x, uint32_t y,
                                      uint32_t z, uint32_t sample, uint64_t* out_B);

/** What a resource byte holds. */
typedef struct swz_location {
  uint32_t subresource;
  uint32_t x, y, z, sample; /**< element coordinates */
  uint32_t byte;            /**< byte inside the element */
  uint32_t padding;         /**< 1: the byte belongs to no element (only subresource is set) */
  uint32_t packed;          /**< 1: the byte is in a packed mip tail (only subresource is set) */
} swz_location;

/** Inverse of swz_element_offset. Errors: SWZ_OUT_OF_RANGE when offset_B >= size_B. */
SWZ_API swz_status swz_locate(const swz_layout* layout, uint64_t offset_B, swz_location* out);

/* ---- The batched copy engine (CopyTextureRegions, CopyResources, CopyTiles) ----
 * Every call below checks every region before the first byte is written: on
 * error nothing is written. Boxes and destination coordinates in TEXELS (BC:
 * multiples of 4). C++: swz/copy.hpp and swz/footprint.hpp. */

/** D3D12_PLACED_SUBRESOURCE_FOOTPRINT: row-major texture data in a buffer.
 *  Element (x, y, z) starts at offset_B + (z * rows + y) * row_pitch_B +
 *  x * element_bytes, rows = height / block height. */
typedef struct swz_placed_footprint {
  uint64_t offset_B;  /**< from the buffer's start; a multiple of 512 (D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT) */
  const char* format; /**< DXGI name of the subresource's format (planar: the plane's, e.g. "R8G8_TYPELESS"), or NULL to
                         use dxgi_format */
  uint32_t dxgi_format;   /**< DXGI_FORMAT value, used when format is NULL */
  uint32_t width, height; /**< texels; multiples of the block (BC: 4) */
  uint32_t depth;         /**< slices; 0 means 1 */
  uint64_t row_pitch_B;   /**< a multiple of 256 (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT), at least one row */
} swz_placed_footprint;

/** D3D12_TEXTURE_COPY_REGION: src_box (texels of the source; NULL = the whole
 *  source) copied to (dst_x, dst_y, dst_z) of the destination. */
typedef struct swz_copy_region {
  uint32_t dst_x, dst_y, dst_z;
  const swz_box* src_box;
} swz_copy_region;

/** Direction of a placed-footprint copy. */
typedef enum swz_footprint_direction {
  SWZ_BUFFER_TO_TEXTURE = 0, /**< D3D12_TEXTURE_COPY_DESC_TYPE_BUFFER_TO_TEXTURE: the footprint is the source */
  SWZ_TEXTURE_TO_BUFFER = 1  /**< D3D12_TEXTURE_COPY_DESC_TYPE_TEXTURE_TO_BUFFER: the footprint is the destination */
} swz_footprint_direction;

/** CopyTextureRegions between the footprint in `buffer` and a subresource of
 *  `resource`. region_count 0 copies the whole source to (0, 0, 0) (regions may
 *  then be NULL). Errors name the field: SWZ_INVALID_ARGUMENT (footprint.offset_B
 *  not a multiple of 512, footprint.row_pitch_B not a multiple of 256 or
 *  shorter than a row, footprint.format not the subresource's format family,
 *  sizes off the block, overlapping destination regions, the footprint's bytes
 *  overlapping the subresource's, bad direction), SWZ_BUFFER_TOO_SMALL (the
 *  footprint past the buffer's end, the resource shorter than the
 *  subresource), SWZ_OUT_OF_RANGE (a box or destination outside its side),
 *  SWZ_UNSUPPORTED (MSAA, packed mip tail), SWZ_OVERFLOW. */
SWZ_API swz_status swz_copy_placed_footprint(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                             uint32_t subresource, void* buffer, uint64_t buffer_size_B,
                                             const swz_placed_footprint* footprint, uint32_t direction,
                                             const swz_copy_region* regions, uint32_t region_count,
                                             const swz_copy_options* options);

/** CopyResources: every subresource of `src` (src_layout) into `dst`
 *  (dst_layout), re-tiled, without a linear staging copy. The layouts must
 *  describe the same texture (dimension, size, format, mips, array, samples):
 *  SWZ_INVALID_ARGUMENT names the field that differs. Also SWZ_INVALID_ARGUMENT
 *  when the buffers overlap, SWZ_BUFFER_TOO_SMALL, SWZ_UNSUPPORTED (MSAA,
 *  packed mip tails). */
SWZ_API swz_status swz_copy_resources(const swz_layout* dst_layout, void* dst, uint64_t dst_size_B,
                                      const swz_layout* src_layout, const void* src, uint64_t src_size_B);

/** One texture-to-texture region (D3D12_TEXTURE_TEXTURE_COPY_DESC + one
 *  D3D12_TEXTURE_COPY_REGION). */
typedef struct swz_texture_region {
  uint32_t dst_subresource;
  uint32_t dst_x, dst_y, dst_z;
  uint32_t src_subresource;
  const swz_box* src_box; /**< NULL = the whole source subresource */
} swz_texture_region;

/** Region copies between two laid-out resources of any layouts, directly.
 *  The formats must have the same element size and block shape; destination
 *  regions must not overlap; dst and src may be the same buffer under the same
 *  placement (one layout, or layouts placing every subresource alike) only
 *  when no destination box overlaps a source box of its subresource; other
 *  aliasing must keep destination and source subresource spans apart, as
 *  swz::copy_regions. Errors: SWZ_INVALID_ARGUMENT,
 *  SWZ_OUT_OF_RANGE, SWZ_BUFFER_TOO_SMALL, SWZ_UNSUPPORTED. */
SWZ_API swz_status swz_copy_regions(const swz_layout* dst_layout, void* dst, uint64_t dst_size_B,
                                    const swz_layout* src_layout, const void* src, uint64_t src_size_B,
                                    const swz_texture_region* regions, uint32_t region_count);

/** D3D12_TILED_RESOURCE_COORDINATE, in tiles. */
typedef struct swz_tile_coordinate {
  uint32_t x, y, z;
  uint32_t subresource;
} swz_tile_coordinate;

/** D3D12_TILE_REGION_SIZE: num_tiles in x, y, z order, or (use_box non-zero)
 *  a width x height x depth box of tiles whose product is num_tiles. */
typedef struct swz_tile_region_size {
  uint32_t num_tiles;
  uint32_t use_box;
  uint32_t width, height, depth;
} swz_tile_region_size;

/** Direction of a tile copy. */
typedef enum swz_tile_direction {
  SWZ_TILES_BUFFER_TO_RESOURCE = 0, /**< D3D12_TILE_COPY_FLAG_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE */
  SWZ_TILES_RESOURCE_TO_BUFFER = 1  /**< D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER */
} swz_tile_direction;

/** CopyTiles: whole tiles (the layout's blocks: 64 KiB for std64k) between a
 *  subresource and `buffer`, where they lie one after another from
 *  buffer_offset_B, each linear within the tile. Errors: SWZ_OUT_OF_RANGE
 *  (tiles outside the grid), SWZ_INVALID_ARGUMENT, SWZ_BUFFER_TOO_SMALL,
 *  SWZ_UNSUPPORTED (packed mips, MSAA). */
SWZ_API swz_status swz_copy_tiles(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                  const swz_tile_coordinate* start, const swz_tile_region_size* size, void* buffer,
                                  uint64_t buffer_size_B, uint64_t buffer_offset_B, uint32_t direction);
/* ---- Clears, fills and resolves (D3D12 ClearTextureSubresources, FillBuffers,
 * ResolveSubresourceRegion) on laid-out memory. Values are converted by the
 * Direct3D data conversion rules; see README "Clears, fills and resolves".
 * Every call checks every descriptor first: on any error nothing is written. */

/** D3D12_CLEAR_DATA. UINT/SINT, stencil and YUV formats read `uints` (their
 *  low bits, bit for bit); every other format reads `floats`. */
typedef union swz_clear_data {
  float floats[4];
  uint32_t uints[4];
  int32_t sints[4];
  uint8_t bytes[16];
} swz_clear_data;

/** swz_clear_desc.subresource value meaning every subresource (every plane). */
#define SWZ_ALL_SUBRESOURCES 0xFFFFFFFFu

/** One ClearTextureSubresources descriptor. box: NULL = the whole
 *  subresource, else TEXELS of the logical (plane 0) size; BC: multiples of 4
 *  (right/bottom: or the edge); NV12/P010/P016 2x2, YUY2/Y210/Y216 2x1.
 *  format_dxgi: 0 = the resource's format, else a typed format of the same
 *  element size (TYPELESS resources need one). */
typedef struct swz_clear_desc {
  uint32_t subresource;
  swz_clear_data value;
  uint32_t format_dxgi;
  const swz_box* box;
} swz_clear_desc;

/** Clears `count` descriptors. Errors: SWZ_OUT_OF_RANGE (subresource, box),
 *  SWZ_INVALID_ARGUMENT (box off the format's alignment, format_dxgi),
 *  SWZ_UNSUPPORTED (formats without a rule: TYPELESS, XR_BIAS, palette/opaque
 *  video; packed mip tails), SWZ_BUFFER_TOO_SMALL. */
SWZ_API swz_status swz_clear_subresources(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                          const swz_clear_desc* descs, uint32_t count);

/** One element (a texel; a 4x4 block for BC; a 2x1 pair for YUY2) of plane
 *  `plane` of a format (by name, or by DXGI value when `format` is NULL) for
 *  a clear value, into out (out_size_B >= the element size). */
SWZ_API swz_status swz_encode_clear_value(const char* format, uint32_t dxgi_format, uint32_t plane,
                                          const swz_clear_data* value, void* out, uint64_t out_size_B);

/** One FillBuffers descriptor (D3D12_FILL_BUFFER_DESC). format_dxgi 0: the
 *  first raw_pattern_bytes (1, 2, 4, 8, 12 or 16) bytes of value; else the
 *  value encoded for that format (raw_pattern_bytes 0). offset_B: a multiple
 *  of the pattern size for sizes 1 and 2, of 4 for larger ones. A repetition
 *  that does not fit in the buffer is omitted, as are those after it. */
typedef struct swz_fill_desc {
  uint64_t offset_B;
  swz_clear_data value;
  uint32_t format_dxgi;
  uint32_t raw_pattern_bytes;
  uint32_t repeat_count;
} swz_fill_desc;

/** Errors: SWZ_INVALID_ARGUMENT (pattern size, offset alignment, format),
 *  SWZ_OUT_OF_RANGE (offset past the end). */
SWZ_API swz_status swz_fill_buffers(void* buffer, uint64_t buffer_size_B, const swz_fill_desc* descs, uint32_t count);

/** D3D12_RESOLVE_MODE values (DECOMPRESS, 0, is refused). */
typedef enum swz_resolve_mode { SWZ_RESOLVE_MIN = 1, SWZ_RESOLVE_MAX = 2, SWZ_RESOLVE_AVERAGE = 3 } swz_resolve_mode;

/** D3D12_RECT in texels; right, bottom exclusive. */
typedef struct swz_rect {
  uint32_t left, top, right, bottom;
} swz_rect;

/** ResolveSubresourceRegion: the samples of each source texel in src_rect
 *  (NULL = the whole subresource) combined into the texel at
 *  (dst_x + x, dst_y + y) of a single-sampled destination. AVERAGE: UNORM,
 *  SNORM, FLOAT, sRGB (in linear light); refused for UINT/SINT. format_dxgi:
 *  0 = the source's format. Errors: SWZ_INVALID_ARGUMENT (sample counts,
 *  element sizes, shared memory), SWZ_UNSUPPORTED (mode, format),
 *  SWZ_OUT_OF_RANGE (rect, destination), SWZ_BUFFER_TOO_SMALL. */
SWZ_API swz_status swz_resolve_subresource(const swz_layout* dst_layout, void* dst, uint64_t dst_size_B,
                                           uint32_t dst_subresource, uint32_t dst_x, uint32_t dst_y,
                                           const swz_layout* src_layout, const void* src, uint64_t src_size_B,
                                           uint32_t src_subresource, const swz_rect* src_rect, uint32_t format_dxgi,
                                           uint32_t mode);

/* ---- decoding texels into pixels (swz/decode.hpp states the mapping) ---- */

typedef enum swz_view_channel {
  SWZ_VIEW_RGBA = 0,
  SWZ_VIEW_RGB = 1, /* the colour, opaque */
  SWZ_VIEW_R = 2,   /* one component as opaque grey */
  SWZ_VIEW_G = 3,
  SWZ_VIEW_B = 4,
  SWZ_VIEW_A = 5
} swz_view_channel;
typedef enum swz_tone_map { SWZ_TONE_MAP_CLAMP = 0, SWZ_TONE_MAP_REINHARD = 1 } swz_tone_map;
typedef enum swz_yuv_matrix { SWZ_YUV_BT601 = 0, SWZ_YUV_BT709 = 1 } swz_yuv_matrix;
/* Big-endian sources: each 16- or 32-bit word of an element is swapped first. */
typedef enum swz_byte_order { SWZ_BYTE_ORDER_LITTLE = 0, SWZ_BYTE_ORDER_SWAP16 = 1, SWZ_BYTE_ORDER_SWAP32 = 2 } swz_byte_order;
struct swz_linear_image;

/** How to decode. Zero-initialised is not the default: use
 *  swz_decode_options_default (RGBA, 0 EV, clamp, BT.709 limited range). */
typedef struct swz_decode_options {
  uint32_t channel;        /* swz_view_channel */
  double exposure_ev;      /* RGBA8 of float data: values x 2^exposure_ev, in [-64, 64] */
  uint32_t tone_map;       /* swz_tone_map, RGBA8 of float data */
  uint32_t yuv_matrix;     /* swz_yuv_matrix */
  uint32_t yuv_full_range; /* nonzero: YUV code values span the full range */
  uint32_t stencil;        /* nonzero: D24_UNORM_S8_UINT shows its stencil */
  uint32_t byte_order;     /* swz_byte_order */
  /* P8, A8P8, AI44, IA44: the palette, width x 1 entries of any decodable
   * format of one texel an element (not BC, 4:2:2 or 4:2:0); NULL
   * otherwise. An index past its entries is transparent black. */
  const struct swz_linear_image* palette;
} swz_decode_options;
SWZ_API swz_decode_options swz_decode_options_default(void);

/** A linear image: rows of elements (texels, or blocks for block formats)
 *  row_pitch_B apart (0: tight), of `format` (by name, or by DXGI value when
 *  `format` is NULL). */
typedef struct swz_linear_image {
  const char* format;
  uint32_t dxgi_format;
  uint32_t width_px, height_px;
  const void* data;
  uint64_t size_B;
  uint64_t row_pitch_B;
  uint64_t chroma_offset_B; /* NV12, P010, P016: the chroma rows; 0: right after the luma rows */
} swz_linear_image;

/** Bytes the decoded image needs at a tight pitch: width x height x 4
 *  (RGBA8) or x 16 (RGBA32F, float32 nonzero). Errors: SWZ_OVERFLOW. */
SWZ_API swz_status swz_decoded_size(const swz_linear_image* image, uint32_t float32, uint64_t* out_B);
/** Decodes `image` into RGBA8 view pixels (out_row_pitch_B 0: tight).
 *  options NULL: the defaults. Errors, before any byte is written:
 *  SWZ_UNSUPPORTED (the format cannot be decoded, as ASTC in a build without
 *  libastcenc; the message says why),
 *  SWZ_INVALID_ARGUMENT (sizes, pitches, options, out sharing memory with
 *  the image), SWZ_BUFFER_TOO_SMALL, SWZ_OVERFLOW. */
SWZ_API swz_status swz_decode_rgba8(const swz_linear_image* image, const swz_decode_options* options, uint8_t* out,
                                    uint64_t out_size_B, uint64_t out_row_pitch_B);
/** The same into RGBA32F shader values (16 bytes a pixel). */
SWZ_API swz_status swz_decode_rgba32f(const swz_linear_image* image, const swz_decode_options* options, float* out,
                                      uint64_t out_size_B, uint64_t out_row_pitch_B);

/* ---- Finding an unknown layout (include/swz/identify.hpp) --------------- */

typedef struct swz_identify_options {
  uint32_t top;           /* candidates wanted (0: 5; at most the caller's capacity) */
  uint64_t offset_B;      /* where the texture starts in the dump (with a search: where the search starts) */
  uint64_t offset_step_B; /* 0: no search; else search for the start every this many bytes (a multiple of the
                             element size; 4096 finds page-aligned textures) */
} swz_identify_options;

typedef struct swz_identify_candidate {
  double score;         /* 1 = a perfectly smooth decode, about 0 = noise */
  char layout[256];     /* the layout's name, NUL-terminated, for swz_layout_create */
  uint64_t offset_B;    /* where this candidate's texture starts in the dump */
  uint64_t short_B;     /* bytes of the layout past the dump's end (a short dump is ranked on the bytes it has) */
  uint32_t equivalents; /* other names that give the same bytes for this texture */
} swz_identify_candidate;

/** Ranks the built-in layouts for `dump`, one width x height 2D texture of
 *  `format` (by name, or by DXGI value when `format` is NULL), best first,
 *  into out[0 .. *count) with *count <= capacity. options NULL: the 5 best,
 *  the texture at byte 0. Errors: SWZ_INVALID_ARGUMENT (sizes, a format of
 *  several planes or over 16 bytes an element, an offset step that is not a
 *  multiple of the element size, capacity 0), SWZ_OUT_OF_RANGE (the offset
 *  is past the dump, or no layout fits half in it). */
SWZ_API swz_status swz_identify(const void* dump, uint64_t dump_size_B, const char* format, uint32_t dxgi_format,
                                uint32_t width_px, uint32_t height_px, const swz_identify_options* options,
                                swz_identify_candidate* out, uint32_t capacity, uint32_t* count);

#ifdef __cplusplus
}
#endif

#endif /* SWZ_SWZ_H */
