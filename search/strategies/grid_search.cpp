// Exhaustive grid: every combination of every parameter's levels, the last parameter fastest,
// up to the trial budget. Continuous parameters have no levels: a grid over them is an error.
#include <stdexcept>

#include "models/base/errors.h"
#include "search/strategy.h"

namespace dse {
namespace {

class GridSearch final : public Strategy {
 public:
  GridSearch(const SearchSpace& space, const StrategyOptions& options) : space_(space), options_(options) {
    const auto size = space.grid_size();
    if (!size) throw UserError("search.strategy: grid needs every parameter discrete (int, pow2, choice, bool)");
    size_ = *size;
  }

  std::vector<Trial> propose(std::int64_t n) override {
    std::vector<Trial> out;
    for (; n > 0 && next_ < std::min(size_, options_.trials); --n, ++next_) {
      Trial trial{next_, std::vector<std::string>(space_.parameters.size())};
      std::int64_t index = next_;
      for (std::size_t p = space_.parameters.size(); p-- > 0;) {
        const std::int64_t levels = *space_.parameters[p].levels();
        trial.values[p] = space_.parameters[p].level(index % levels);
        index /= levels;
      }
      out.push_back(std::move(trial));
    }
    return out;
  }
  void report(const TrialResult&) override {}

 private:
  SearchSpace space_;
  StrategyOptions options_;
  std::int64_t size_ = 0;
  std::int64_t next_ = 0;
};

}  // namespace

DSE_REGISTER(Strategy, GridSearch, "grid", "every combination of the parameters' levels (exhaustive)")

}  // namespace dse
