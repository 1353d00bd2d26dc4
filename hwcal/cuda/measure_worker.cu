// dse-measure-cuda: measures one kernel on GPU 0 for `dse calibrate --backend cuda`
// (hwcal/backends/cuda_backend.cpp runs one of these per candidate, several at once).
//
//   echo "op=linear dtype=fp16 b=1 m=4096 n=4096 k=4096 warmup=2 repeat=5 min_repeat_ms=10" | dse-measure-cuda
//   dse-measure-cuda --info
//
// Ops as dse's KernelMeasurement rows describe them: linear ([B*M, N] x [N, K], cuBLAS GemmEx),
// bmm (B x [M, N] x [N, K], strided batched), conv2d (cuDNN, NCHW, the fastest algorithm cuDNN
// picks), add/mul/relu/gelu/tanh (elementwise over B x M), reduce (row sums), ln (layer norm) and
// softmax over rows of M, launch (an empty kernel); with pair.* a second op runs at the same time
// on a second stream. Operands hold pseudo-random values. FP16/BF16 GEMMs and convolutions
// accumulate in FP32 on tensor cores; FP32 ones stay FP32 (no TF32).
//
// Timing as TVM does it: `warmup` runs, then `number` launches between two CUDA events per repeat,
// `number` grown until one repeat lasts min_repeat_ms, `repeat` repeats; the median per-launch time.
// With lock=PATH the timed runs hold an exclusive flock on PATH (dse's exclusive timing: workers set
// up at once, then take turns on the GPU). Answer on stdout, one KEY=VALUE per line: status=ok|failed,
// latency_ms, repeats_ms, timed_s (seconds of timed runs), message. Exit 0 on a measurement or a
// reported failure, 2 on a request it cannot read.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#ifdef DSE_HAVE_CUDNN
#include <cudnn.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw Failure(std::string(what) + ": " + cudaGetErrorString(status));
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw Failure(std::string(what) + ": cuBLAS status " + std::to_string(status));
}
#ifdef DSE_HAVE_CUDNN
void check(cudnnStatus_t status, const char* what) {
  if (status != CUDNN_STATUS_SUCCESS) throw Failure(std::string(what) + ": " + cudnnGetErrorString(status));
}
#endif

enum class Type { fp32, fp16, bf16 };
Type type_of(const std::string& name) {
  if (name == "fp32") return Type::fp32;
  if (name == "fp16") return Type::fp16;
  if (name == "bf16") return Type::bf16;
  throw std::invalid_argument("dtype: expected fp32, fp16 or bf16, found " + name);
}
size_t bytes_of(Type t) { return t == Type::fp32 ? 4 : 2; }

template <typename T>
__device__ float load(const T* p, size_t i) {
  return static_cast<float>(p[i]);
}
template <typename T>
__device__ void store(T* p, size_t i, float v) {
  p[i] = static_cast<T>(v);
}

__global__ void fill_bytes(unsigned short* data, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;  // Knuth's multiplicative hash
    x ^= x >> 15;
    data[i] =
        static_cast<unsigned short>(0x3000 | (x & 0x0fff));  // small positive halves, also fine as bf16 / fp32 halves
  }
}

__global__ void empty_kernel() {}

template <typename T>
__global__ void elementwise(int op, const T* a, const T* b, T* out, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    const float x = load(a, i);
    float y = x;
    switch (op) {
      case 0: y = x + load(b, i); break;                                                      // add
      case 1: y = x * load(b, i); break;                                                      // mul
      case 2: y = fmaxf(x, 0.f); break;                                                       // relu
      case 3: y = 0.5f * x * (1.f + tanhf(0.7978846f * (x + 0.044715f * x * x * x))); break;  // gelu
      default: y = tanhf(x); break;                                                           // tanh
    }
    store(out, i, y);
  }
}

