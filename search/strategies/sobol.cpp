// Sobol low-discrepancy sequence (Boost.Random's sobol generator, Joe & Kuo direction numbers):
// trial i takes point i of the sequence in as many dimensions as the space has parameters, with a
// random shift per dimension modulo 1 (Cranley-Patterson rotation) drawn from the seed, so seeds
// give different but equally uniform designs. Needs no results: it fills the space evenly, which
// makes it a good first batch for model-based strategies and a fair baseline beside random.
#include <boost/random/sobol.hpp>
#include <cmath>

#include "search/strategy.h"

namespace dse {
namespace {

class Sobol final : public IndexedStrategy {
 public:
  Sobol(const SearchSpace& space, const StrategyOptions& options, const ConfigNode&)
      : space_(space), options_(options) {
    for (std::size_t p = 0; p < space.parameters.size(); ++p)
      shift_.push_back(trial_uniform(options.seed, 0, 7000 + p));
  }
  static std::vector<KeySpec> declared_keys() { return {}; }

 private:
  std::int64_t limit() const override { return options_.trials; }
  std::vector<std::string> values(std::int64_t trial) const override {
    const std::size_t dims = space_.parameters.size();
    boost::random::sobol sequence(dims);
    sequence.seed(static_cast<std::uint64_t>(trial) + 1);  // point trial + 1: the first point is all zeros
    const double range =
        static_cast<double>(boost::random::sobol::max()) - static_cast<double>(boost::random::sobol::min()) + 1.0;
    std::vector<std::string> out;
    for (std::size_t p = 0; p < dims; ++p) {
      const double u = (static_cast<double>(sequence()) - static_cast<double>(boost::random::sobol::min())) / range;
      double shifted = u + shift_[p];
      shifted -= std::floor(shifted);
      out.push_back(space_.parameters[p].sample(shifted));
    }
    return out;
  }

  SearchSpace space_;
  StrategyOptions options_;
  std::vector<double> shift_;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, Sobol, "sobol", "Sobol low-discrepancy sequence with a seeded random shift per dimension")

}  // namespace dse
