// CUDA streams and events over the GPU executor. Work in a stream runs in order, one kernel at a
// time; kernels of different streams overlap and share the GPU (gpu_executor.h). An event recorded
// in a stream completes when the stream's earlier work has; a wait on it holds back the waiting
// stream's later work. As in CUDA, waiting on an event with no record enqueued yet does not wait,
// unless the event was made as a graph edge (a CUDA graph's dependency: the wait holds until the
// record, enqueued later, completes). Higher-priority streams take the GPU's slots first.
//
// Each item carries the time the host issues it (a host thread launching kernels one after another
// at its launch cost): a stream does not start an item before then. Items may be enqueued before
// start() or while the engine runs.
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
  std::size_t create_event(bool graph_edge = false);
  void launch(int stream, KernelWork kernel, Done done = {}, TimePs issue_ps = 0);
  void record(int stream, std::size_t event, TimePs issue_ps = 0);
  void wait(int stream, std::size_t event, TimePs issue_ps = 0);
  // Issues whatever can start now; completions and issue times keep it going.
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
  struct Item {
    std::variant<Launch, Record, Wait> what;
    TimePs issue_ps = 0;
  };
  struct Stream {
    int priority = 0;
    bool busy = false;
    bool wake_scheduled = false;  // an engine event will look at this stream at its head's issue time
    std::deque<Item> queue;
  };
  struct Event {
    bool recorded = false;  // a record has been enqueued
    bool graph_edge = false;
    bool completed = false;
    std::vector<int> waiting_streams;
  };
  void enqueue(int stream, Item item);
  void issue(int stream);

  Engine& engine_;
  GpuExecutor& gpu_;
  std::vector<Stream> streams_;
  std::vector<Event> events_;
  bool started_ = false;
};

}  // namespace dse
