// Lowering an op to the kernels cuBLAS/cuDNN/PyTorch would launch for it.
//
// GEMMs (linear, matmul, conv as implicit GEMM, attention's two products) try the thread-block
// tiles cuBLAS's SGEMM/HGEMM kernels use (128x128 ... 32x32, 8x8 to 4x2 outputs per thread,
// oriented as cuBLAS's column-major kernels cover the output) and split-K factors 1-8 (only when
// the output tiles cannot fill one wave, as cuBLAS does), and keep the fastest on this GPU, as
// cuBLAS's heuristics aim to. Strided-batched GEMMs (matmul ops) are never split, and in FP32 they
// get the tiles cuBLAS's batched SGEMM runs on the architecture: its one kernel on Pascal, Ampere
// and Ada; the fastest of its four on Volta and Turing. On CUDA cores a main loop reaches
// ab / (ab + 0.75) of the peak for an a x b per-thread tile (0.75 issue slots per k step that do
// not dual-issue with the FFMAs, as counted in maxas's SGEMM); tensor-core tiles are not penalised
// this way. FP32 convolutions on CUDA cores take the fastest of cuDNN's algorithms (conv_lowering.h:
// implicit GEMM never split along K, and Winograd for 3 x 3 stride-1 layers).
// Elementwise ops run 4 elements per thread in 128-thread blocks (PyTorch's vectorised kernels);
// layer norm one 128-thread block per row, reading it twice; softmax over rows of up to 1,024
// elements (4 KB) four rows per 128-thread block, read once (softmax_warp_forward), longer rows one
// block per row sized as PyTorch's SoftMax_getBlockSize, read three times (cunn_SoftMaxForward);
// second and third passes come from L2 for the share of resident rows that fits. Reductions and
// pooling run one thread per output; views launch nothing.
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

// `tile`: lower every GEMM of `op` on that tile instead of the fastest; no kernels when dse's tile
// table has no tile of that size or the split leaves slices shorter than 8 (an op without GEMMs
// lowers as usual).
std::vector<Kernel> lower_op(const Graph& graph, const Op& op, const KernelTimer& timer,
                             GemmLoweringCache* cache = nullptr, const GemmTileRequest* tile = nullptr);

// The fastest tiling of one GEMM (batch x M x N x K) in `type`: one kernel (split-K slices run in
// the same launch and sum their partial products through a workspace). `extra_bytes` of operands
// beyond A, B and C (a bias, say) are read once. `strided_batched`: the GEMM is one cuBLAS
// strided-batched call (torch.bmm), which is never split and on some architectures has one tile.
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
