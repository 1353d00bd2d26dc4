// Exhaustive grid: every combination of every parameter's levels, the last parameter fastest,
// up to the trial budget. Continuous parameters have no levels: a grid over them is an error.
#include <algorithm>

#include "search/strategy.h"

namespace dse {
namespace {

class GridSearch final : public IndexedStrategy {
 public:
  GridSearch(const SearchSpace& space, const StrategyOptions& options, const ConfigNode& params)
      : space_(space), options_(options) {
    const auto size = space.grid_size();
    if (!size) {
      const ConfigNode* name = params.find("name");
      if (name)
        name->fail(
            "expected a strategy that can sample continuous parameters (float, log_float, schedule), found grid");
      params.fail("grid needs every parameter discrete (int, pow2, choice, bool)");
    }
    size_ = *size;
  }
  static std::vector<KeySpec> declared_keys() { return {}; }

 private:
  std::int64_t limit() const override { return std::min(size_, options_.trials); }
  std::vector<std::string> values(std::int64_t trial) const override {
    std::vector<std::string> out(space_.parameters.size());
    for (std::size_t p = space_.parameters.size(); p-- > 0;) {
      const std::int64_t levels = *space_.parameters[p].levels();
      out[p] = space_.parameters[p].level(trial % levels);
      trial /= levels;
    }
    return out;
  }

  SearchSpace space_;
  StrategyOptions options_;
  std::int64_t size_ = 0;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, GridSearch, "grid", "every combination of the parameters' levels (exhaustive)")

}  // namespace dse
