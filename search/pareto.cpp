#include "search/pareto.h"

#include <pagmo/utils/hypervolume.hpp>

#include <algorithm>
#include <set>
#include <string>

namespace dse {

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] < b[i]) return false;
    better = better || a[i] > b[i];
  }
  return better;
}

std::vector<int> pareto_ranks(const std::vector<std::vector<double>>& points) {
  const std::size_t n = points.size();
  std::vector<int> rank(n, -1), dominated_by(n, 0);
  std::vector<std::vector<std::size_t>> dominates_list(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      if (dominates(points[i], points[j]))
        dominates_list[i].push_back(j);
      else if (dominates(points[j], points[i]))
        ++dominated_by[i];
    }
  std::vector<std::size_t> current;
  for (std::size_t i = 0; i < n; ++i)
    if (dominated_by[i] == 0) current.push_back(i);
  for (int front = 0; !current.empty(); ++front) {
    std::vector<std::size_t> next;
    for (const auto i : current) {
      rank[i] = front;
      for (const auto j : dominates_list[i])
        if (--dominated_by[j] == 0) next.push_back(j);
    }
    current = std::move(next);
  }
  return rank;
}

std::vector<std::size_t> pareto_front(const std::vector<TrialResult>& trials) {
  std::vector<std::size_t> ok;
  std::vector<std::vector<double>> points;
  std::set<std::vector<std::string>> seen;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    if (trials[i].status != TrialStatus::ok || trials[i].scores.empty()) continue;
    if (!seen.insert(trials[i].trial.values).second) continue;
    ok.push_back(i);
    points.push_back(trials[i].scores);
  }
  std::vector<std::size_t> front;
  for (const std::size_t k : non_dominated(points)) front.push_back(ok[k]);
  return front;
}

std::vector<std::size_t> non_dominated(const std::vector<std::vector<double>>& points) {
  // Sorted best first in lexicographic order, a point can be dominated only by one before it, and
  // if by any, then by one of the front found so far (dominance is transitive): O(n log n + n f)
  // for a front of f points, where ranking every pair was O(n^2) in time and memory.
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return points[a] > points[b]; });
  std::vector<std::size_t> front;
  for (const std::size_t i : order) {
    const bool dominated =
        std::any_of(front.begin(), front.end(), [&](std::size_t f) { return dominates(points[f], points[i]); });
    if (!dominated) front.push_back(i);
  }
  std::sort(front.begin(), front.end());
  return front;
}

std::optional<double> hypervolume(const std::vector<std::vector<double>>& front, const std::vector<double>& reference) {
  if (reference.size() < 2) return std::nullopt;
  // pagmo minimises: negate, and keep the points strictly better than the reference in every score
  // (the others bound no volume).
  std::vector<pagmo::vector_double> points;
  for (const auto& p : front) {
    bool inside = p.size() == reference.size();
    for (std::size_t o = 0; inside && o < p.size(); ++o) inside = p[o] > reference[o];
    if (!inside) continue;
    pagmo::vector_double q;
    for (const double v : p) q.push_back(-v);
    points.push_back(std::move(q));
  }
  if (points.empty()) return 0.0;
  pagmo::vector_double ref;
  for (const double v : reference) ref.push_back(-v);
  return pagmo::hypervolume(points, false).compute(ref);
}

}  // namespace dse
