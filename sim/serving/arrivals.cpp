#include "sim/serving/arrivals.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/base/csv_table.h"
#include "models/base/cut_input.h"
#include "sim/config/config_loader.h"

namespace dse {
namespace {

// N clients, each with one request outstanding: it sends, waits for the answer, thinks, sends again.
class ClosedLoop final : public ArrivalProcess {
 public:
  ClosedLoop(const ConfigNode& params, const std::string&)
      : clients_(params.param<int>("clients").in_range(1, 1'000'000).required()),
        think_s_(params.param<double>("think_ms").in_range(0, 3.6e6).with_default(0) * 1e-3),
        exponential_(params.param<std::string>("think")
                         .one_of({"fixed", "exponential"}, "a think-time distribution")
                         .with_default("exponential") == "exponential") {}
  static std::vector<KeySpec> declared_keys() {
    return {{"clients", "integer", "required", "", "clients, each with one request outstanding (1 to 1,000,000)", "16"},
            {"think_ms", "number", "0", "ms", "each client's mean wait after its answer before it sends again", "5"},
            {"think", "string", "exponential", "", "the think time's distribution: fixed or exponential", "fixed"}};
  }
  std::vector<double> initial_s(ServingRng&) override { return std::vector<double>(clients_, 0.0); }
  bool closed_loop() const override { return true; }
  std::optional<double> after_arrival_s(double, ServingRng&) override { return std::nullopt; }
  std::optional<double> after_completion_s(double now_s, ServingRng& rng) override {
    return now_s + (exponential_ && think_s_ > 0 ? rng.exponential(think_s_) : think_s_);
  }
  std::optional<double> mean_rate_per_s() const override { return std::nullopt; }

 private:
  int clients_;
  double think_s_;
  bool exponential_;
};

class Poisson final : public ArrivalProcess {
 public:
  Poisson(const ConfigNode& params, const std::string&)
      : mean_gap_s_(1.0 / params.param<double>("rate_per_s").in_range(1e-6, 1e9).required()) {}
  static std::vector<KeySpec> declared_keys() {
    return {{"rate_per_s", "number", "required", "1/s", "the mean arrival rate", "200"}};
  }
  std::vector<double> initial_s(ServingRng& rng) override { return {rng.exponential(mean_gap_s_)}; }
  std::optional<double> after_arrival_s(double now_s, ServingRng& rng) override {
    return now_s + rng.exponential(mean_gap_s_);
  }
  std::optional<double> after_completion_s(double, ServingRng&) override { return std::nullopt; }
  std::optional<double> mean_rate_per_s() const override { return 1.0 / mean_gap_s_; }

 private:
  double mean_gap_s_;
};

// Two states, high and low rate, each held for an exponential time (a two-state MMPP; on/off when
// the low rate is 0). It starts in the high state.
class Bursty final : public ArrivalProcess {
 public:
  Bursty(const ConfigNode& params, const std::string&)
      : rate_{params.param<double>("high_rate_per_s").in_range(1e-6, 1e9).required(),
              params.param<double>("low_rate_per_s").in_range(0, 1e9).with_default(0)},
        mean_hold_s_{params.param<double>("high_mean_s").in_range(1e-6, 1e6).required(),
                     params.param<double>("low_mean_s").in_range(1e-6, 1e6).required()} {}
  static std::vector<KeySpec> declared_keys() {
    return {{"high_rate_per_s", "number", "required", "1/s", "the arrival rate in the high state", "400"},
            {"low_rate_per_s", "number", "0", "1/s", "the rate in the low state (0: on/off)", "50"},
            {"high_mean_s", "number", "required", "s", "the mean hold of the high state (exponential)", "0.5"},
            {"low_mean_s", "number", "required", "s", "the mean hold of the low state", "0.5"}};
  }
  std::vector<double> initial_s(ServingRng& rng) override {
    switch_s_ = rng.exponential(mean_hold_s_[0]);
    const auto first = after_arrival_s(0, rng);
    return first ? std::vector<double>{*first} : std::vector<double>{};
  }
  std::optional<double> after_arrival_s(double now_s, ServingRng& rng) override {
    // Memoryless: a gap drawn in the current state that crosses the switch is redrawn after it.
    double t = now_s;
    for (int switches = 1;; ++switches) {
      const double gap =
          rate_[state_] > 0 ? rng.exponential(1.0 / rate_[state_]) : std::numeric_limits<double>::infinity();
      if (t + gap < switch_s_) return t + gap;
      t = switch_s_;
      state_ = 1 - state_;
      if (switches == kSwitchesOneByOne) return after_many_switches(t, rng);
      switch_s_ = t + rng.exponential(mean_hold_s_[state_]);
    }
  }
  std::optional<double> after_completion_s(double, ServingRng&) override { return std::nullopt; }
  std::optional<double> mean_rate_per_s() const override {
    return (rate_[0] * mean_hold_s_[0] + rate_[1] * mean_hold_s_[1]) / (mean_hold_s_[0] + mean_hold_s_[1]);
  }

