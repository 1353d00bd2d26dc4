#include "search/metric_values.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace dse {
namespace {

// Every metric name seen, stored once: an unordered_set's nodes do not move, so pointers to them stay
// valid. The catalog has some dozens of names; trials of any number share them.
const std::string* intern(std::string_view name) {
  static std::mutex mutex;
  static std::unordered_set<std::string> names;
  const std::lock_guard lock(mutex);
  return &*names.emplace(name).first;
}

bool before(const MetricValues::Entry& entry, std::string_view name) { return entry.first.str() < name; }

}  // namespace

MetricName::MetricName(std::string_view name) : name_(intern(name)) {}

MetricValues::MetricValues(std::initializer_list<std::pair<const std::string, double>> values) {
  for (const auto& [name, value] : values) (*this)[name] = value;
}

MetricValues::MetricValues(const std::map<std::string, double>& values) {
  entries_.reserve(values.size());
  for (const auto& [name, value] : values) entries_.push_back({MetricName(name), value});  // the map is sorted
}

MetricValues::const_iterator MetricValues::find(std::string_view name) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), name, before);
  return it != entries_.end() && it->first.str() == name ? it : entries_.end();
}

MetricValues::iterator MetricValues::find(std::string_view name) {
  return entries_.begin() + (std::as_const(*this).find(name) - entries_.cbegin());
}

double MetricValues::at(std::string_view name) const {
  const auto it = find(name);
  if (it == end()) throw std::out_of_range("no metric '" + std::string(name) + "'");
  return it->second;
}

double& MetricValues::operator[](std::string_view name) {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), name, before);
  if (it != entries_.end() && it->first.str() == name) return it->second;
  return entries_.insert(it, Entry{MetricName(name), 0.0})->second;
}

}  // namespace dse
