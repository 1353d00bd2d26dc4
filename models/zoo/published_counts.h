// Published parameter and MAC counts of zoo models, with their sources: what `dse models check`
// and the zoo tests compare the builders against (params within 1 %, MACs within 2 %).
#pragma once

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
};

const std::vector<PublishedCount>& published_counts();

inline constexpr double kParamTolerance = 0.01;
inline constexpr double kMacTolerance = 0.02;

}  // namespace dse
