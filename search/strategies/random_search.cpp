// Random search: every parameter drawn uniformly (log-uniformly for log_float) per trial; a schedule
// parameter's seeds (its baselines) are the first trials' schedules.
#include "search/strategy.h"

namespace dse {
namespace {

class RandomSearch final : public IndexedStrategy {
 public:
  RandomSearch(const SearchSpace& space, const StrategyOptions& options, const ConfigNode&)
      : space_(space), options_(options) {}
  static std::vector<KeySpec> declared_keys() { return {}; }

 private:
  std::int64_t limit() const override { return options_.trials; }
  std::vector<std::string> values(std::int64_t trial) const override {
    std::vector<std::string> out;
    for (std::size_t p = 0; p < space_.parameters.size(); ++p)
      out.push_back(space_.parameters[p].initial(trial, trial_uniform(options_.seed, trial, p)));
    return out;
  }

  SearchSpace space_;
  StrategyOptions options_;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, RandomSearch, "random", "uniform random sampling of the space (seeded)")

}  // namespace dse
