// Published parameter and MAC counts of zoo models, with their sources: what `dse models check`
// and the zoo tests compare the builders against (params within 1 %, MACs within 2 %).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "models/zoo/zoo.h"

namespace dse {

struct PublishedCount {
  std::string model;
  ModelParams params;           // batch 1 at the resolution / sequence the figure was measured at
  double parameters;            // as published
  std::optional<double> gmacs;  // multiply-accumulates in G, where a source gives them
  std::string source;
  // The step a figure is published rounded to ("2.7B": 0.1e9); 0 for an exact count.
  double parameters_rounded_to = 0;
};

const std::vector<PublishedCount>& published_counts();

inline constexpr double kParamTolerance = 0.01;
inline constexpr double kMacTolerance = 0.02;

// How far a model's parameters may be from a published figure: 1 % (kParamTolerance), or half the
// step a rounded figure was published to, whichever is more.
inline double parameter_tolerance(const PublishedCount& published) {
  return std::max(kParamTolerance * published.parameters, published.parameters_rounded_to / 2);
}

}  // namespace dse
