// dse's one parallel loop over [0, n): tbb::parallel_for, or under ThreadSanitizer a plain pool of
// std::threads handing out indices from an atomic counter.
//
// Why the second form: Debian's libtbb is not built with ThreadSanitizer, so TSan cannot see how
// TBB hands a task from one thread to another inside the library; run over tbb::parallel_for, the
// search tests gave 137 reports, every one in TBB's own headers or at the hand-off of a body's
// captures (none in dse's code). What the TSan job is for is dse's side: bodies that run at once and
// the caches, journal and counters they share. The thread pool keeps exactly that (at least four
// bodies at once, whatever the machine) with synchronisation TSan sees, and rethrows the first
// exception a body throws after all have stopped, as tbb::parallel_for does.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_THREAD__)
#define DSE_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DSE_THREAD_SANITIZER 1
#endif
#endif

#ifdef DSE_THREAD_SANITIZER
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#else
#include <tbb/parallel_for.h>
#endif

namespace dse {

template <typename Body>
void parallel_for(std::size_t n, const Body& body) {
#ifdef DSE_THREAD_SANITIZER
  std::atomic<std::size_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = n;  // the others stop after the body they are in
      }
    }
  };
  const std::size_t threads = std::min<std::size_t>(n, std::max(4u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& thread : pool) thread.join();
  if (first_error) std::rethrow_exception(first_error);
#else
  tbb::parallel_for(std::size_t{0}, n, body);
#endif
}

}  // namespace dse
