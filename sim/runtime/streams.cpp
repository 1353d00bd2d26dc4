#include "sim/runtime/streams.h"

#include <stdexcept>

namespace dse {

StreamRuntime::StreamRuntime(Engine& engine, GpuExecutor& gpu) : engine_(engine), gpu_(gpu) {}

int StreamRuntime::create_stream(int priority) {
  streams_.push_back(Stream{priority, false, false, {}});
  return static_cast<int>(streams_.size()) - 1;
}

std::size_t StreamRuntime::create_event(bool graph_edge) {
  events_.emplace_back();
  events_.back().graph_edge = graph_edge;
  return events_.size() - 1;
}

void StreamRuntime::enqueue(int stream, Item item) {
  streams_.at(static_cast<std::size_t>(stream)).queue.push_back(std::move(item));
  if (started_) issue(stream);
}

void StreamRuntime::launch(int stream, KernelWork kernel, Done done, TimePs issue_ps) {
  enqueue(stream, {Launch{std::move(kernel), std::move(done)}, issue_ps});
}

void StreamRuntime::record(int stream, std::size_t event, TimePs issue_ps) {
  events_.at(event).recorded = true;
  enqueue(stream, {Record{event}, issue_ps});
}

void StreamRuntime::wait(int stream, std::size_t event, TimePs issue_ps) {
  const Event& e = events_.at(event);
  if (!e.recorded && !e.graph_edge) return;  // CUDA: nothing to wait for
  enqueue(stream, {Wait{event}, issue_ps});
}

void StreamRuntime::start() {
  started_ = true;
  for (std::size_t s = 0; s < streams_.size(); ++s) issue(static_cast<int>(s));
}

void StreamRuntime::issue(int index) {
  Stream& stream = streams_[static_cast<std::size_t>(index)];
  while (!stream.busy && !stream.queue.empty()) {
    Item& head = stream.queue.front();
    if (head.issue_ps > engine_.now()) {  // the host has not issued it yet
      if (!stream.wake_scheduled) {
        stream.wake_scheduled = true;
        engine_.schedule_at(head.issue_ps, [this, index] {
          streams_[static_cast<std::size_t>(index)].wake_scheduled = false;
          issue(index);
        });
      }
      return;
    }
    if (auto* launch = std::get_if<Launch>(&head.what)) {
      stream.busy = true;
      Launch item = std::move(*launch);
      stream.queue.pop_front();
      gpu_.launch(item.kernel, stream.priority, [this, index, done = std::move(item.done)](TimePs start, TimePs end) {
        streams_[static_cast<std::size_t>(index)].busy = false;
        if (done) done(start, end);
        issue(index);
      });
    } else if (const auto* record = std::get_if<Record>(&head.what)) {
      Event& event = events_[record->event];
      stream.queue.pop_front();
      event.completed = true;
      const auto waiting = std::move(event.waiting_streams);
      for (const int other : waiting) issue(other);
    } else {
      const auto& wait = std::get<Wait>(head.what);
      Event& event = events_[wait.event];
      if (!event.completed) {
        event.waiting_streams.push_back(index);
        return;
      }
      stream.queue.pop_front();
    }
  }
}

}  // namespace dse