 private:
  // Past this many switches inside one gap (a low rate, short holds) the rest are drawn in bulk.
  static constexpr int kSwitchesOneByOne = 1000;

  // The next arrival after a switch into state_ at `t`, drawn a whole cycle (a hold in state_, then
  // one in the other state) at a time: n holds of one state sum to gamma(n) seconds, and the sums
  // over fewer cycles follow from them by beta splits, so doubling and then bisecting the cycle
  // count finds the cycle the arrival falls in with O(log cycles) draws, in the same distribution.
  double after_many_switches(double t, ServingRng& rng) {
    const int first = state_, second = 1 - state_;
    struct Cycles {
      double count = 0;
      double in_first_s = 0, in_second_s = 0;  // time spent in each state over `count` cycles
    };
    const auto expected_arrivals = [&](const Cycles& c) {
      return rate_[first] * c.in_first_s + rate_[second] * c.in_second_s;
    };
    const double needed = rng.exponential(1.0);  // the arrival comes when the expected count reaches this
    Cycles before, by{1, rng.exponential(mean_hold_s_[first]), rng.exponential(mean_hold_s_[second])};
    while (expected_arrivals(by) < needed) {
      const double end_s = t + by.in_first_s + by.in_second_s;
      if (end_s > kLongestServingRun_s) {  // none before the longest run ends: the caller stops there
        switch_s_ = end_s;
        return end_s;
      }
      before = by;
      by = {2 * before.count, before.in_first_s + rng.gamma(before.count, mean_hold_s_[first]),
            before.in_second_s + rng.gamma(before.count, mean_hold_s_[second])};
    }
    while (by.count - before.count > 1) {
      const double mid = before.count + std::floor((by.count - before.count) / 2);
      const Cycles split{
          mid, before.in_first_s + (by.in_first_s - before.in_first_s) * rng.beta(mid - before.count, by.count - mid),
          before.in_second_s + (by.in_second_s - before.in_second_s) * rng.beta(mid - before.count, by.count - mid)};
      (expected_arrivals(split) < needed ? before : by) = split;
    }
    // The arrival falls in cycle `by.count`: in its first hold, or in the second.
    const double start_s = t + before.in_first_s + before.in_second_s;
    const double first_hold_s = by.in_first_s - before.in_first_s, second_hold_s = by.in_second_s - before.in_second_s;
    const double left = needed - expected_arrivals(before);
    if (rate_[second] <= 0 || (rate_[first] > 0 && rate_[first] * first_hold_s >= left)) {
      state_ = first;
      switch_s_ = start_s + first_hold_s;
      return start_s + std::min(first_hold_s, left / rate_[first]);
    }
    state_ = second;
    switch_s_ = start_s + first_hold_s + second_hold_s;
    return start_s + first_hold_s +
           std::min(second_hold_s, std::max(0.0, left - rate_[first] * first_hold_s) / rate_[second]);
  }

