// CUDA streams and events over the GPU executor. Work in a stream runs in order, one kernel at a
// time; kernels of different streams overlap and share the GPU (gpu_executor.h). An event recorded
// in a stream completes when the stream's earlier work has; a wait on it holds back the waiting
// stream's later work. As in CUDA, waiting on an event with no record enqueued yet does not wait.
// Higher-priority streams take the GPU's slots first.
#pragma once

#include <deque>
#include <functional>
#include <variant>
#include <vector>

#include "sim/runtime/gpu_executor.h"

namespace dse {

class StreamRuntime {
 public:
  using Done = GpuExecutor::Done;

  StreamRuntime(Engine& engine, GpuExecutor& gpu);

  int create_stream(int priority = 0);
  std::size_t create_event();
  void launch(int stream, KernelWork kernel, Done done = {});
  void record(int stream, std::size_t event);
  void wait(int stream, std::size_t event);
  // Issues whatever can start now (call once after enqueueing; completions keep it going).
  void start();

 private:
  struct Launch {
    KernelWork kernel;
    Done done;
  };
  struct Record {
    std::size_t event;
  };
  struct Wait {
    std::size_t event;
  };
  struct Stream {
    int priority = 0;
    bool busy = false;
    std::deque<std::variant<Launch, Record, Wait>> queue;
  };
  struct Event {
    bool recorded = false;  // a record has been enqueued
    bool completed = false;
    std::vector<int> waiting_streams;
  };
  void issue(int stream);

  Engine& engine_;
  GpuExecutor& gpu_;
  std::vector<Stream> streams_;
  std::vector<Event> events_;
};

}  // namespace dse
