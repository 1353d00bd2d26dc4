#include "sim/gpu/kernel.h"

#include <algorithm>

#include "models/base/ceil_div.h"
#include "sim/gpu/gpu_spec.h"

namespace dse {

Occupancy occupancy(const Kernel& kernel, const SmLimits& sm) {
  // Registers are allocated per warp in units of 256 (CUDA occupancy calculator, CC >= 3.0).
  const int warps = (kernel.threads_per_block + 31) / 32;
  const int registers_per_warp = (kernel.registers_per_thread * 32 + 255) / 256 * 256;
  const int by_threads = sm.max_threads / std::max(1, kernel.threads_per_block);
  const int by_registers = registers_per_warp > 0 ? sm.registers / (registers_per_warp * warps) : sm.max_blocks;
  const int by_shared =
      kernel.shared_bytes_per_block > 0 ? sm.shared_memory_kib * 1024 / kernel.shared_bytes_per_block : sm.max_blocks;
  Occupancy result{sm.max_blocks, "blocks"};
  const auto limit = [&result](int value, const char* why) {
    if (value < result.blocks_per_sm) result = {value, why};
  };
  limit(by_threads, "threads");
  limit(by_registers, "registers");
  limit(by_shared, "shared_memory");
  result.blocks_per_sm = std::max(result.blocks_per_sm, 0);
  return result;
}

std::int64_t blocks_per_wave(const Kernel& kernel, const SmLimits& sm, int sm_count) {
  return static_cast<std::int64_t>(std::max(1, occupancy(kernel, sm).blocks_per_sm)) * sm_count;
}

Waves waves(std::int64_t blocks, int blocks_per_sm, int sm_count) {
  const std::int64_t slots = std::max<std::int64_t>(1, static_cast<std::int64_t>(blocks_per_sm) * sm_count);
  const std::int64_t count = ceil_div(blocks, slots);
  const std::int64_t tail = blocks - (count - 1) * slots;
  return {count, tail};
}

}  // namespace dse
