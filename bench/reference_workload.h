// A fixed workload to compare machines by, registered in the benchmarks that report against it: a
// bare std::priority_queue of 3,000,000 pushes and pops of (time, sequence, action) events, what a
// discrete-event loop does without the simulator around it. Machines differ by 3x or more; a
// benchmark's ratio to this one is what carries over (bench_serving, bench_accel).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace dse::bench {

inline void reference_priority_queue_3m(benchmark::State& state) {
  for (auto _ : state) {
    struct Item {
      std::int64_t time;
      std::uint64_t sequence;
      std::function<void()> action;
      bool operator>(const Item& other) const { return time > other.time; }
    };
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    std::int64_t sum = 0;
    std::uint64_t x = 88172645463325252ull;
    for (std::uint64_t i = 0; i < 3'000'000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      heap.push({static_cast<std::int64_t>(x % 1'000'000'000), i, [&sum] { ++sum; }});
      if (heap.size() > 64) {
        heap.top().action();
        heap.pop();
      }
    }
    benchmark::DoNotOptimize(sum);
  }
}

}  // namespace dse::bench