// One block per row: op 0 sums the row, 1 normalises it (layer norm), 2 takes its softmax.
template <typename T>
__global__ void row_kernel(int op, const T* in, T* out, long cols) {
  __shared__ float partial[256];
  const T* row = in + blockIdx.x * size_t(cols);
  const auto block_sum = [&](float value) {
    partial[threadIdx.x] = value;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
      if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
      __syncthreads();
    }
    const float total = partial[0];
    __syncthreads();
    return total;
  };
  float local = 0;
  if (op == 2) {
    float m = -1e30f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, load(row, c));
    partial[threadIdx.x] = m;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
      if (threadIdx.x < stride) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + stride]);
      __syncthreads();
    }
    const float max = partial[0];
    __syncthreads();
    for (long c = threadIdx.x; c < cols; c += blockDim.x) local += __expf(load(row, c) - max);
    const float sum = block_sum(local);
    for (long c = threadIdx.x; c < cols; c += blockDim.x)
      store(out + blockIdx.x * size_t(cols), c, __expf(load(row, c) - max) / sum);
    return;
  }
  for (long c = threadIdx.x; c < cols; c += blockDim.x) local += load(row, c);
  const float sum = block_sum(local);
  if (op == 0) {
    if (threadIdx.x == 0) store(out, blockIdx.x, sum);
    return;
  }
  const float mean = sum / cols;
  float squares = 0;
  for (long c = threadIdx.x; c < cols; c += blockDim.x) {
    const float d = load(row, c) - mean;
    squares += d * d;
  }
  const float rstd = rsqrtf(block_sum(squares) / cols + 1e-5f);
  for (long c = threadIdx.x; c < cols; c += blockDim.x)
    store(out + blockIdx.x * size_t(cols), c, (load(row, c) - mean) * rstd);
}

