// swz — the Vulkan compute path (built when SWZ_GPU=ON and Vulkan + glslc are
// found; then SWZ_HAVE_GPU is defined for users of the swz target).
//
// One compute dispatch per subresource region converts between a linear
// buffer and a laid-out resource buffer, byte for byte what the CPU kernels
// produce (docs/ARCHITECTURE.md). The pattern's tables (G byte tables, the inverse
// in-block map as per-chunk columns) live in a storage buffer; the box,
// pitches, pre-swizzle offsets and stacking go in push constants; each
// workgroup owns a contiguous range of the resource (whole blocks or parts
// of one) and gathers / scatters the linear side in whole sectors.
//
// Requirements on the device: Vulkan 1.1, VK_KHR_push_descriptor, a queue
// with compute; storageBuffer16BitAccess / storageBuffer8BitAccess only for
// copies whose alignment forces 2- or 1-byte words (see Limits below).
//
// No exceptions cross this API; every call returns a Status. A machine with
// no Vulkan driver gets Code::no_device from Context::create.
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>

#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz::gpu {

/// A range of a VkBuffer. `size` is the number of bytes the call may touch
/// from `offset` (VK_WHOLE_SIZE is not accepted: give the real size).
struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
};

struct ContextOptions {
  /// Index into vkEnumeratePhysicalDevices; -1 = pick (discrete, then
  /// integrated, virtual, CPU). The environment variable SWZ_VK_DEVICE, when
  /// set to a decimal or 0x hex index, overrides -1.
  int device_index = -1;
  /// Enable VK_LAYER_KHRONOS_validation when it is installed.
  bool validation = false;
};

/// A caller's Vulkan objects to adopt. The caller keeps them alive for the
/// Context's lifetime and must have created the device with
/// VK_KHR_push_descriptor enabled (or API >= 1.4), and says which optional
/// features it enabled.
struct AdoptInfo {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;     ///< used only by the host-memory conveniences
  uint32_t queue_family = 0;          ///< family of `queue`, with VK_QUEUE_COMPUTE_BIT
  bool storage_buffer_8bit = false;   ///< storageBuffer8BitAccess enabled
  bool storage_buffer_16bit = false;  ///< storageBuffer16BitAccess enabled
  bool external_memory_host = false;  ///< VK_EXT_external_memory_host enabled (host path may import)
};

/// How the host conveniences (Context::write_to_subresource /
/// read_from_subresource) move the caller's memory to and from the GPU.
enum class HostPath : uint8_t {
  /// Registered memory (import without cost), else ring, else import, else
  /// staged: see Context::write_to_subresource.
  automatic = 0,
  /// VK_EXT_external_memory_host: the caller's pages (the page-aligned range
  /// around each span) are imported for the call (or were registered) and
  /// the GPU reads and writes them over the bus, through device-local bands
  /// (DispatchTuning::import_band_B); no host copy. Forced, it fails with
  /// Code::unsupported where the device or the pointer does not allow it.
  import,
  /// A ring of pinned host chunks (a few MiB each, HOST_VISIBLE |
  /// HOST_COHERENT, HOST_CACHED where offered): the CPU copies band k+1 in
  /// (and band k-2 out) on several threads while the GPU converts band k,
  /// reading and writing the pinned chunks directly. A region that cannot
  /// be split into disjoint bands of at most 64 MiB is staged instead
  /// (HostPathStats::path says so).
  ring,
  /// The ring, with each band copied by vkCmdCopyBuffer (on the Context's
  /// queue) into device-local buffers, converted there, and copied back.
  ring_copy,
  /// Whole-subresource staging buffers, one submission (the first form).
  staged,
};