  double rate_[2];
  double mean_hold_s_[2];
  int state_ = 0;
  double switch_s_ = 0;
};

// Timestamps from a CSV file with a column `arrival_s` (seconds, non-decreasing, >= 0); the first
// row is the header. Every bad row is an error naming FILE:LINE:COL.
class Trace final : public ArrivalProcess {
 public:
  static std::vector<KeySpec> declared_keys() {
    return {
        {"file", "string", "required", "", "a CSV file with a column arrival_s (seconds), relative to the config",
         "arrivals.csv"},
        {"shift_to_zero", "boolean", "false", "", "start the trace at its first timestamp (for Unix times)", "true"}};
  }
  Trace(const ConfigNode& params, const std::string& config_file) {
    const ConfigNode& file = params.at("file", "a CSV file with an arrival_s column");
    const std::string path = resolve_config_path(config_file, file.as<std::string>());
    // A trace of absolute timestamps (Unix time) starts at its first row with shift_to_zero.
    const bool shift = params.param<bool>("shift_to_zero").with_default(false);
    // Row by row (CsvTable::for_each_row): only the times are kept, 8 bytes a row.
    std::size_t column = 0;
    double origin = 0, previous = 0;  // the first row's time with shift_to_zero; the last row's
    const auto on_header = [&](const CsvTable& table) { column = table.column("arrival_s"); };
    const auto on_row = [&](const CsvTable& table, const CsvTable::Row& row) {
      const double t = table.number(row, column);
      const int col = table.cell_column(row, column);
      if (!std::isfinite(t) || t < 0)
        throw UserError(fmt::format("{}:{}:{}: arrival_s: expected a time in seconds >= 0, found {}", path, row.line,
                                    col, cut_input(table.text(row, column))));
      if (!times_.empty() && t < previous)
        throw UserError(fmt::format("{}:{}:{}: arrival_s: expected times in non-decreasing order, found {} after {}",
                                    path, row.line, col, cut_input(table.text(row, column)), previous));
      if (times_.empty() && shift) origin = t;
      previous = t;
      if (t - origin > kLongestServingRun_s)
        throw UserError(fmt::format("{}:{}:{}: arrival_s: expected times within {:g} s of {}, found {}{}", path,
                                    row.line, col, kLongestServingRun_s,
                                    shift ? "the first row" : "0 (the longest run dse simulates)", t,
                                    shift ? "" : " (for Unix timestamps, set shift_to_zero: true)"));
      times_.push_back(t - origin);
    };
    CsvTable::for_each_row(path, on_header, on_row);
    if (times_.empty()) throw UserError(path + ": expected at least one arrival row, found none");
  }
  std::vector<double> initial_s(ServingRng&) override { return {times_[next_++]}; }
  std::optional<double> after_arrival_s(double, ServingRng&) override {
    if (next_ >= times_.size()) return std::nullopt;
    return times_[next_++];
  }
  std::optional<double> after_completion_s(double, ServingRng&) override { return std::nullopt; }
  std::optional<double> expected_arrivals(double duration_s) const override {
    return static_cast<double>(std::upper_bound(times_.begin(), times_.end(), duration_s) - times_.begin());
  }
  std::optional<double> mean_rate_per_s() const override {
    return times_.size() > 1 && times_.back() > times_.front()
               ? std::optional<double>((times_.size() - 1) / (times_.back() - times_.front()))
               : std::nullopt;
  }

 private:
  std::vector<double> times_;
  std::size_t next_ = 0;
};

}  // namespace

std::unique_ptr<ArrivalProcess> make_arrivals(const ConfigNode& params, const std::string& config_file) {
  params.expect_map("arrivals: {name: closed_loop|poisson|bursty|trace, ...}");
  const std::string name =
      params.param<std::string>("name").one_of(ArrivalRegistry::instance().names(), "an arrival process").required();
  return ArrivalRegistry::instance().find(name)->factory(params, config_file);
}

DSE_REGISTER_KEYED(ArrivalProcess, ClosedLoop, "closed_loop",
                   "N clients (clients), each sending again think_ms after its answer")
DSE_REGISTER_KEYED(ArrivalProcess, Poisson, "poisson", "Independent arrivals at rate_per_s")
DSE_REGISTER_KEYED(ArrivalProcess, Bursty, "bursty",
                   "Two-state MMPP: high_rate_per_s for high_mean_s, low_rate_per_s (default 0: on/off) for low_mean_s")
DSE_REGISTER_KEYED(ArrivalProcess, Trace, "trace", "Timestamps of a CSV file (file, column arrival_s in seconds)")

}  // namespace dse
