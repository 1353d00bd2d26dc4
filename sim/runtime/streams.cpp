#include "sim/runtime/streams.h"

#include <stdexcept>

namespace dse {

StreamRuntime::StreamRuntime(Engine& engine, GpuExecutor& gpu) : engine_(engine), gpu_(gpu) {}

int StreamRuntime::create_stream(int priority) {
  streams_.push_back(Stream{priority, false, {}});
  return static_cast<int>(streams_.size()) - 1;
}

std::size_t StreamRuntime::create_event() {
  events_.emplace_back();
  return events_.size() - 1;
}

void StreamRuntime::launch(int stream, KernelWork kernel, Done done) {
  streams_.at(static_cast<std::size_t>(stream)).queue.push_back(Launch{std::move(kernel), std::move(done)});
}

void StreamRuntime::record(int stream, std::size_t event) {
  events_.at(event).recorded = true;
  streams_.at(static_cast<std::size_t>(stream)).queue.push_back(Record{event});
}

void StreamRuntime::wait(int stream, std::size_t event) {
  if (!events_.at(event).recorded) return;  // CUDA: nothing to wait for
  streams_.at(static_cast<std::size_t>(stream)).queue.push_back(Wait{event});
}

void StreamRuntime::start() {
  for (std::size_t s = 0; s < streams_.size(); ++s) issue(static_cast<int>(s));
}

void StreamRuntime::issue(int index) {
  Stream& stream = streams_[static_cast<std::size_t>(index)];
  while (!stream.busy && !stream.queue.empty()) {
    auto& head = stream.queue.front();
    if (auto* launch = std::get_if<Launch>(&head)) {
      stream.busy = true;
      Launch item = std::move(*launch);
      stream.queue.pop_front();
      gpu_.launch(item.kernel, stream.priority, [this, index, done = std::move(item.done)](TimePs start, TimePs end) {
        streams_[static_cast<std::size_t>(index)].busy = false;
        if (done) done(start, end);
        issue(index);
      });
    } else if (const auto* record = std::get_if<Record>(&head)) {
      Event& event = events_[record->event];
      stream.queue.pop_front();
      event.completed = true;
      const auto waiting = std::move(event.waiting_streams);
      for (const int other : waiting) issue(other);
    } else {
      const auto& wait = std::get<Wait>(head);
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
