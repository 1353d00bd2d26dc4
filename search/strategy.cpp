#include "search/strategy.h"

#include <algorithm>
#include <utility>

namespace dse {

std::vector<Trial> IndexedStrategy::propose(std::int64_t n) {
  std::vector<Trial> out;
  for (; n > 0 && next_ < limit(); --n, ++next_) out.push_back({next_, values(next_)});
  return out;
}

std::vector<Trial> GeneStrategy::propose(std::int64_t n) {
  std::vector<Trial> out;
  std::vector<std::vector<double>> batch;
  for (; n > 0 && next_ < options_.trials; --n, ++next_) {
    std::vector<double> genes = next_genes(next_, batch);
    Trial trial{next_, {}};
    for (std::size_t p = 0; p < space_.parameters.size(); ++p)
      trial.values.push_back(space_.parameters[p].sample(genes[p]));
    batch.push_back(genes);
    genes_[next_] = std::move(genes);
    out.push_back(std::move(trial));
  }
  return out;
}

std::vector<double> GeneStrategy::random_genes(std::int64_t id) const {
  std::vector<double> genes;
  for (std::size_t p = 0; p < space_.parameters.size(); ++p) genes.push_back(trial_uniform(options_.seed, id, p));
  return genes;
}

double trial_uniform(std::uint64_t seed, std::int64_t trial, std::uint64_t stream) {
  // SplitMix64 (Steele, Lea, Flood, OOPSLA 2014) over a mix of the three inputs.
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL ^
                    (static_cast<std::uint64_t>(trial) + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL ^
                    (stream + 1) * 0x94D049BB133111EBULL;
  for (int round = 0; round < 2; ++round) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
  }
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

std::int64_t read_population(const ConfigNode& params, std::int64_t minimum) {
  return params.param<std::int64_t>("population")
      .in_range(minimum, 1'000'000)
      .with_default(std::max<std::int64_t>(20, minimum));
}

KeySpec population_key(std::string help, std::int64_t minimum) {
  const std::string range = " (" + std::to_string(minimum) + " to 1,000,000)";
  return {"population", "integer", std::to_string(std::max<std::int64_t>(20, minimum)), "", std::move(help) + range,
          "8"};
}

}  // namespace dse
