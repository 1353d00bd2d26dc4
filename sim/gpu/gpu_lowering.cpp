#include "sim/gpu/gpu_lowering.h"

#include <algorithm>
#include <limits>
#include <span>

#include "models/base/ceil_div.h"
#include "sim/gpu/conv_lowering.h"

namespace dse {
namespace {

struct Tile {
  std::int64_t m, n;  // rows x columns of the (row-major) output C = A x B that one block computes
  int threads;
  int registers;
  int per_thread_a, per_thread_b;  // outputs per thread: a x b
};

// cuBLAS SGEMM kernel tiles (kernel names *_sgemm_128x128, 128x64, 64x64, 128x32, 32x128, and the
// "sliced" 64x32 / 32x32) with their block sizes as profiled in the NeuSight measurements. cuBLAS
// is column-major: PyTorch's row-major C = A x B runs as C^T = B^T x A^T, so a kernel named
// PxQ covers P of C's columns and Q of its rows (the measured grids confirm it: a 1,024 x 2,560
// linear output on ampere_sgemm_128x64 runs grid 20 x 16 = 2,560 / 128 x 1,024 / 64). The table
// lists each as rows x columns of C.
constexpr Tile kTiles[] = {
    {128, 128, 256, 128, 8, 8}, {64, 128, 128, 128, 8, 8}, {64, 64, 64, 128, 8, 8}, {32, 128, 256, 64, 4, 4},
    {128, 32, 256, 64, 4, 4},   {32, 64, 256, 48, 4, 2},   {32, 32, 128, 48, 4, 2},
};

// The kernels cuBLAS's strided-batched SGEMM runs on an architecture family, as the NeuSight kernel
// lists show. Pascal, Ampere and Ada run one for every shape: every A100 (2,281) and L4 (2,092) bmm
// row runs ampere_sgemm_128x128_nn, every P100 row (2,004) and 63 of the P4's 72
// maxwell_sgemm_128x64_nn (128 columns x 64 rows of C). Each family has two GPUs in the data, so
// the sibling alone gives the same table when one is held out. Volta and Turing (the T4 runs
// volta_sgemm kernels too) pick among four: named 128x64, 64x64, 32x128 and 128x32 (T4 1,615, 197,
// 0 and 164 of its 1,976 rows; V100 0, 21, 51 and 0 of 72), never 128x128 or the sliced 64x32 and
// 32x32; dse picks the fastest of those four. NeuSight's training shapes (trsharm25/NeuSight,
// scripts/asplos/data/dataset/train/collect/bmm, not fitted to) agree: 2 sliced among 1,130 Volta
// and Turing rows. Hopper's FP32 kernels are not in the data: there dse picks from every tile.
std::span<const Tile> batched_sgemm_tiles(GpuArchitecture architecture) {
  static constexpr Tile kVolta[] = {kTiles[1], kTiles[2], kTiles[3], kTiles[4]};  // named 128x64 ... 128x32
  switch (architecture) {
    case GpuArchitecture::ampere:
    case GpuArchitecture::ada: return {&kTiles[0], 1};     // 128 x 128
    case GpuArchitecture::pascal: return {&kTiles[1], 1};  // 64 rows x 128 columns
    case GpuArchitecture::volta:
    case GpuArchitecture::turing: return kVolta;
    case GpuArchitecture::hopper:
    case GpuArchitecture::blackwell: return kTiles;
  }
  return kTiles;
}

// Adds to a one-row-per-block kernel the traffic of its `extra_reads` further passes over its
// `rows` rows of `row_bytes`. A pass after the first finds the row in the SM's L1 when the rows of
// the blocks resident on the SM fit there (the share that fits: min(1, L1 / their bytes)); what
// misses finds it in L2 when the rows of every resident block fit there (min(1, L2 / their bytes)),
// and DRAM serves the rest.
void add_row_rereads(Kernel& kernel, const GpuSpec& spec, double row_bytes, std::int64_t rows, int extra_reads) {
  const std::int64_t resident = std::min(kernel.blocks, blocks_per_wave(kernel, spec.sm, spec.sm_count));
  const double per_sm = std::max(1.0, static_cast<double>(resident) / spec.sm_count) * row_bytes;
  const double l1_hit = std::min(1.0, spec.l1_cache_kib * 1024 / per_sm);
  const double all_sms = std::max(1.0, static_cast<double>(resident) * row_bytes);
  const double l2_hit = std::min(1.0, spec.l2_cache_mib * 1024 * 1024 / all_sms);
  const double missing_l1 = extra_reads * (1.0 - l1_hit) * row_bytes * static_cast<double>(rows);
  kernel.l2_hit_bytes += missing_l1 * l2_hit;
  kernel.dram_bytes += missing_l1 * (1.0 - l2_hit);
}

// Where `op`'s B operand lies (matmuls only; convolutions and fused attention are not modelled).
GemmLayout gemm_layout(const Op& op) {
  if (op.kind != OpKind::matmul) return GemmLayout::unmodelled;
  return reads_b_transposed(op) ? GemmLayout::b_transposed : GemmLayout::b_row_major;
}

}  // namespace

std::vector<Kernel> lower_gemm(const GemmView& gemm, const std::string& type, bool tensor_cores, double element_bytes,
                               double extra_bytes, const KernelTimer& timer, bool strided_batched,
                               const GemmTileRequest* request, bool split_k, GemmLayout layout) {
  std::vector<Kernel> best;
  const Tile* best_tile = nullptr;
  std::int64_t best_split = 1;
  double best_seconds = std::numeric_limits<double>::infinity();
  const double operand_bytes = element_bytes * static_cast<double>(gemm.batch) *
                               static_cast<double>(gemm.m * gemm.k + gemm.k * gemm.n + gemm.m * gemm.n);
  const bool batched_call = strided_batched && gemm.batch > 1;
  const std::span<const Tile> candidates = batched_call && !tensor_cores && !request
                                               ? batched_sgemm_tiles(timer.spec().architecture)
                                               : std::span<const Tile>(kTiles);
  // Strided-batched GEMMs are never split: all 8,467 NeuSight bmm rows on six GPUs launch
  // batch x output tiles blocks.
  const std::int64_t max_split = batched_call || !split_k ? 1 : 8;
  for (const Tile& tile : candidates) {
    if (request && (tile.m != request->rows || tile.n != request->columns)) continue;
    Kernel resources;
    resources.threads_per_block = tile.threads;
    resources.registers_per_thread = tile.registers;
    resources.shared_bytes_per_block =
        static_cast<int>(2 * (tile.m + tile.n) * 8 * 4);  // double-buffered k-slices of 8
    const std::int64_t tiles = gemm.batch * ceil_div(gemm.m, tile.m) * ceil_div(gemm.n, tile.n);
    const std::int64_t one_wave = blocks_per_wave(resources, timer.spec().sm, timer.spec().sm_count);
    // A request times its own split (a measured grid's blocks over its tiles: 3 and 99 happen) however short
    // the slices.
    const std::int64_t first_split = request ? request->split : 1;
    const std::int64_t last_split = request ? request->split : max_split;
    for (std::int64_t split = first_split; split <= last_split; split *= 2) {
      if (request && (split < 1 || gemm.k / split < 8)) break;
      if (!request && split > 1 && gemm.k / split < 128) break;
      // cuBLAS splits K only when the output tiles cannot fill the GPU once (the NeuSight grids:
      // on the A100 only grids of at most 120 tiles, on the P100 at most 384, are split).
      if (!request && split > 1 && tiles >= one_wave) break;
      Kernel kernel = resources;
      kernel.name = std::string(tensor_cores ? "hgemm_" : "sgemm_") + std::to_string(tile.m) + "x" +
                    std::to_string(tile.n) + (split > 1 ? "_splitk" + std::to_string(split) : "");
      kernel.blocks = tiles * split;
      // A SIMT (CUDA-core) main loop issues a x b FFMAs per k step and, per 8 steps, 6 instructions
      // that cannot dual-issue with them (loop count, compare, branch, pointer swaps); its shared
      // and global loads dual-issue. maxas's SGEMM (NervanaSystems/maxas, sgemm/sgemm128.sass, the
      // Maxwell kernel cuBLAS's maxwell_sgemm descends from) counts 512 FFMAs in 518 issue slots
      // for an 8 x 8 thread tile: 0.75 slots per step, 98.8 %. Tensor-core tiles do not pay it.
      const double ab = tile.per_thread_a * tile.per_thread_b;
      const double tile_efficiency = tensor_cores ? 1.0 : ab / (ab + 0.75);
      // Work rounded up to whole tiles, divided by the tile's main-loop efficiency.
      const double padded = 2.0 * static_cast<double>(gemm.batch * ceil_div(gemm.m, tile.m) * tile.m *
                                                      ceil_div(gemm.n, tile.n) * tile.n * gemm.k);
      kernel.flops = padded / tile_efficiency;
      // Split-K as cuBLAS's SGEMM runs it (one kernel, grid z = split; the NeuSight kernel lists
      // show no separate reduction): every slice but the last writes its fp32 partial C tile to a
      // workspace and the last reads them back.
      const double outputs = static_cast<double>(gemm.batch * gemm.m * gemm.n);
      kernel.dram_bytes = operand_bytes + extra_bytes + 8.0 * static_cast<double>(split - 1) * outputs;
      // What the blocks write after their main loops: C, and each slice but the last its fp32 partial.
      kernel.store_bytes = (element_bytes + 4.0 * static_cast<double>(split - 1)) * outputs;
      kernel.compute_type = type;
      kernel.matrix = true;
      const double seconds = timer.time(kernel).seconds;
      if (best.empty() || seconds < best_seconds) {  // a NaN time (a fit's wild step) still yields a kernel
        best_seconds = seconds;
        best = {kernel};
        best_tile = &tile;
        best_split = split;
      }
    }
  }
  // Where the main loop reads, for the TLB and DRAM-row models (sim/gpu/translation_model.h,
  // dram_activation_model.h); the tile is chosen without them (cuBLAS's heuristics pick by shape).
  if (!best.empty() && layout != GemmLayout::unmodelled)
    best[0].gemm_footprint = {gemm.batch,  gemm.m,        gemm.n,
                              gemm.k,      best_tile->m,  best_tile->n,
                              best_split,  element_bytes, layout == GemmLayout::b_transposed,
                              batched_call};
  return best;
}

std::optional<std::vector<Kernel>> GemmLoweringCache::find(const Key& key) const {
  const std::lock_guard lock(mutex_);
  const auto it = entries_.find(key);
  return it == entries_.end() ? std::nullopt : std::optional<std::vector<Kernel>>(it->second);
}

void GemmLoweringCache::store(const Key& key, std::vector<Kernel> kernels) {
  const std::lock_guard lock(mutex_);
  entries_.emplace(key, std::move(kernels));
}

std::vector<Kernel> lower_op(const Graph& graph, const Op& op, const KernelTimer& timer, GemmLoweringCache* cache,
                             const GemmTileRequest* tile) {
  const OpCategory category = op_category(op);
  if (category == OpCategory::view) return {};
  const std::string type(dtype_name(op.dtype));
  const double element_bytes = dtype_bytes(op.dtype);
  const Tensor& out = graph.tensor(op.output);
  if (category == OpCategory::matrix && !op.gemms.empty()) {
    // Tensor cores for non-fp32 types the GPU supports (PyTorch runs fp32 GEMMs on CUDA cores).
    const bool tensor = op.dtype != DType::fp32 && timer.spec().tensor_core_flops_per_clock.contains(type);
    std::vector<Kernel> kernels;
    double gemm_bytes = 0;
    for (const auto& g : op.gemms)
      gemm_bytes += element_bytes * static_cast<double>(g.batch * (g.m * g.k + g.k * g.n + g.m * g.n));
    const double extra = std::max(0.0, static_cast<double>(op.cost.bytes_read + op.cost.bytes_written) - gemm_bytes);
    // The fastest tiling of one GEMM, remembered in the cache.
    const GemmLayout layout = gemm_layout(op);
    const GemmLowerer fastest = [&](const GemmView& gemm, bool batched, bool split_k, double extra_bytes) {
      const GemmLoweringCache::Key key{gemm.batch,
                                       gemm.m,
                                       gemm.n,
                                       gemm.k,
                                       type,
                                       tensor,
                                       element_bytes,
                                       extra_bytes,
                                       batched,
                                       split_k,
                                       static_cast<int>(layout)};
      auto cached = cache ? cache->find(key) : std::nullopt;
      if (!cached) {
        cached = lower_gemm(gemm, type, tensor, element_bytes, extra_bytes, timer, batched, nullptr, split_k, layout);
        if (cache) cache->store(key, *cached);
      }
      return *cached;
    };
    // An FP32 convolution on CUDA cores: the fastest of cuDNN's algorithms (conv_lowering.h).
    if (op.kind == OpKind::conv2d && op.dtype == DType::fp32 && !tensor && !tile && op.gemms.size() == 1) {
      kernels = lower_simt_conv2d(graph, op, timer, fastest, extra);
    } else {
      // torch.matmul / bmm is one cuBLAS strided-batched call; grouped convolutions (cuDNN) and fused
      // attention are not, so they keep the fastest tile.
      const bool strided_batched = op.kind == OpKind::matmul;
      for (std::size_t i = 0; i < op.gemms.size(); ++i) {
        const double extra_bytes = i == 0 ? extra : 0.0;
        const auto gemm = tile ? lower_gemm(op.gemms[i], type, tensor, element_bytes, extra_bytes, timer,
                                            strided_batched, tile, true, layout)
                               : fastest(op.gemms[i], strided_batched, true, extra_bytes);
        if (gemm.empty()) return {};
        kernels.insert(kernels.end(), gemm.begin(), gemm.end());
      }
    }
    if (kernels.empty()) return {};
    // What the GEMMs do beyond 2 flops per MAC (bias, epilogues, attention's softmax) rides along.
    kernels.back().flops += std::max<double>(0, static_cast<double>(op.cost.flops - 2 * op.cost.macs));
    return kernels;
  }
  Kernel kernel;
  kernel.name = std::string(op_kind_name(op.kind));
  kernel.flops = static_cast<double>(op.cost.flops);
  kernel.dram_bytes = static_cast<double>(op.cost.bytes_read + op.cost.bytes_written);
  kernel.compute_type = type == "fp32" || type == "fp16" || type == "bf16" ? type : "fp32";
  kernel.registers_per_thread = 32;
  const std::int64_t elements = out.elements();
  const std::int64_t row = out.shape.empty() ? 1 : out.shape.back();
  const std::int64_t rows = row > 0 ? elements / row : 0;
  const double row_bytes = static_cast<double>(row) * element_bytes;
  if (op.kind == OpKind::layernorm || op.kind == OpKind::groupnorm) {
    kernel.blocks = std::max<std::int64_t>(1, rows);
    kernel.threads_per_block = 128;
    // PyTorch's vectorized_layer_norm_kernel reads its row twice: moments, then normalise.
    if (op.kind == OpKind::layernorm) add_row_rereads(kernel, timer.spec(), row_bytes, rows, 1);
  } else if (op.kind == OpKind::softmax && row <= 1024 && row_bytes <= 4096) {
    // PyTorch's softmax_warp_forward (taken when the row has at most 1,024 elements and 4,096
    // bytes): a warp holds a row in registers, four warps per block.
    kernel.blocks = std::max<std::int64_t>(1, ceil_div(rows, 4));
    kernel.threads_per_block = 128;
  } else if (op.kind == OpKind::softmax) {
    // cunn_SoftMaxForward, sized by SoftMax_getBlockSize (ILP 4, at most 1024 threads, halved,
    // rounded up to a power of 2): it reads its row three times (max, sum of exponentials, write).
    const std::int64_t ilp = 4;
    std::int64_t max_block = std::min<std::int64_t>(row / ilp, 1024) / 2;
    std::int64_t block = 1;
    while (block < max_block) block *= 2;
    kernel.blocks = std::max<std::int64_t>(1, rows);
    kernel.threads_per_block = static_cast<int>(std::max<std::int64_t>(block, 32));
    add_row_rereads(kernel, timer.spec(), row_bytes, rows, 2);
  } else {
    kernel.threads_per_block = 128;
    kernel.blocks = std::max<std::int64_t>(1, (elements + 511) / 512);  // 4 elements per thread
  }
  return {kernel};
}

}  // namespace dse