std::map<std::string, std::string> parse(const std::string& line) {
  std::map<std::string, std::string> out;
  std::istringstream words(line);
  for (std::string word; words >> word;) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected KEY=VALUE words, found " + word);
    out[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return out;
}

long number(const std::map<std::string, std::string>& request, const std::string& key, long fallback) {
  const auto it = request.find(key);
  return it == request.end() ? fallback : std::stol(it->second);
}

// Device memory freed at the end.
struct Buffer {
  void* data = nullptr;
  explicit Buffer(size_t bytes, unsigned seed) {
    check(cudaMalloc(&data, std::max<size_t>(bytes, 2)), "cudaMalloc");
    fill_bytes<<<256, 256>>>(static_cast<unsigned short*>(data), std::max<size_t>(bytes, 2) / 2, seed);
    check(cudaGetLastError(), "fill");
  }
  ~Buffer() { cudaFree(data); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

// What launching one op takes: its buffers and handles, and a function that launches it on a stream.
struct Op {
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::function<void(cudaStream_t)> launch;
  cublasHandle_t cublas = nullptr;
#ifdef DSE_HAVE_CUDNN
  cudnnHandle_t cudnn = nullptr;
#endif
  void* alloc(size_t bytes) {
    buffers.push_back(std::make_unique<Buffer>(bytes, static_cast<unsigned>(buffers.size() * 7919 + 1)));
    return buffers.back()->data;
  }
  ~Op() {
    if (cublas) cublasDestroy(cublas);
#ifdef DSE_HAVE_CUDNN
    if (cudnn) cudnnDestroy(cudnn);
#endif
  }
};

cudaDataType_t cuda_type(Type t) { return t == Type::fp32 ? CUDA_R_32F : t == Type::fp16 ? CUDA_R_16F : CUDA_R_16BF; }

template <typename F>
void with_type(Type t, F f) {
  if (t == Type::fp32)
    f(float{});
  else if (t == Type::fp16)
    f(__half{});
  else
    f(__nv_bfloat16{});
}

std::unique_ptr<Op> make_op(const std::map<std::string, std::string>& r, const std::string& p) {
  auto op = std::make_unique<Op>();
  const std::string kind = r.at(p + "op");
  const Type type = type_of(r.count(p + "dtype") ? r.at(p + "dtype") : "fp32");
  const long b = number(r, p + "b", 1), m = number(r, p + "m", 1), n = number(r, p + "n", 0), k = number(r, p + "k", 0);
  const size_t e = bytes_of(type);
  if (kind == "launch") {
    op->launch = [](cudaStream_t s) { empty_kernel<<<1, 32, 0, s>>>(); };
  } else if (kind == "linear" || kind == "bmm") {
    // Row-major [rows, n] x [n, k] is column-major C^T[k, rows] = B^T[k, n] A^T[n, rows].
    const long rows = kind == "linear" ? b * m : m, batch = kind == "linear" ? 1 : b;
    void* a = op->alloc(e * batch * rows * n);
    void* w = op->alloc(e * batch * n * k);
    void* c = op->alloc(e * batch * rows * k);
    check(cublasCreate(&op->cublas), "cublasCreate");
    const cudaDataType_t t = cuda_type(type);
    Op& self = *op;
    op->launch = [=, &self](cudaStream_t s) {
      static const float one = 1, zero = 0;
      check(cublasSetStream(self.cublas, s), "cublasSetStream");
      check(cublasGemmStridedBatchedEx(self.cublas, CUBLAS_OP_N, CUBLAS_OP_N, k, rows, n, &one, w, t, k, n * k, a, t, n,
                                       rows * n, &zero, c, t, k, rows * k, batch, CUBLAS_COMPUTE_32F,
                                       CUBLAS_GEMM_DEFAULT),
            "cublasGemmStridedBatchedEx");
    };
  } else if (kind == "conv2d") {
#ifdef DSE_HAVE_CUDNN
    long v[9];
    std::istringstream list(r.at(p + "conv"));
    for (long& x : v) {
      std::string item;
      std::getline(list, item, ',');
      x = std::stol(item);
    }
    const long c = v[0], h = v[1], wd = v[2], out = v[3], rr = v[4], ss = v[5], stride = v[6], pad = v[7],
               groups = v[8];
    check(cudnnCreate(&op->cudnn), "cudnnCreate");
    const cudnnDataType_t dt = type == Type::fp32   ? CUDNN_DATA_FLOAT
                               : type == Type::fp16 ? CUDNN_DATA_HALF
                                                    : CUDNN_DATA_BFLOAT16;
    cudnnTensorDescriptor_t x_desc, y_desc;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv;
    check(cudnnCreateTensorDescriptor(&x_desc), "x descriptor");
    check(cudnnCreateTensorDescriptor(&y_desc), "y descriptor");
    check(cudnnCreateFilterDescriptor(&w_desc), "w descriptor");
    check(cudnnCreateConvolutionDescriptor(&conv), "conv descriptor");
    check(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, dt, b, c, h, wd), "x shape");
    check(cudnnSetFilter4dDescriptor(w_desc, dt, CUDNN_TENSOR_NCHW, out, c / groups, rr, ss), "w shape");
    check(cudnnSetConvolution2dDescriptor(conv, pad, pad, stride, stride, 1, 1, CUDNN_CROSS_CORRELATION,
                                          type == Type::fp32 ? CUDNN_DATA_FLOAT : CUDNN_DATA_FLOAT),
          "conv shape");
    check(cudnnSetConvolutionGroupCount(conv, groups), "groups");
    check(cudnnSetConvolutionMathType(conv, type == Type::fp32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH), "math");
    int yn, yc, yh, yw;
    check(cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &yn, &yc, &yh, &yw), "output shape");
    check(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, dt, yn, yc, yh, yw), "y shape");
    cudnnConvolutionFwdAlgoPerf_t perf[8];
    int found = 0;
    check(cudnnGetConvolutionForwardAlgorithm_v7(op->cudnn, x_desc, w_desc, conv, y_desc, 8, &found, perf),
          "algorithm");
    if (found == 0) throw Failure("cuDNN has no algorithm for this convolution");
    size_t workspace = 0;
    check(cudnnGetConvolutionForwardWorkspaceSize(op->cudnn, x_desc, w_desc, conv, y_desc, perf[0].algo, &workspace),
          "workspace size");
    void* x = op->alloc(e * b * c * h * wd);
    void* wt = op->alloc(e * out * (c / groups) * rr * ss);
    void* y = op->alloc(e * size_t(yn) * yc * yh * yw);
    void* ws = op->alloc(workspace);
    const cudnnConvolutionFwdAlgo_t algo = perf[0].algo;
    Op& self = *op;
    op->launch = [=, &self](cudaStream_t s) {
      static const float one = 1, zero = 0;
      check(cudnnSetStream(self.cudnn, s), "cudnnSetStream");
      check(
          cudnnConvolutionForward(self.cudnn, &one, x_desc, x, w_desc, wt, conv, algo, ws, workspace, &zero, y_desc, y),
          "cudnnConvolutionForward");
    };
#else
    throw Failure("dse-measure-cuda was built without cuDNN: no convolutions");
#endif
  } else if (kind == "reduce" || kind == "ln" || kind == "softmax") {
    void* in = op->alloc(e * b * m);
    void* out = op->alloc(e * b * m);
    const int which = kind == "reduce" ? 0 : kind == "ln" ? 1 : 2;
    with_type(type, [&](auto tag) {
      using T = decltype(tag);
      op->launch = [=](cudaStream_t s) {
        row_kernel<T>
            <<<static_cast<unsigned>(b), 256, 0, s>>>(which, static_cast<const T*>(in), static_cast<T*>(out), m);
      };
    });
  } else {
    static const std::map<std::string, int> kinds{{"add", 0}, {"mul", 1}, {"relu", 2}, {"gelu", 3}, {"tanh", 4}};
    const auto it = kinds.find(kind);
    if (it == kinds.end()) throw std::invalid_argument("op: no kernel for '" + kind + "'");
    const size_t count = size_t(b) * m;
    void* x = op->alloc(e * count);
    void* y = op->alloc(e * count);
    void* out = op->alloc(e * count);
    const int which = it->second;
    const unsigned blocks = static_cast<unsigned>(std::min<size_t>((count + 255) / 256, 65535 * 8));
    with_type(type, [&](auto tag) {
      using T = decltype(tag);
      op->launch = [=](cudaStream_t s) {
        elementwise<T><<<blocks, 256, 0, s>>>(which, static_cast<const T*>(x), static_cast<const T*>(y),
                                              static_cast<T*>(out), count);
      };
    });
  }
  check(cudaDeviceSynchronize(), "setting up");
  return op;
}

