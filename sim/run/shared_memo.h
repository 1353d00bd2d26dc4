// A process-wide, thread-safe memo of immutable values by key: a search's trials, on many threads,
// share the zoo graphs and GPU timing models (with their per-op kernel caches) they would otherwise
// each rebuild. A value is a pure function of its key, so sharing changes no result, only the time
// it takes. Bounded: the memo starts afresh when it holds `capacity` entries.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace dse {

template <class Value>
class SharedMemo {
 public:
  explicit SharedMemo(std::size_t capacity) : capacity_(capacity) {}

  // The value for `key`, made by `make()` (returning std::shared_ptr<const Value>) if absent. Two
  // threads may both make a missing value; the first stored wins and both get it.
  template <class Make>
  std::shared_ptr<const Value> get(const std::string& key, Make&& make) {
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = values_.find(key); it != values_.end()) return it->second;
    }
    std::shared_ptr<const Value> value = make();
    const std::lock_guard lock(mutex_);
    if (values_.size() >= capacity_) values_.clear();
    return values_.emplace(key, std::move(value)).first->second;
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Value>> values_;
};

}  // namespace dse
