// Lowering an op to the kernels cuBLAS, cuDNN and PyTorch would launch for it: GEMMs (linear,
// matmul, convolution as implicit GEMM, attention's two products) on the fastest of cuBLAS's tiles
// for this GPU (lower_gemm), FP32 convolutions on CUDA cores on the fastest of cuDNN's algorithms
// (conv_lowering.h), the other ops as PyTorch's kernels (lower_op). gpu_lowering.cpp names the
// measurements each kernel's geometry comes from; docs/validation.md ("The model being validated")
// compares them with measured kernels.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

#include "models/graph.h"
#include "sim/gpu/kernel.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// Remembers GEMM lowerings (the tile search is most of a lowering's cost); safe to share between
// threads. One cache belongs to one KernelTimer (the best tile depends on its GPU and calibration).
class GemmLoweringCache {
 public:
  // batch, m, n, k, type, tensor cores, element bytes, extra bytes, strided-batched, K may be split,
  // layout (GemmLayout)
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::string, bool, double, double,
                         bool, bool, int>;
  std::optional<std::vector<Kernel>> find(const Key& key) const;
  void store(const Key& key, std::vector<Kernel> kernels);

 private:
  mutable std::mutex mutex_;
  std::map<Key, std::vector<Kernel>> entries_;
};

// One GEMM tile asked for by name rather than searched: `rows` x `columns` of the row-major
// output C per block (a cuBLAS kernel named PxQ covers Q rows and P columns), K split `split` ways.
// A validation uses it to time dse's kernel on the tile a measurement ran, which separates the
// error of the tile choice from the error of the kernel's time.
struct GemmTileRequest {
  std::int64_t rows = 0, columns = 0;
  std::int64_t split = 1;
};

// Where a GEMM's B operand lies, for the pages its main loop reads (Kernel::translation). A is
// m x k row-major in both: B k x n row-major (torch.matmul, bmm), or n x k and read transposed
// (nn.Linear's weight, matmul with transpose_b). `unmodelled`: convolutions' implicit and Winograd
// GEMMs and fused attention, whose operands are gathered rather than strided.
enum class GemmLayout { unmodelled, b_row_major, b_transposed };

// The kernels of `op`: its GEMMs' (lower_gemm; an FP32 convolution on CUDA cores:
// lower_simt_conv2d); none for a view; PyTorch's row kernels for layer and group norm and softmax;
// else PyTorch's vectorised kernel (4 output elements per thread, 128-thread blocks).
// `tile`: lower every GEMM of `op` on that tile instead of the fastest; no kernels when dse's tile
// table has no tile of that size or the split leaves slices shorter than 8 (an op without GEMMs
// lowers as usual).
std::vector<Kernel> lower_op(const Graph& graph, const Op& op, const KernelTimer& timer,
                             GemmLoweringCache* cache = nullptr, const GemmTileRequest* tile = nullptr);

// The fastest tiling of one GEMM (batch x M x N x K) in `type`: one kernel (split-K slices run in
// the same launch and sum their partial products through a workspace). It tries cuBLAS's
// SGEMM/HGEMM thread-block tiles and split-K factors 1-8 (only when the output tiles cannot fill
// one wave) and keeps the fastest, as cuBLAS's heuristics aim to; gpu_lowering.cpp has the tiles,
// their sources and the SIMT main loop's issue efficiency.
// `extra_bytes` of operands beyond A, B and C (a bias, say) are read once.
// `strided_batched`: the GEMM is one cuBLAS strided-batched call (torch.bmm), which is never split
// and in FP32 gets the tiles cuBLAS's batched SGEMM runs on the architecture.
// `tile`: that tile and split only (empty when the table has no such tile), as lower_op's.
// `split_k` false: never split K (cuDNN's implicit-GEMM convolution kernels, which launch one block
// per output tile: grid z is 1 on all 5,897 of NeuSight's FP32 convolution rows that ran one).
// `layout`: where B lies; the tile is chosen without it (cuBLAS's heuristics pick by shape), the
// chosen kernel carries the pages its main loop reads.
std::vector<Kernel> lower_gemm(const GemmView& gemm, const std::string& type, bool tensor_cores, double element_bytes,
                               double extra_bytes, const KernelTimer& timer, bool strided_batched = false,
                               const GemmTileRequest* tile = nullptr, bool split_k = true,
                               GemmLayout layout = GemmLayout::unmodelled);

}  // namespace dse
