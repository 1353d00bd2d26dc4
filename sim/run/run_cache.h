// What runs share because it is a pure function of its key: zoo graphs, GPU timing models (with
// their per-op kernel caches), the accelerator baseline spec, accelerator workloads and the
// baseline's passes over them. Sharing changes no result, only the time it takes.
//
// Owned, not static: a search makes one for all its trials (on many threads) and passes it down
// through read_experiment; a run read without one gets its own, so nothing outlives its owner and
// two searches in one process share nothing.
//
// Contract: thread-safe; values are immutable; each kind of value is bounded (the kind starts
// afresh when it holds its capacity). A key may include the address of a value another entry of
// this cache holds (a graph a workload was made from): that entry keeps the address from reuse.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace dse {

class RunCache {
 public:
  // The value of `kind` for `key`, made by `make()` (returning std::shared_ptr<const Value>) if
  // absent. Two threads may both make a missing value; the first stored wins and both get it.
  // A kind always holds one Value type; `capacity` bounds it (read on its first use).
  template <class Value, class Make>
  std::shared_ptr<const Value> get(std::string_view kind, std::size_t capacity, const std::string& key, Make&& make) {
    {
      const std::lock_guard lock(mutex_);
      const auto& values = kinds_[std::string(kind)].values;
      if (const auto it = values.find(key); it != values.end())
        return std::static_pointer_cast<const Value>(it->second);
    }
    std::shared_ptr<const Value> value = make();
    const std::lock_guard lock(mutex_);
    auto& values = kinds_[std::string(kind)].values;
    if (values.size() >= capacity) values.clear();
    return std::static_pointer_cast<const Value>(values.emplace(key, std::move(value)).first->second);
  }

 private:
  struct Kind {
    std::map<std::string, std::shared_ptr<const void>> values;
  };
  std::mutex mutex_;
  std::map<std::string, Kind, std::less<>> kinds_;
};

}  // namespace dse