/// Tuning knobs; the defaults are what the benchmark found best.
struct DispatchTuning {
  /// log2 of the 16-byte chunks one workgroup moves (11 = 32 KiB). 0 = default;
  /// the environment variable SWZ_GPU_WG_LOG2 overrides the default.
  unsigned wg_chunks_log2 = 0;
  /// The host conveniences' path. automatic: the environment variable
  /// SWZ_GPU_HOST_PATH (auto, import, ring, ring_copy, staged) decides when
  /// set; SWZ_GPU_HOST_IMPORT=0 keeps automatic away from import.
  HostPath host_path = HostPath::automatic;
  /// Bytes of one ring chunk (rounded to whole block rows; grown to one
  /// block row when a row is larger). 0 = SWZ_GPU_RING_CHUNK when set, else
  /// 1/8 of the subresource between 2 and 8 MiB.
  uint64_t ring_chunk_B = 0;
  /// Chunks in flight (2..8). 0 = 3, or SWZ_GPU_RING_SLOTS.
  unsigned ring_slots = 0;
  /// Threads of the ring's host copies, the caller's included (1..64).
  /// 0 = min(8, hardware threads), or SWZ_GPU_COPY_THREADS.
  unsigned copy_threads = 0;
  /// The ring's host copies write with non-temporal stores (x86), into the
  /// pinned chunks and into the caller's buffer. Off by default, or on with
  /// SWZ_GPU_STREAM_COPIES=1.
  bool stream_copies = false;
  /// Imported memory (HostPath::import, and registered memory) goes through
  /// device-local buffers in bands of about this many bytes: band j is
  /// uploaded while band j-1 is converted and band j-2 downloaded, the upload
  /// and the download in one dispatch (the bus carries both directions at
  /// once only that way). 0 = SWZ_GPU_IMPORT_BAND when set, else 1/8 of the
  /// region between 4 and 32 MiB. UINT64_MAX (or SWZ_GPU_IMPORT_BAND=direct):
  /// no bands, one dispatch reads and writes the caller's memory over the
  /// bus. Regions that give fewer than 3 bands, or that cannot be split
  /// (see HostPath::ring), take the direct dispatch.
  uint64_t import_band_B = 0;
};

/// What the last host-convenience call did (for logs, tests, benchmarks).
struct HostPathStats {
  HostPath path = HostPath::automatic;  ///< the path that ran (never automatic after a call)
  uint32_t chunks = 0;                  ///< bands converted (1 for import and staged unless split)
  uint64_t chunk_B = 0;                 ///< largest band's bytes (resource side), 0 for import's direct dispatch
  double total_ms = 0;                  ///< the whole call
  double setup_ms = 0;                  ///< imports, or growing the ring / staging buffers
  uint64_t imported_B = 0;              ///< bytes imported for this call (0 when registered)
  double host_copy_ms = 0;  ///< CPU copies into and out of pinned memory (the ring overlaps them with the GPU)
  double wait_ms = 0;       ///< time spent waiting for the GPU
};

/// What one recorded conversion does (for logs and benchmarks).
struct DispatchInfo {
  uint32_t workgroups = 0;   ///< total workgroups of the dispatch (256 invocations each)
  uint32_t word_bytes = 0;   ///< bytes each load/store moves (16 when the pattern's run and alignment allow)
  uint32_t chunks_log2 = 0;  ///< log2 of the words one workgroup moves
  uint32_t dispatches = 0;   ///< vkCmdDispatch calls recorded (> 1 when the region was split into bands)
};

/// A Vulkan device plus the swizzle pipelines. Movable, not copyable; cheap
/// to keep. Thread safety: calls on one Context must not overlap.
class Context {
 public:
  Context();
  ~Context();
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// Creates an instance and a device of its own. Code::no_device when there
  /// is no Vulkan loader/driver/device; unsupported when the device lacks a
  /// requirement (the message names it).
  static Status create(Context* out, const ContextOptions& options = {});
  /// Adopts a caller's instance/device/queue (nothing is destroyed later).
  static Status adopt(Context* out, const AdoptInfo& info);

  bool valid() const { return impl_ != nullptr; }
  std::string device_name() const;
  VkInstance instance() const;
  VkPhysicalDevice physical_device() const;
  VkDevice device() const;
  VkQueue queue() const;
  uint32_t queue_family() const;

  void set_tuning(const DispatchTuning& t);

  // ---- Recording into a caller's command buffer -----------------------------
  // These bind a compute pipeline, push descriptors and push constants, then
  // record one vkCmdDispatch, or one per band when the subresource or the
  // linear box exceeds one storage-buffer binding (maxStorageBufferRange, at
  // most 4 GiB - 1): the box is then split into bands of whole block rows,
  // each bound to its own window of both buffers. The caller's compute
  // bindings are disturbed.
  // Synchronisation is the caller's: make prior writes to the source visible
  // to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_READ_BIT before,
  // and wait for the compute shader's writes after. The command buffer must
  // belong to a queue family with compute. Validation is that of
  // swz::write_to_subresource / read_from_subresource (D3D12 semantics, box in
  // texels) with the buffers' ranges as the spans. The two ranges must not
  // overlap. Pattern tables are uploaded to buffers the Context owns and
  // keeps until trim() or destruction, so nothing recorded here needs the
  // caller to keep anything alive but the Context and its buffers.

