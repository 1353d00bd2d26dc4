// Latin hypercube sampling (McKay, Beckman, Conover 1979): the trial budget N splits each
// parameter's unit range into N strata, and every stratum of every parameter is used exactly once;
// a seeded permutation per parameter pairs the strata across parameters.
#include <algorithm>
#include <numeric>

#include "search/strategy.h"

namespace dse {
namespace {

class LatinHypercube final : public IndexedStrategy {
 public:
  LatinHypercube(const SearchSpace& space, const StrategyOptions& options, const ConfigNode&)
      : space_(space), options_(options) {
    const auto n = static_cast<std::size_t>(options.trials);
    for (std::size_t p = 0; p < space.parameters.size(); ++p) {
      std::vector<std::int64_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      // Sort strata by a seeded key: a permutation that depends on (seed, parameter) only.
      std::vector<double> key(n);
      for (std::size_t i = 0; i < n; ++i) key[i] = trial_uniform(options.seed, static_cast<std::int64_t>(i), 1000 + p);
      std::stable_sort(order.begin(), order.end(), [&key](std::int64_t a, std::int64_t b) {
        return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)];
      });
      strata_.push_back(std::move(order));
    }
  }
  static std::vector<KeySpec> declared_keys() { return {}; }

 private:
  std::int64_t limit() const override { return options_.trials; }
  std::vector<std::string> values(std::int64_t trial) const override {
    std::vector<std::string> out;
    const auto n = static_cast<double>(options_.trials);
    for (std::size_t p = 0; p < space_.parameters.size(); ++p) {
      const double stratum = static_cast<double>(strata_[p][static_cast<std::size_t>(trial)]);
      out.push_back(space_.parameters[p].sample((stratum + trial_uniform(options_.seed, trial, p)) / n));
    }
    return out;
  }

  SearchSpace space_;
  StrategyOptions options_;
  std::vector<std::vector<std::int64_t>> strata_;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, LatinHypercube, "latin_hypercube",
                   "stratified sampling: every stratum of every parameter once")

}  // namespace dse
