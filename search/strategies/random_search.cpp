// Random search: every parameter drawn uniformly (log-uniformly for log_float) per trial.
#include "search/strategy.h"

namespace dse {
namespace {

class RandomSearch final : public Strategy {
 public:
  RandomSearch(const SearchSpace& space, const StrategyOptions& options) : space_(space), options_(options) {}

  std::vector<Trial> propose(std::int64_t n) override {
    std::vector<Trial> out;
    for (; n > 0 && next_ < options_.trials; --n, ++next_) {
      Trial trial{next_, {}};
      for (std::size_t p = 0; p < space_.parameters.size(); ++p)
        trial.values.push_back(space_.parameters[p].sample(trial_uniform(options_.seed, next_, p)));
      out.push_back(std::move(trial));
    }
    return out;
  }
  void report(const TrialResult&) override {}

 private:
  SearchSpace space_;
  StrategyOptions options_;
  std::int64_t next_ = 0;
};

}  // namespace

DSE_REGISTER(Strategy, RandomSearch, "random", "uniform random sampling of the space (seeded)")

}  // namespace dse