int info() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("name=%s\ndriver=%d.%d\ncuda=%d.%d\n", prop.name, driver / 1000, (driver % 1000) / 10, runtime / 1000,
              (runtime % 1000) / 10);
  return 0;
}

// With lock=PATH (exclusive timing), the timed runs hold an exclusive flock on PATH, so workers set up
// at once but take turns on the GPU.
struct GpuTurn {
  int fd = -1;
  explicit GpuTurn(const std::map<std::string, std::string>& request) {
    const auto it = request.find("lock");
    if (it == request.end()) return;
    fd = ::open(it->second.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) throw Failure("cannot take the GPU turn's lock " + it->second);
  }
  ~GpuTurn() {
    if (fd >= 0) ::close(fd);  // releases the lock
  }
};

int measure(const std::map<std::string, std::string>& request) {
  const long warmup = number(request, "warmup", 2), repeat = std::max(1L, number(request, "repeat", 5));
  const double min_repeat_ms = request.count("min_repeat_ms") ? std::stod(request.at("min_repeat_ms")) : 10;
  std::unique_ptr<Op> first = make_op(request, ""), second;
  if (request.count("pair.op")) second = make_op(request, "pair.");
  cudaStream_t s1, s2;
  check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
  cudaEvent_t begin, end, fork, join;
  for (cudaEvent_t* e : {&begin, &end, &fork, &join}) check(cudaEventCreate(e), "cudaEventCreate");
  // `count` launches (of both ops of a pair, on two streams) between two events: milliseconds.
  const auto timed = [&](long count) {
    check(cudaEventRecord(begin, s1), "record");
    if (second) {
      check(cudaEventRecord(fork, s1), "record");
      check(cudaStreamWaitEvent(s2, fork, 0), "wait");
    }
    for (long i = 0; i < count; ++i) {
      first->launch(s1);
      if (second) second->launch(s2);
    }
    if (second) {
      check(cudaEventRecord(join, s2), "record");
      check(cudaStreamWaitEvent(s1, join, 0), "wait");
    }
    check(cudaEventRecord(end, s1), "record");
    check(cudaEventSynchronize(end), "synchronize");
    check(cudaGetLastError(), "a launch");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, begin, end), "elapsed");
    return static_cast<double>(ms);
  };
  const GpuTurn turn(request);
  const auto start = std::chrono::steady_clock::now();
  timed(std::max(1L, warmup));
  long count = 1;
  for (double ms = timed(count); ms < min_repeat_ms && count < (1L << 24); ms = timed(count))
    count = std::max(count * 2, static_cast<long>(std::ceil(count * min_repeat_ms / std::max(ms, 1e-3))));
  std::vector<double> repeats;
  const auto timed_start = std::chrono::steady_clock::now();
  for (long r = 0; r < repeat; ++r) repeats.push_back(timed(count) / count);
  const double timed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - timed_start).count();
  std::vector<double> sorted = repeats;
  std::sort(sorted.begin(), sorted.end());
  std::printf("status=ok\nlatency_ms=%.9g\nrepeats_ms=", sorted[sorted.size() / 2]);
  for (size_t i = 0; i < repeats.size(); ++i) std::printf("%s%.9g", i ? "," : "", repeats[i]);
  std::printf("\ntimed_s=%.6g\nlaunches=%ld\nsetup_s=%.6g\n", timed_s, count,
              std::chrono::duration<double>(timed_start - start).count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc > 1 && std::string(argv[1]) == "--info") return info();
    std::string line;
    std::getline(std::cin, line);
    return measure(parse(line));
  } catch (const Failure& failure) {
    std::printf("status=failed\nmessage=%s\n", failure.what());
    return 0;
  } catch (const std::exception& error) {
    std::printf("status=failed\nmessage=bad request: %s\n", error.what());
    return 2;
  }
}
