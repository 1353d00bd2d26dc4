// A trial's metrics by name, as the search keeps them for every trial until it writes its outputs:
// what std::map<std::string, double> offered, in a sorted vector of (interned name, value). Each
// distinct metric name is stored once per process, so a trial's twenty metrics take 20 x 16 bytes
// instead of twenty map nodes with their strings (about 1 KB more): with the columns freed as they
// are written, a sweep of a million trials peaked at 1.65 GiB instead of 2.5 (docs/cluster.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace dse {

// A metric name interned for the life of the process; reads as the std::string it names.
class MetricName {
 public:
  explicit MetricName(std::string_view name);
  const std::string& str() const { return *name_; }
  operator const std::string&() const { return *name_; }  // NOLINT: reads as the name
  friend bool operator==(const MetricName& a, const MetricName& b) { return a.name_ == b.name_; }
  friend std::ostream& operator<<(std::ostream& out, const MetricName& name) { return out << name.str(); }

 private:
  const std::string* name_;
};

class MetricValues {
 public:
  struct Entry {
    MetricName first;
    double second;
    friend bool operator==(const Entry& a, const Entry& b) {
      return a.first == b.first && (a.second == b.second || (a.second != a.second && b.second != b.second));
    }
  };
  using iterator = std::vector<Entry>::iterator;
  using const_iterator = std::vector<Entry>::const_iterator;

  MetricValues() = default;
  MetricValues(std::initializer_list<std::pair<const std::string, double>> values);
  MetricValues(const std::map<std::string, double>& values);  // NOLINT: a trial's run gives a map

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  const_iterator find(std::string_view name) const;
  iterator find(std::string_view name);
  bool contains(std::string_view name) const { return find(name) != end(); }
  // std::out_of_range naming the metric if there is none.
  double at(std::string_view name) const;
  // The value, inserted as 0 if there was none.
  double& operator[](std::string_view name);

  friend bool operator==(const MetricValues& a, const MetricValues& b) { return a.entries_ == b.entries_; }

 private:
  std::vector<Entry> entries_;  // sorted by name
};

}  // namespace dse

template <>
struct fmt::formatter<dse::MetricName> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const dse::MetricName& name, Context& context) const {
    return fmt::formatter<std::string_view>::format(name.str(), context);
  }
};
