// A design space: typed parameters over any config key (search.space in the experiment YAML). A
// parameter's values are YAML text, applied as `-p KEY=VALUE` overrides, so a trial replays with
// `dse run CONFIG -p ...`. The forms ({int}, {pow2}, {float}, {log_float}, {choice}, {bool},
// {permutation}, {schedule}) and `when`: docs/search.md ("Parameters").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/graph.h"
#include "sim/config/config_node.h"

namespace dse {

class ScheduleSampler;

struct SearchParameter {
  enum class Kind { integer, pow2, real, log_real, choice, boolean, permutation, schedule };
  std::string key;
  SourceMark key_mark;   // where the key is written in the search block, for errors about it
  std::string key_path;  // that key's own path ("search.space.workload.models[0].batch")
  Kind kind = Kind::integer;
  double low = 0, high = 0, step = 1;
  std::vector<std::string> choices;  // choice: the values as YAML text; permutation: the items
  // `when`: active only when each (parameter index, allowed values) holds; empty = always. An
  // inactive parameter is left out of the trial's overrides and recorded as "-".
  std::vector<std::pair<std::size_t, std::vector<std::string>>> conditions;

  std::shared_ptr<const ScheduleSampler> schedule;  // schedule: draws and mutates its values

  // Number of distinct values (nullopt for continuous kinds and schedules, which have no grid).
  std::optional<std::int64_t> levels() const;
  // The value at grid index `i` in [0, levels()).
  std::string level(std::int64_t i) const;
  // The value for a uniform draw u in [0, 1).
  std::string sample(double u) const;
  // The `index`-th value of a search's first, random trials: a schedule's seeds (its baselines)
  // come first; otherwise sample(u).
  std::string initial(std::int64_t index, double u) const;
  // A value near `value` for a mutation drawn from u: a schedule changed in one respect; for the
  // other kinds a new sample(u).
  std::string mutate(const std::string& value, double u) const;
};

struct SearchSpace {
  std::vector<SearchParameter> parameters;
  // Product of the levels; nullopt if any parameter is continuous (a grid over it is an error).
  std::optional<std::int64_t> grid_size() const;
  // `values` with every inactive parameter's value replaced by "-".
  std::vector<std::string> canonical(std::vector<std::string> values) const;
};

// The values a `{choice: supported}` parameter takes, by its key (a GPU's clock table for
// device.sm_clock_mhz: Device::supported_values); nullopt where the key has no such list.
using SupportedValues = std::function<std::optional<std::vector<std::string>>(const std::string& key)>;

// What the searched experiment tells its space: the values of `{choice: supported}` keys, and the
// models (in workload order) that a `{schedule: ...}` parameter schedules.
struct SpaceContext {
  SpaceContext() = default;
  SpaceContext(SupportedValues values) : supported(std::move(values)) {}  // NOLINT: implicit on purpose
  SupportedValues supported;
  std::vector<std::shared_ptr<const Graph>> tenants;
};

SearchSpace read_search_space(const ConfigNode& space, const SpaceContext& context = {});

}  // namespace dse
