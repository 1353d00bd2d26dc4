// Regularised (aging) evolution (Real, Aggarwal, Huang, Le, AAAI 2019): the first `population`
// (default 20) trials are random (a schedule parameter's seeds first); afterwards each new trial
// mutates one parameter of the best of `sample` members drawn from the population (a schedule
// changes in one respect: search/schedule_space.h), and the oldest member leaves as the child joins. Infeasible
// and failed trials join too (they are old news soon) but never win a tournament against a
// feasible one. Children of one batch are all made from the population as it stood when the batch
// was proposed, so the search is the same for any thread count.
#include <algorithm>
#include <deque>

#include "search/strategy.h"

namespace dse {
namespace {

constexpr std::int64_t kSample = 5;

class AgingEvolution final : public Strategy {
 public:
  AgingEvolution(const SearchSpace& space, const StrategyOptions& options, const ConfigNode& params)
      : space_(space), options_(options), population_size_(read_population(params)) {}
  static std::vector<KeySpec> declared_keys() {
    return {population_key("the first trials, random, and the last trials a parent is drawn from")};
  }

  std::vector<Trial> propose(std::int64_t n) override {
    std::vector<Trial> out;
    for (; n > 0 && next_ < options_.trials; --n, ++next_) out.push_back(make(next_));
    return out;
  }

  void report(const TrialResult& result) override {
    population_.push_back(result);
    if (static_cast<std::int64_t>(population_.size()) > population_size_) population_.pop_front();
  }

 private:
  double uniform(std::int64_t trial, std::uint64_t stream) const { return trial_uniform(options_.seed, trial, stream); }

  Trial make(std::int64_t id) const {
    Trial trial{id, {}};
    if (id < population_size_ || population_.empty()) {
      for (std::size_t p = 0; p < space_.parameters.size(); ++p)
        trial.values.push_back(space_.parameters[p].initial(id, uniform(id, p)));
      return trial;
    }
    // Tournament: the best of kSample members drawn with replacement.
    const TrialResult* parent = nullptr;
    for (std::int64_t s = 0; s < kSample; ++s) {
      const auto pick = static_cast<std::size_t>(uniform(id, 100 + static_cast<std::uint64_t>(s)) *
                                                 static_cast<double>(population_.size()));
      const TrialResult& candidate = population_[std::min(pick, population_.size() - 1)];
      const auto score = [](const TrialResult* r) { return r->objective ? *r->objective : -1e300; };
      if (!parent || score(&candidate) > score(parent)) parent = &candidate;
    }
    trial.values = parent->trial.values;
    // Mutation: one parameter redrawn, or for a schedule changed in one respect (a different value
    // where the parameter has several).
    const auto p = std::min(space_.parameters.size() - 1,
                            static_cast<std::size_t>(uniform(id, 200) * static_cast<double>(space_.parameters.size())));
    for (std::uint64_t attempt = 0; attempt < 8; ++attempt) {
      const std::string value = space_.parameters[p].mutate(trial.values[p], uniform(id, 300 + attempt));
      if (value != trial.values[p] || attempt == 7) {
        trial.values[p] = value;
        break;
      }
    }
    // A parameter the parent did not use ("-": its condition was not met) gets a value in case the
    // mutation made it active; the search turns it back into "-" if it is still inactive.
    for (std::size_t q = 0; q < space_.parameters.size(); ++q)
      if (trial.values[q] == "-") trial.values[q] = space_.parameters[q].sample(uniform(id, 400 + q));
    return trial;
  }

  SearchSpace space_;
  StrategyOptions options_;
  std::int64_t population_size_;  // `population`: the members a child's parent is sampled from
  std::deque<TrialResult> population_;
  std::int64_t next_ = 0;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, AgingEvolution, "aging_evolution",
                   "regularised evolution: tournament of 5 from the last `population`, one-parameter mutation")

}  // namespace dse
