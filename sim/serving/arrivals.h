// Request arrivals of one serving tenant, a registry family (`arrivals: {name: poisson, ...}`):
//   closed_loop  N clients, each sending its next request a think time after its last one returns
//   poisson      independent arrivals at a rate
//   bursty       a two-state Markov-modulated Poisson process (on/off when the low rate is 0)
//   trace        the timestamps of a CSV file (column arrival_s)
// Times are seconds from the start of the run.
//
// Contract: a process is used by one serving run (one thread); all its randomness comes from the
// ServingRng it is handed, so a run at a seed is reproducible; times it returns never decrease
// for an open-loop process.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/base/registry.h"
#include "sim/config/config_node.h"
#include "sim/serving/serving_rng.h"

namespace dse {

// The longest serving run dse simulates, s: arrivals, duration_s and warm-up stay inside it, so every
// event time fits the engine's 64-bit picosecond clock (9.2e6 s) with room for the batches after.
inline constexpr double kLongestServingRun_s = 1e6;

class ArrivalProcess {
 public:
  static constexpr const char* family_name = "arrivals";
  static constexpr const char* family_description =
      "Request arrival processes of a serving tenant (workload.serving.tenants[i].arrivals.name)";
  // `params` is the arrivals block; `config_file` resolves a trace file's relative path.
  using Factory =
      std::function<std::unique_ptr<ArrivalProcess>(const ConfigNode& params, const std::string& config_file)>;

  virtual ~ArrivalProcess() = default;
  // The requests sent at the start (a closed loop's clients; an open process's first arrival).
  virtual std::vector<double> initial_s(ServingRng& rng) = 0;
  // Open loop: the next arrival after the one at `now_s`; nullopt when there are no more.
  virtual std::optional<double> after_arrival_s(double now_s, ServingRng& rng) = 0;
  // Closed loop: when the client whose request completed at `now_s` sends its next one.
  virtual std::optional<double> after_completion_s(double now_s, ServingRng& rng) = 0;
  // The mean arrival rate where the process has one (1/s), for reports; nullopt for a closed loop.
  virtual std::optional<double> mean_rate_per_s() const = 0;
  // About how many requests arrive in [0, duration_s] (a trace's count, a random process's mean),
  // for the run's memory budget (sim/serving/serving_budget.h); nullopt for a closed loop, whose
  // requests follow its completions.
  virtual std::optional<double> expected_arrivals(double duration_s) const {
    const auto rate = mean_rate_per_s();
    return rate ? std::optional<double>(*rate * duration_s) : std::nullopt;
  }
  // Whether requests follow completions (a closed loop) rather than a clock of their own.
  virtual bool closed_loop() const { return false; }
};

using ArrivalRegistry = Registry<ArrivalProcess>;

std::unique_ptr<ArrivalProcess> make_arrivals(const ConfigNode& params, const std::string& config_file);

}  // namespace dse
