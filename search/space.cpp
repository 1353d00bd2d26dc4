#include "search/space.h"

#include "search/schedule_space.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <tuple>

namespace dse {
namespace {

std::string number_text(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

std::int64_t int_levels(double low, double high, double step) {
  return static_cast<std::int64_t>(std::floor((high - low) / step)) + 1;
}

std::int64_t factorial(std::size_t n) {
  std::int64_t f = 1;
  for (std::size_t i = 2; i <= n; ++i) f *= static_cast<std::int64_t>(i);
  return f;
}

// The i-th permutation of `items` in lexicographic order of positions (Lehmer code), as YAML.
std::string permutation(std::vector<std::string> items, std::int64_t i) {
  std::string out = "[";
  for (std::size_t left = items.size(); left > 0; --left) {
    const std::int64_t block = factorial(left - 1);
    const auto pick = static_cast<std::size_t>(i / block);
    i %= block;
    out += (out.size() > 1 ? ", " : "") + items[pick];
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  return out + "]";
}

}  // namespace

std::optional<std::int64_t> SearchParameter::levels() const {
  switch (kind) {
    case Kind::integer: return int_levels(low, high, step);
    case Kind::pow2: return static_cast<std::int64_t>(std::log2(high) - std::log2(low)) + 1;
    case Kind::choice: return static_cast<std::int64_t>(choices.size());
    case Kind::boolean: return 2;
    case Kind::permutation: return factorial(choices.size());
    default: return std::nullopt;
  }
}

std::string SearchParameter::level(std::int64_t i) const {
  switch (kind) {
    case Kind::integer: return std::to_string(static_cast<std::int64_t>(low + static_cast<double>(i) * step));
    case Kind::pow2: return std::to_string(static_cast<std::int64_t>(low) << i);
    case Kind::choice: return choices.at(static_cast<std::size_t>(i));
    case Kind::boolean: return i ? "true" : "false";
    case Kind::permutation: return permutation(choices, i);
    default: return number_text(low);
  }
}

std::string SearchParameter::sample(double u) const {
  switch (kind) {
    case Kind::real: return number_text(low + u * (high - low));
    case Kind::log_real: return number_text(std::exp(std::log(low) + u * (std::log(high) - std::log(low))));
    case Kind::schedule: return schedule->sample(u);
    default: {
      const std::int64_t n = *levels();
      return level(std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(u * static_cast<double>(n))));
    }
  }
}

std::string SearchParameter::initial(std::int64_t index, double u) const {
  if (kind == Kind::schedule && index >= 0 && static_cast<std::size_t>(index) < schedule->seeds().size())
    return schedule->seeds()[static_cast<std::size_t>(index)];
  return sample(u);
}

std::string SearchParameter::mutate(const std::string& value, double u) const {
  return kind == Kind::schedule ? schedule->mutate(value, u) : sample(u);
}

std::optional<std::int64_t> SearchSpace::grid_size() const {
  std::int64_t size = 1;
  for (const auto& p : parameters) {
    const auto n = p.levels();
    if (!n) return std::nullopt;
    if (size > std::numeric_limits<std::int64_t>::max() / *n) return std::numeric_limits<std::int64_t>::max();
    size *= *n;
  }
  return size;
}

std::vector<std::string> SearchSpace::canonical(std::vector<std::string> values) const {
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    for (const auto& [other, allowed] : parameters[p].conditions) {
      if (std::find(allowed.begin(), allowed.end(), values[other]) == allowed.end()) {
        values[p].assign(1, '-');  // (not = "-": GCC 12 warns falsely on that assignment here)
        break;
      }
    }
  }
  return values;
}

SearchSpace read_search_space(const ConfigNode& space, const SpaceContext& context) {
  const SupportedValues& supported = context.supported;
  space.expect_map("config key: {int | pow2 | float | log_float | choice | bool | permutation | schedule: ...}");
  SearchSpace out;
  for (const auto& key : space.keys()) {
    const ConfigNode& spec = *space.find(key);
    spec.expect_map(
        "one of {int: [lo, hi]}, {pow2: [lo, hi]}, {float: [lo, hi]}, {log_float: [lo, hi]}, "
        "{choice: [...]}, {bool: true}, {permutation: [...]}, {schedule: {...}}");
    SearchParameter p;
    p.key = key;
    p.key_mark = space.key_mark(key);
    p.key_path = spec.path();
    const auto range = [&](const char* name) {
      const auto items = spec.find(name)->items();
      if (items.size() != 2)
        spec.find(name)->fail("expected [low, high], found " + std::to_string(items.size()) + " values");
      const double low = items[0].as<double>(), high = items[1].as<double>();
      if (!(low <= high))
        spec.find(name)->fail("expected low <= high, found [" + items[0].text() + ", " + items[1].text() + "]");
      return std::pair{low, high};
    };
    int kinds = 0;
    if (spec.has("int")) {
      ++kinds;
      p.kind = SearchParameter::Kind::integer;
      std::tie(p.low, p.high) = range("int");
      p.step = spec.param<double>("step").in_range(1, 1e12).with_default(1);
    }
    if (spec.has("pow2")) {
      ++kinds;
      p.kind = SearchParameter::Kind::pow2;
      std::tie(p.low, p.high) = range("pow2");
      const auto is_pow2 = [](double v) { return v >= 1 && std::exp2(std::round(std::log2(v))) == v; };
      if (!is_pow2(p.low) || !is_pow2(p.high)) spec.find("pow2")->fail("expected powers of two, found other numbers");
    }
    if (spec.has("float")) {
      ++kinds;
      p.kind = SearchParameter::Kind::real;
      std::tie(p.low, p.high) = range("float");
    }
    if (spec.has("log_float")) {
      ++kinds;
      p.kind = SearchParameter::Kind::log_real;
      std::tie(p.low, p.high) = range("log_float");
      if (p.low <= 0)
        spec.find("log_float")->fail("expected a positive range, found a low of " + std::to_string(p.low));
    }
    if (spec.has("choice")) {
      ++kinds;
      p.kind = SearchParameter::Kind::choice;
      const ConfigNode& choice = *spec.find("choice");
      if (choice.is_scalar() && choice.as<std::string>() == "supported") {
        const auto values = supported ? supported(key) : std::nullopt;
        if (!values)
          choice.fail(
              "expected a list of values; `supported` stands for the values the device lists for a key "
              "(device.sm_clock_mhz: the GPU's clock table), and the experiment's device lists none for '" +
              key + "'");
        p.choices = *values;
      } else {
        for (const auto& item : choice.items()) p.choices.push_back(item.as<std::string>());
      }
      if (p.choices.empty()) spec.find("choice")->fail("expected at least one value, found none");
    }
    if (spec.has("permutation")) {
      ++kinds;
      p.kind = SearchParameter::Kind::permutation;
      for (const auto& item : spec.find("permutation")->items()) p.choices.push_back(item.as<std::string>());
      if (p.choices.size() < 2 || p.choices.size() > 12)
        spec.find("permutation")->fail("expected 2 to 12 items, found " + std::to_string(p.choices.size()));
    }
    if (spec.has("schedule")) {
      ++kinds;
      p.kind = SearchParameter::Kind::schedule;
      const ConfigNode& block = *spec.find("schedule");
      if (key != "schedule")
        block.fail(
            "expected a schedule parameter on the key `schedule` (its values are whole schedules), found it on '" +
            key + "'");
      if (context.tenants.empty())
        block.fail("expected a search of an experiment's models: a schedule parameter needs them");
      p.schedule = std::make_shared<const ScheduleSampler>(context.tenants, block);
    }
    if (spec.has("bool")) {
      ++kinds;
      p.kind = SearchParameter::Kind::boolean;
      spec.param<bool>("bool").required();
    }
    if (kinds != 1)
      spec.fail("expected exactly one of int, pow2, float, log_float, choice, bool, permutation, schedule; found " +
                std::to_string(kinds));
    if (const ConfigNode* when = spec.find("when")) {
      when->expect_map("{OTHER.KEY: [values]}: this parameter applies only when the other takes one of them");
      for (const auto& other : when->keys()) {
        const auto it = std::find_if(out.parameters.begin(), out.parameters.end(),
                                     [&other](const SearchParameter& q) { return q.key == other; });
        if (it == out.parameters.end())
          when->find(other)->fail("expected a parameter listed before this one, found '" + other + "'");
        std::vector<std::string> allowed;
        for (const auto& v : when->find(other)->items()) allowed.push_back(v.as<std::string>());
        p.conditions.emplace_back(static_cast<std::size_t>(it - out.parameters.begin()), std::move(allowed));
      }
    }
    spec.check_unknown_keys();
    out.parameters.push_back(std::move(p));
  }
  if (out.parameters.empty()) space.fail("expected at least one parameter, found none");
  return out;
}

}  // namespace dse
