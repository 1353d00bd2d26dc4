// The keys each search strategy declares (KeySpec, `dse list strategy`, the table of docs/search.md)
// are exactly the keys it reads from the strategy block, and a declared default given explicitly
// proposes the same trials as leaving the key out.
#include <gtest/gtest.h>

#include "search/strategy.h"
#include "sim/config/config_loader.h"
#include "tests/declared_keys.h"

namespace dse {
namespace {

// A discrete space (grid takes it) of 120 points; the score peaks at a = 3, b = y, c = 2, and a = 7
// is infeasible.
const char* kSpace = "a: {int: [0, 7]}\nb: {choice: [x, y, z]}\nc: {int: [1, 5]}\n";

TrialResult outcome(const Trial& trial) {
  TrialResult result;
  result.trial = trial;
  const int a = std::stoi(trial.values[0]), c = std::stoi(trial.values[2]);
  if (a == 7) {
    result.status = TrialStatus::infeasible;
    return result;
  }
  result.objective = -(a - 3) * (a - 3) - (c - 2) * (c - 2) + (trial.values[1] == "y" ? 1.0 : 0.0);
  result.scores = {*result.objective};
  return result;
}

// The trials a strategy proposes over 48 trials in batches of 8, told each outcome.
std::string trials_of(const std::string& name, const ConfigNode& params) {
  const SearchSpace space = read_search_space(load_config_text(kSpace, "space.yaml"));
  StrategyOptions options;
  options.trials = 48;
  options.seed = 3;
  auto strategy = StrategyRegistry::instance().find(name)->factory(space, options, params);
  std::string seen;
  for (std::vector<Trial> batch = strategy->propose(8); !batch.empty(); batch = strategy->propose(8)) {
    for (const Trial& trial : batch) {
      seen += " " + std::to_string(trial.id) + ":";
      for (const auto& value : trial.values) seen += value + ",";
      strategy->report(outcome(trial));
    }
  }
  return seen;
}

}  // namespace

TEST(DeclaredKeys, StrategiesReadExactlyTheKeysTheyDeclare) {
  test::check_declared_keys<Strategy>(trials_of);  // name, trials, batch, seed: read by the search
}

// docs/search.md's table is `dse list strategy --json` as scripts/update_key_tables.sh writes it.
TEST(DeclaredKeys, TheStrategyDocsTableIsTheDeclarations) { test::check_key_table<Strategy>("docs/search.md"); }

}  // namespace dse
