// Pareto fronts of search trials, with every objective as "larger is better" (minimised metrics
// negated, as TrialResult::scores holds them).
#pragma once

#include <optional>
#include <vector>

#include "search/strategy.h"

namespace dse {

// a dominates b: no worse in every score and better in at least one.
bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// Non-dominated sorting (Deb et al., NSGA-II, 2002): the front index of each point, 0 = Pareto.
std::vector<int> pareto_ranks(const std::vector<std::vector<double>>& points);

// Indices (into `trials`) of the ok trials no other ok trial dominates, in trial order; of trials
// with the same parameter values only the first.
std::vector<std::size_t> pareto_front(const std::vector<TrialResult>& trials);

// The points no other point dominates (indices, ascending), without ranking the rest: sort-based,
// O(n log n + n x front size).
std::vector<std::size_t> non_dominated(const std::vector<std::vector<double>>& points);

// Hypervolume (area for 2 objectives, volume for 3, ...) dominated by `front` and bounded below by
// `reference`, computed by pagmo2 (exact algorithms: a sweep in 2-D, WFG/HV3D beyond); nullopt for
// fewer than two objectives.
std::optional<double> hypervolume(const std::vector<std::vector<double>>& front, const std::vector<double>& reference);

}  // namespace dse
