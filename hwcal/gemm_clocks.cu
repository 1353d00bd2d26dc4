// Times cuBLAS GEMMs on the GPU it runs on, for the clock law in sim/gpu/kernel_timer.h:
//   gemm_clocks sweep fp16|fp32             one line per shape, LLMCompass's format
//                                           ("M, N, K, TIMEms, XTflops"), for `dse validate gemm`
//   gemm_clocks hold fp16|fp32 SECONDS N    an N x N x N GEMM back to back for SECONDS, one line per
//                                           second ("elapsed_s,tflops") while nvidia-smi samples
//                                           the SM clock and power (scripts/device/measure_gemm_clocks.sh)
//   gemm_clocks stream SECONDS MIB           device-to-device copies of MIB MiB back to back for
//                                           SECONDS, one line per second ("elapsed_s,gbps", bytes
//                                           read + written): a DRAM-bound load for the power model
// Operands hold pseudo-random values (zeros would toggle less and draw less power). FP16 runs
// cublasGemmEx with FP32 accumulation, as PyTorch does; FP32 runs cublasSgemm (no TF32).
// Row-major A[M x K] x B[K x N] as PyTorch's matmul, i.e. column-major C^T = B^T A^T.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "gemm_clocks: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "gemm_clocks: %s: cuBLAS status %d\n", what, static_cast<int>(status));
    std::exit(1);
  }
}

template <typename T>
__global__ void fill(T* data, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;  // Knuth's multiplicative hash
    x ^= x >> 15;
    data[i] = T(static_cast<float>(x & 0xffff) / 65536.0f - 0.5f);
  }
}

struct Gemm {
  bool fp16;
  long m, n, k;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  cublasHandle_t handle;

  Gemm(bool half, long m_, long n_, long k_, cublasHandle_t h) : fp16(half), m(m_), n(n_), k(k_), handle(h) {
    const size_t element = fp16 ? 2 : 4;
    check(cudaMalloc(&a, element * m * k), "cudaMalloc A");
    check(cudaMalloc(&b, element * k * n), "cudaMalloc B");
    check(cudaMalloc(&c, element * m * n), "cudaMalloc C");
    if (fp16) {
      fill<<<1024, 256>>>(static_cast<__half*>(a), size_t(m) * k, 1u);
      fill<<<1024, 256>>>(static_cast<__half*>(b), size_t(k) * n, 2u);
    } else {
      fill<<<1024, 256>>>(static_cast<float*>(a), size_t(m) * k, 1u);
      fill<<<1024, 256>>>(static_cast<float*>(b), size_t(k) * n, 2u);
    }
    check(cudaDeviceSynchronize(), "fill");
  }
  ~Gemm() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  void run() const {
    const float one = 1.0f, zero = 0.0f;
    // Column-major C^T[N x M] = B^T[N x K] x A^T[K x M].
    if (fp16)
      check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16F, n, a, CUDA_R_16F, k, &zero, c,
                         CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx");
    else
      check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, static_cast<const float*>(b), n,
                        static_cast<const float*>(a), k, &zero, static_cast<float*>(c), n),
            "cublasSgemm");
  }
  double flops() const { return 2.0 * m * n * k; }
};

// Median of `repeats` timings of one GEMM, in ms, after warm-up runs.
double time_ms(const Gemm& gemm, int repeats) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  for (int i = 0; i < 3; ++i) gemm.run();
  std::vector<float> ms(repeats);
  for (int i = 0; i < repeats; ++i) {
    check(cudaEventRecord(start), "record");
    gemm.run();
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "synchronize");
    check(cudaEventElapsedTime(&ms[i], start, stop), "elapsed");
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + repeats / 2, ms.end());
  return ms[repeats / 2];
}

int usage() {
  std::fprintf(stderr,
               "usage: gemm_clocks sweep fp16|fp32\n       gemm_clocks hold fp16|fp32 SECONDS N\n"
               "       gemm_clocks stream SECONDS MIB\n");
  return 2;
}

}  // namespace

// Copies `mib` MiB between two device buffers for `seconds`, printing the DRAM traffic each second.
int stream(double seconds, long mib) {
  const size_t bytes = static_cast<size_t>(mib) << 20;
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  check(cudaMemset(a, 0x5a, bytes), "cudaMemset");
  std::printf("elapsed_s,gbps\n");
  const auto begin = std::chrono::steady_clock::now();
  auto mark = begin;
  long done = 0;
  for (;;) {
    check(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    std::swap(a, b);
    if (++done % 4 != 0) continue;
    check(cudaDeviceSynchronize(), "synchronize");
    const auto now = std::chrono::steady_clock::now();
    const double since_mark = std::chrono::duration<double>(now - mark).count();
    if (since_mark < 1.0) continue;
    const double elapsed = std::chrono::duration<double>(now - begin).count();
    std::printf("%.2f,%.1f\n", elapsed, 2.0 * static_cast<double>(bytes) * done / since_mark / 1e9);
    std::fflush(stdout);
    mark = now;
    done = 0;
    if (elapsed >= seconds) break;
  }
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "stream") {
    const double seconds = std::atof(argv[2]);
    const long mib = std::atol(argv[3]);
    if (seconds <= 0 || mib <= 0) return usage();
    return stream(seconds, mib);
  }
  if (argc < 3) return usage();
  const std::string mode = argv[1], type = argv[2];
  if (type != "fp16" && type != "fp32") return usage();
  const bool fp16 = type == "fp16";
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  // FP32 stays FP32: no TF32 tensor-core path.
  check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::fprintf(stderr, "gemm_clocks: %s, %s\n", prop.name, type.c_str());

  if (mode == "sweep") {
    // LLMCompass's A100 shapes: M x 12288 x 12288 and 8192 x N x N.
    std::vector<std::vector<long>> shapes;
    for (long m = 64; m <= 32768; m *= 2) shapes.push_back({m, 12288, 12288});
    for (long n = 64; n <= 32768; n *= 2) shapes.push_back({8192, n, n});
    for (const auto& s : shapes) {
      const Gemm gemm(fp16, s[0], s[1], s[2], handle);
      const double ms = time_ms(gemm, 20);
      std::printf("%ld, %ld, %ld, %.4fms, %.4fTflops\n", s[0], s[1], s[2], ms, gemm.flops() / (ms * 1e-3) / 1e12);
      std::fflush(stdout);
    }
  } else if (mode == "hold" && argc == 5) {
    const double seconds = std::atof(argv[3]);
    const long n = std::atol(argv[4]);
    if (seconds <= 0 || n <= 0) return usage();
    const Gemm gemm(fp16, n, n, n, handle);
    std::printf("elapsed_s,tflops\n");
    const auto begin = std::chrono::steady_clock::now();
    auto mark = begin;
    long done = 0;
    for (;;) {
      gemm.run();
      ++done;
      if (done % 4 == 0) check(cudaDeviceSynchronize(), "synchronize");
      const auto now = std::chrono::steady_clock::now();
      const double since_mark = std::chrono::duration<double>(now - mark).count();
      if (done % 4 == 0 && since_mark >= 1.0) {
        const double elapsed = std::chrono::duration<double>(now - begin).count();
        std::printf("%.2f,%.2f\n", elapsed, done * gemm.flops() / since_mark / 1e12);
        std::fflush(stdout);
        mark = now;
        done = 0;
        if (elapsed >= seconds) break;
      }
    }
  } else {
    return usage();
  }
  cublasDestroy(handle);
  return 0;
}