  /// Linear (`src`, pointing at the box's first element) -> resource
  /// (`resource`: the whole resource, offset 0 = the layout's byte 0).
  Status record_write_to_subresource(VkCommandBuffer cmd, const Layout& layout, const BufferRange& resource,
                                     uint32_t subresource, const Box* box, const BufferRange& src,
                                     uint64_t src_row_pitch, uint64_t src_depth_pitch, DispatchInfo* info = nullptr);
  /// Resource -> linear. Mirror of record_write_to_subresource.
  Status record_read_from_subresource(VkCommandBuffer cmd, const BufferRange& dst, uint64_t dst_row_pitch,
                                      uint64_t dst_depth_pitch, const Layout& layout, const BufferRange& resource,
                                      uint32_t subresource, const Box* box, DispatchInfo* info = nullptr);

  /// A plain compute-shader copy of `size` bytes (vkCmdCopyBuffer is several
  /// times slower on some drivers). 16-byte words when offsets and size
  /// allow, else the largest word that divides them; same workgroup shape as
  /// the swizzle dispatch.
  Status record_buffer_copy(VkCommandBuffer cmd, const BufferRange& src, const BufferRange& dst, uint64_t size,
                            DispatchInfo* info = nullptr);

  // ---- Host memory conveniences (same signature and rules as swz/copy.hpp) --
  // Blocking, on the Context's queue. Every band is planned (so every device
  // limit checked) before anything is allocated or imported. The path
  // (DispatchTuning::host_path): automatic imports without cost when both
  // spans lie in registered memory (register_host_memory), else takes the
  // pinned ring when the region goes in bands of at most 64 MiB (any region
  // up to that; larger ones split into bands of block rows, which needs a
  // 2D box of a pattern whose G stays inside the block, see Limits), else
  // imports the caller's memory when the device offers
  // VK_EXT_external_memory_host and the driver accepts the pointers, else
  // stages the whole subresource. Bytes of the
  // resource (write) or of the linear buffer (read) that the box does not
  // cover are left as they were. The ring, the banded import and the staged
  // path keep them by copying a band's window (resource bytes beside the
  // box within its tiles, padding between linear rows) in and writing it
  // back unchanged: the caller must not write those bytes from another
  // thread during the call, and they must be writable. The pinned ring, the
  // band slots, the command buffers and the copy threads are kept by the
  // Context for later calls (trim() frees them).
  Status write_to_subresource(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                              const Box* box, const void* src, uint64_t src_size, uint64_t src_row_pitch,
                              uint64_t src_depth_pitch);
  Status read_from_subresource(void* dst, uint64_t dst_size, uint64_t dst_row_pitch, uint64_t dst_depth_pitch,
                               const Layout& layout, const void* resource, uint64_t resource_size, uint32_t subresource,
                               const Box* box);

  /// Checks that the host conveniences (and the recording calls) can convert
  /// this subresource box with these linear pitches on this device: the
  /// validation of the copy calls (with buffers assumed large enough) plus
  /// every device limit (binding size, band split, 32-bit shader
  /// arithmetic). Allocates nothing; callers can refuse a request before
  /// reading or allocating anything for it.
  Status check_subresource(const Layout& layout, uint32_t subresource, const Box* box, uint64_t lin_row_pitch,
                           uint64_t lin_depth_pitch) const;

  /// Registers [ptr, ptr + size) of the caller's host memory with the
  /// Context (VK_EXT_external_memory_host: the page-aligned range around it
  /// is imported once). Later host conveniences whose resource and linear
  /// spans both lie in registered ranges take the import path with no import
  /// cost (HostPath::automatic included): the dispatch reads and writes the
  /// caller's memory over the bus. The memory must stay allocated until
  /// unregister_host_memory(ptr) or the Context's destruction. Code::unsupported
  /// when the device or driver cannot import it (drivers may refuse a range
  /// that shares a page with one registered before); invalid_argument for
  /// null, size 0 or a range overlapping one registered before.
  Status register_host_memory(const void* ptr, uint64_t size);
  /// Waits for the queue and releases a range registered at `ptr`.
  Status unregister_host_memory(const void* ptr);

  /// What the last write_to_subresource / read_from_subresource did.
  HostPathStats last_host_stats() const;

  /// Frees the cached pattern tables, staging buffers and the ring. Call only
  /// when no recorded work is pending on the GPU.
  void trim();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Limits: a subresource or linear box larger than the device's
// maxStorageBufferRange (and 4 GiB - 1) is split into bands of block rows.
// That needs a 2D box (depth 1) and a pattern whose G stays inside the block
// (no postamble terms, no immediate above the block); any other oversized
// copy fails with Code::unsupported naming the limit, before anything is
// allocated or recorded. The host conveniences also check everything
// (every band's plan) before they allocate staging memory.

}  // namespace swz::gpu
