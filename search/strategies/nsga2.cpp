// NSGA-II (Deb, Pratap, Agarwal, Meyarivan, IEEE TEC 2002) for several objectives, in steady
// state: the first `population` trials are random; then children come from binary tournaments on
// the parents (lower front first, then larger crowding distance), uniform crossover and one
// mutated gene per child on average; after each batch the parents become the best `population` of
// parents and children by front and crowding. Constrained domination: any feasible trial beats any
// infeasible or failed one. Genes are unit-interval draws turned into values by the space.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "search/pareto.h"
#include "search/strategy.h"

namespace dse {
namespace {

class Nsga2 final : public GeneStrategy {
 public:
  Nsga2(const SearchSpace& space, const StrategyOptions& options, const ConfigNode& params)
      : GeneStrategy(space, options), population_size_(read_population(params)) {}
  static std::vector<KeySpec> declared_keys() {
    return {population_key("the parents kept from one generation to the next; as many random trials first")};
  }

  void report(const TrialResult& result) override {
    pool_.push_back(
        Member{result.trial.id, result.status == TrialStatus::ok ? result.scores : std::vector<double>{}, 0, 0});
    // Select once a batch's worth has arrived (reports come in id order after each batch).
    if (result.trial.id + 1 == proposed()) select();
  }

 private:
  struct Member {
    std::int64_t id;
    std::vector<double> scores;  // empty: infeasible or failed
    int rank;
    double crowding;
  };

  double uniform(std::int64_t trial, std::uint64_t stream) const { return trial_uniform(options_.seed, trial, stream); }

  std::vector<double> next_genes(std::int64_t id, const std::vector<std::vector<double>>&) override {
    return id < population_size_ || parents_.empty() ? random_genes(id) : child(id);
  }

  // Better by constrained domination rank, then crowding.
  static bool better(const Member& a, const Member& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.crowding > b.crowding;
  }

  const Member& tournament(std::int64_t id, std::uint64_t stream) const {
    const auto pick = [&](std::uint64_t s) -> const Member& {
      const auto i = static_cast<std::size_t>(uniform(id, s) * static_cast<double>(parents_.size()));
      return parents_[std::min(i, parents_.size() - 1)];
    };
    const Member& a = pick(stream);
    const Member& b = pick(stream + 1);
    return better(b, a) ? b : a;
  }

  std::vector<double> child(std::int64_t id) const {
    const auto& mother = genes_of(tournament(id, 100).id);
    const auto& father = genes_of(tournament(id, 200).id);
    std::vector<double> genes(mother.size());
    const double mutation = 1.0 / static_cast<double>(genes.size());
    for (std::size_t p = 0; p < genes.size(); ++p) {
      genes[p] = uniform(id, 300 + p) < 0.5 ? mother[p] : father[p];
      if (uniform(id, 1000 + p) < mutation) genes[p] = uniform(id, 2000 + p);
    }
    return genes;
  }

  void select() {
    std::vector<Member> all = parents_;
    all.insert(all.end(), pool_.begin(), pool_.end());
    pool_.clear();
    std::vector<std::vector<double>> points;
    std::vector<std::size_t> feasible;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].scores.empty()) continue;
      feasible.push_back(i);
      points.push_back(all[i].scores);
    }
    const auto ranks = pareto_ranks(points);
    const int worst = ranks.empty() ? 0 : *std::max_element(ranks.begin(), ranks.end());
    for (auto& m : all) {
      m.rank = worst + 1;  // infeasible and failed: behind every feasible front
      m.crowding = 0;
    }
    for (std::size_t k = 0; k < feasible.size(); ++k) all[feasible[k]].rank = ranks[k];
    // Crowding distance within each front, per objective.
    std::map<int, std::vector<std::size_t>> fronts;
    for (const auto i : feasible) fronts[all[i].rank].push_back(i);
    for (auto& [rank, members] : fronts) {
      const std::size_t objectives = all[members.front()].scores.size();
      for (std::size_t o = 0; o < objectives; ++o) {
        std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
          return all[a].scores[o] != all[b].scores[o] ? all[a].scores[o] < all[b].scores[o] : all[a].id < all[b].id;
        });
        const double span = all[members.back()].scores[o] - all[members.front()].scores[o];
        all[members.front()].crowding = all[members.back()].crowding = std::numeric_limits<double>::infinity();
        for (std::size_t k = 1; k + 1 < members.size(); ++k)
          if (span > 0)
            all[members[k]].crowding += (all[members[k + 1]].scores[o] - all[members[k - 1]].scores[o]) / span;
      }
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Member& a, const Member& b) { return better(a, b) || (!better(b, a) && a.id < b.id); });
    if (static_cast<std::int64_t>(all.size()) > population_size_)
      all.resize(static_cast<std::size_t>(population_size_));
    parents_ = std::move(all);
  }

  std::int64_t population_size_;  // `population`: parents kept from one generation to the next
  std::vector<Member> parents_, pool_;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, Nsga2, "nsga2",
                   "NSGA-II: non-dominated sorting and crowding, several objectives, constrained")

}  // namespace dse
