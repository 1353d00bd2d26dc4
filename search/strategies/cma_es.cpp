// CMA-ES (Hansen & Ostermeier 2001) through pagmo2's implementation, driven ask/tell.
//
// pagmo's algorithms evaluate their own candidates inside evolve(); this bridge gets the candidates
// out first. For each generation it evolves a copy of the algorithm and population on a problem
// that only records what it is asked for (CMA-ES samples a whole generation before it uses any
// fitness), proposes those points, and once they are all reported evolves the real algorithm on a
// problem that answers from the reports, so pagmo's state moves exactly as if it had evaluated them.
// The genes are the parameters' unit interval, mapped to values by the space; infeasible and failed
// trials rank behind every feasible one. When CMA-ES converges (its step size collapses on a
// discrete space) it restarts from a fresh random population with the next seed.
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>

#include <deque>
#include <map>
#include <memory>

#include "search/strategy.h"

namespace dse {
namespace {

constexpr double kPenalty = 1e30;  // fitness (minimised) of an infeasible or failed trial

struct Oracle {
  bool recording = true;
  std::vector<pagmo::vector_double> requested;
  std::map<pagmo::vector_double, double> known;  // decision vector -> fitness
};

// The problem pagmo sees: unit-box genes; fitness from the oracle.
struct BridgeProblem {
  std::size_t dimension = 1;
  std::shared_ptr<Oracle> oracle;

  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    if (oracle->recording) {
      oracle->requested.push_back(x);
      return {0.0};
    }
    const auto it = oracle->known.find(x);
    return {it == oracle->known.end() ? kPenalty : it->second};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {pagmo::vector_double(dimension, 0.0), pagmo::vector_double(dimension, 1.0 - 1e-9)};
  }
};

class CmaEs final : public Strategy {
 public:
  CmaEs(const SearchSpace& space, const StrategyOptions& options, const ConfigNode& params)
      : space_(space),
        options_(options),
        oracle_(std::make_shared<Oracle>()),
        problem_(BridgeProblem{space.parameters.size(), oracle_}),
        // pagmo's cmaes refuses populations of fewer than 5.
        lambda_(static_cast<pagmo::population::size_type>(read_population(params, 5))) {}
  static std::vector<KeySpec> declared_keys() {
    return {population_key("points per generation; pagmo's cmaes refuses fewer than 5", 5)};
  }

  std::vector<Trial> propose(std::int64_t n) override {
    std::vector<Trial> out;
    while (static_cast<std::int64_t>(out.size()) < n && next_ < options_.trials) {
      if (queue_.empty()) {
        if (outstanding_ > 0) break;  // the generation's results are not all in yet
        next_generation();
      }
      Trial trial{next_++, {}};
      for (std::size_t p = 0; p < space_.parameters.size(); ++p)
        trial.values.push_back(space_.parameters[p].sample(queue_.front()[p]));
      genes_[trial.id] = queue_.front();
      queue_.pop_front();
      ++outstanding_;
      out.push_back(std::move(trial));
    }
    return out;
  }

  void report(const TrialResult& result) override {
    const auto it = genes_.find(result.trial.id);
    if (it == genes_.end()) return;
    oracle_->known[it->second] = result.objective ? -*result.objective : kPenalty;
    generation_.push_back(it->second);
    genes_.erase(it);
    if (--outstanding_ == 0 && queue_.empty()) finish_generation();
  }

 private:
  // Fills the queue with the points pagmo will evaluate next.
  void next_generation() {
    oracle_->requested.clear();
    oracle_->recording = true;
    if (population_) {
      pagmo::algorithm algorithm = *algorithm_;
      pagmo::population population = *population_;
      algorithm.evolve(population);
      if (oracle_->requested.empty()) {  // converged: restart from a fresh population
        population_.reset();
        algorithm_.reset();
        ++restarts_;
      }
    }
    if (!population_) {
      const pagmo::population initial(problem_, lambda_, seed());  // built only for the points it records
    }
    oracle_->recording = false;
    queue_.assign(oracle_->requested.begin(), oracle_->requested.end());
    generation_.clear();
  }

  // Every point of the generation is reported: move pagmo's state on.
  void finish_generation() {
    if (!population_) {
      population_.emplace(problem_, 0u, seed());
      for (const auto& x : generation_) population_->push_back(x, {oracle_->known.at(x)});
      algorithm_.emplace(pagmo::cmaes(1, -1, -1, -1, -1, 0.3, 1e-9, 1e-9, true, true, seed()));
    } else {
      *population_ = algorithm_->evolve(*population_);
    }
  }

  unsigned seed() const { return static_cast<unsigned>(options_.seed * 7919 + restarts_); }

  SearchSpace space_;
  StrategyOptions options_;
  std::shared_ptr<Oracle> oracle_;
  pagmo::problem problem_;
  pagmo::population::size_type lambda_;
  std::optional<pagmo::algorithm> algorithm_;
  std::optional<pagmo::population> population_;
  std::deque<pagmo::vector_double> queue_;
  std::vector<pagmo::vector_double> generation_;
  std::map<std::int64_t, pagmo::vector_double> genes_;  // proposed, not yet reported
  std::int64_t next_ = 0, outstanding_ = 0;
  unsigned restarts_ = 0;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, CmaEs, "cma_es",
                   "CMA-ES (pagmo2) driven ask/tell: a generation of `population` points, restarts on convergence")

}  // namespace dse
