#include "hwcal/measure/session.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>

#include "hwcal/measure/session_journal.h"
#include "hwcal/row_prediction.h"

namespace dse {
namespace {

constexpr std::size_t kOutlierWindow = 64;  // DOPpler's candidates per round

double predicted_ms(const Candidate& c, const KernelTimer& model) {
  return 1e3 * (c.paired ? predict_pair_latency_s(c.op, *c.paired, model) : predict_latency_s(c.op, model));
}

double mean(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

class Session {
 public:
  Session(MeasurementBackend& backend, const std::vector<Candidate>& candidates, const SessionSettings& settings,
          const KernelTimer& model, JsonLinesJournal* journal)
      : backend_(backend),
        candidates_(candidates),
        settings_(settings),
        model_(model),
        journal_(journal),
        controller_(settings.parallel),
        done_(candidates.size(), false) {
    out_.results.resize(candidates.size());
  }

  SessionResult run(const SessionProgress& progress) {
    out_.device = backend_.device();
    out_.idle_w = backend_.idle_power_w();
    const bool isolated = journal_ && restore();
    std::size_t next = 0;
    while (true) {
      std::vector<std::size_t> chunk;
      const int dop = settings_.parallel.adaptive ? controller_.dop() : std::max(1, settings_.parallel.dop);
      if (settings_.parallel.model_packing) {
        // The pending candidates in order that fit beside each other on the GPU, up to dop.
        double load = 0;
        for (std::size_t i = 0; i < candidates_.size() && static_cast<int>(chunk.size()) < dop; ++i) {
          if (done_[i]) continue;
          const double share = predicted_share(i);
          if (!chunk.empty() && load + share > 1) continue;
          chunk.push_back(i);
          load += share;
        }
      } else {
        for (; next < candidates_.size() && static_cast<int>(chunk.size()) < dop; ++next)
          if (!done_[next]) chunk.push_back(next);
      }
      if (chunk.empty()) break;
      // Measured as many at once as the chunk holds (model packing may give fewer than dop).
      measure_chunk(chunk, static_cast<int>(chunk.size()));
      if (progress)
        progress(static_cast<std::size_t>(std::count(done_.begin(), done_.end(), true)), candidates_.size(), dop);
    }
    if (!isolated) isolate_fastest();
    summarize();
    if (settings_.serial_reference) measure_reference();
    return std::move(out_);
  }

 private:
  // A candidate measured alone; its wall time counts to the session's.
  Measurement alone(std::size_t i, double& wall_s) {
    MeasureSettings at_one = settings_.measure;
    at_one.timeout_s = timeout_at_dop(settings_.measure.timeout_s, 1);
    ChunkResult r = backend_.measure({&candidates_[i]}, at_one);
    wall_s += r.wall_s;
    Measurement m = std::move(r.measurements.front());
    if (m.status == MeasureStatus::ok)
      setup_samples_.push_back(std::max(0.0, m.device_s - timed_runs_s(m.latency_ms, settings_.measure)));
    return m;
  }

  static void fail(CandidateResult& r, const Measurement& m) {
    r.status = m.status;
    r.message = m.message;
  }

  void measure_chunk(const std::vector<std::size_t>& chunk, int dop) {
    std::vector<const Candidate*> pointers;
    for (const std::size_t i : chunk) pointers.push_back(&candidates_[i]);
    MeasureSettings at_dop = settings_.measure;
    at_dop.timeout_s = timeout_at_dop(settings_.measure.timeout_s, dop);
    const std::size_t setups_before = setup_samples_.size();
    const ChunkResult parallel = backend_.measure(pointers, at_dop);
    ChunkLog log{dop, chunk.size(), 0, 0, 0, parallel.wall_s};
    std::vector<std::size_t> good;  // measured at once, fine so far
    std::size_t failures = 0;
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      const std::size_t i = chunk[k];
      const Measurement& m = parallel.measurements[k];
      CandidateResult& r = out_.results[i];
      r = CandidateResult{};
      r.dop = dop;
      if (m.status != MeasureStatus::ok) {
        // Alone, it is not parallelism's fault: recorded as it is. At once, it runs again alone.
        if (dop == 1) {
          fail(r, m);
          continue;
        }
        ++failures;
        const Measurement again = alone(i, log.wall_s);
        if (again.status != MeasureStatus::ok) {
          fail(r, again);
          continue;
        }
        r.serial_ms = r.latency_ms = again.latency_ms;
        r.power_w = again.power_w;
        continue;
      }
      r.parallel_ms = r.latency_ms = m.latency_ms;
      r.power_w = m.power_w;
      if (dop == 1) {
        r.serial_ms = m.latency_ms;
        if (m.status == MeasureStatus::ok)
          setup_samples_.push_back(std::max(0.0, m.device_s - timed_runs_s(m.latency_ms, settings_.measure)));
        continue;
      }
      good.push_back(i);
    }
    if (dop > 1) {
      log.failure_share = static_cast<double>(failures) / static_cast<double>(chunk.size());
      remeasure(good, log);
    }
    if (settings_.parallel.adaptive) controller_.update(log.error, log.failure_share);
    for (const std::size_t i : chunk) done_[i] = true;
    out_.wall_s += log.wall_s;
    out_.chunks.push_back(log);
    const auto samples = backend_.samples();
    out_.samples.insert(out_.samples.end(), samples.begin(), samples.end());
    if (journal_) {
      SessionRecord record{
          log, controller_.dop(), controller_.w_max(), samples, log.wall_s, setups_since(setups_before), {}};
      for (const std::size_t i : chunk) record.results.emplace_back(i, out_.results[i]);
      write_session_record(*journal_, record);
    }
  }

  // Outliers and a random share of the rest measured alone; the rest corrected by the bias.
  void remeasure(const std::vector<std::size_t>& good, ChunkLog& log) {
    std::map<std::size_t, double> x_of;  // log(at once / predicted), the outlier tests' measure
    for (const std::size_t i : good) {
      const double x = std::log(*out_.results[i].parallel_ms / predicted_ms(candidates_[i], model_));
      x_of[i] = x;
      window_.emplace_back(i, x);
      if (window_.size() > kOutlierWindow) window_.pop_front();
    }
    std::vector<double> xs;
    for (const auto& [_, x] : window_) xs.push_back(x);
    std::vector<std::size_t> outliers;
    for (const std::size_t w : double_mad_outliers(xs, settings_.parallel.outlier_z))
      if (std::find(good.begin(), good.end(), window_[w].first) != good.end()) outliers.push_back(window_[w].first);
    std::vector<std::size_t> rest;
    for (const std::size_t i : good)
      if (std::find(outliers.begin(), outliers.end(), i) == outliers.end()) rest.push_back(i);
    // The random sample: a seeded shuffle per chunk, so a session is the same every time.
    std::mt19937_64 rng(settings_.seed * 1000003 + out_.chunks.size());
    std::shuffle(rest.begin(), rest.end(), rng);
    const auto sample_size =
        static_cast<std::size_t>(std::ceil(settings_.parallel.remeasure_share * static_cast<double>(rest.size())));
    std::vector<std::size_t> sample(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(sample_size));
    std::vector<std::size_t> others(rest.begin() + static_cast<std::ptrdiff_t>(sample_size), rest.end());
    std::vector<double> errors, biases;
    const auto measure_alone = [&](std::size_t i) {
      CandidateResult& r = out_.results[i];
      const Measurement m = alone(i, log.wall_s);
      if (m.status != MeasureStatus::ok) return false;
      r.serial_ms = m.latency_ms;
      r.latency_ms = std::min(*r.parallel_ms, m.latency_ms);  // keep the lower latency
      if (m.power_w) r.power_w = m.power_w;
      return true;
    };
    for (const std::size_t i : outliers) {
      out_.results[i].outlier = true;
      measure_alone(i);
    }
    for (const std::size_t i : sample) {
      out_.results[i].sampled = true;
      if (!measure_alone(i)) continue;
      const double p = *out_.results[i].parallel_ms, s = *out_.results[i].serial_ms;
      errors.push_back(std::abs(p - s) / s);
      biases.push_back((p - s) / p);
    }
    log.error = mean(errors);
    log.bias = mean(biases);
    const bool correct = !biases.empty() && log.bias < settings_.parallel.bias_limit;
    // The error the corrected candidates keep: each sampled candidate's after the correction the
    // other sampled ones give (leave one out: its own would make it exact); with one sample, its
    // error before correction.
    std::vector<double> after;
    if (biases.size() < 2) {
      after = errors;
    } else {
      const double sum = std::accumulate(biases.begin(), biases.end(), 0.0);
      std::size_t k = 0;
      for (const std::size_t i : sample) {
        const CandidateResult& r = out_.results[i];
        if (!r.serial_ms) continue;
        const double others_bias = (sum - biases[k++]) / static_cast<double>(biases.size() - 1);
        after.push_back(std::abs(*r.parallel_ms * (1 - others_bias) - *r.serial_ms) / *r.serial_ms);
      }
    }
    // The correction assumes the chunk's candidates were slowed alike, as DOPpler's are (one op's
    // schedules); a calibration's are not (a 64-row softmax queued beside an 8,192-cube GEMM waits
    // for it, the GEMM hardly notices). The model tells them apart: a candidate whose time at once
    // over its prediction differs from the sample's (the mean of log(at once / predicted) over the
    // sampled candidates measured alone) by more than the bias limit allows either way was slowed
    // unlike the sample, and is measured alone instead of corrected.
    double sample_x = 0;
    for (const std::size_t i : sample)
      if (out_.results[i].serial_ms) sample_x += x_of.at(i) / static_cast<double>(biases.size());
    const auto slowed_unlike_sample = [&](std::size_t i) {
      return std::abs(x_of.at(i) - sample_x) > -std::log(1 - settings_.parallel.bias_limit);
    };
    for (const std::size_t i : others) {
      CandidateResult& r = out_.results[i];
      if (correct && slowed_unlike_sample(i)) {
        r.outlier = true;
        measure_alone(i);
      } else if (correct) {
        r.latency_ms = *r.parallel_ms * (1 - log.bias);
        r.corrected = true;
        r.error_estimate = mean(after);
      } else if (!biases.empty()) {
        // A bias this large says the chunk's measurements are not worth correcting: alone, all.
        measure_alone(i);
      }
    }
  }

  double predicted_share(std::size_t i) {
    if (shares_.empty()) {
      for (const auto& c : candidates_)
        shares_.push_back(
            std::min(1.0, predict_gpu_share(c.op, model_) + (c.paired ? predict_gpu_share(*c.paired, model_) : 0.0)));
    }
    return shares_[i];
  }

  // The fastest candidates not yet measured alone, measured alone (DOPpler's final isolation).
  void isolate_fastest() {
    std::vector<std::size_t> ok;
    for (std::size_t i = 0; i < candidates_.size(); ++i)
      if (out_.results[i].status == MeasureStatus::ok) ok.push_back(i);
    std::sort(ok.begin(), ok.end(),
              [&](std::size_t a, std::size_t b) { return out_.results[a].latency_ms < out_.results[b].latency_ms; });
    const auto top =
        static_cast<std::size_t>(std::ceil(settings_.parallel.isolate_top_share * static_cast<double>(ok.size())));
    double wall_s = 0;
    const std::size_t setups_before = setup_samples_.size();
    SessionRecord record;  // the isolation: no chunk
    for (std::size_t k = 0; k < std::min(top, ok.size()); ++k) {
      const std::size_t i = ok[k];
      CandidateResult& r = out_.results[i];
      if (r.serial_ms) continue;  // measured alone already
      const Measurement m = alone(i, wall_s);
      if (m.status != MeasureStatus::ok) continue;
      r.serial_ms = r.latency_ms = m.latency_ms;
      r.isolated = true;
      r.corrected = false;
      r.error_estimate = 0;
      record.results.emplace_back(i, r);
    }
    out_.wall_s += wall_s;
    record.wall_s = wall_s;
    record.setups_s = setups_since(setups_before);
    if (journal_) write_session_record(*journal_, record);
  }

  // The set-up times seen alone since there were `before` of them.
  std::vector<double> setups_since(std::size_t before) const {
    return {setup_samples_.begin() + static_cast<std::ptrdiff_t>(before), setup_samples_.end()};
  }

  void summarize() {
    // Serial measurement's time: each candidate's set-up as seen alone plus its timed runs.
    const double setup_s = mean(setup_samples_);
    double serial_s = 0, error = 0;
    std::size_t ok = 0;
    for (const auto& r : out_.results) {
      if (r.status != MeasureStatus::ok) {
        serial_s += settings_.measure.timeout_s;
        continue;
      }
      serial_s += setup_s + timed_runs_s(r.latency_ms, settings_.measure);
      error += r.error_estimate;
      ++ok;
    }
    out_.serial_estimate_s = serial_s;
    out_.speedup_vs_serial = out_.wall_s > 0 ? serial_s / out_.wall_s : 1;
    out_.error_vs_serial_pct = ok ? 100 * error / static_cast<double>(ok) : 0;
  }

  void measure_reference() {
    double wall_s = 0, error = 0;
    std::size_t ok = 0;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      CandidateResult& r = out_.results[i];
      if (r.status != MeasureStatus::ok) continue;
      const Measurement m = alone(i, wall_s);
      if (m.status != MeasureStatus::ok) continue;
      r.reference_ms = m.latency_ms;
      error += std::abs(r.latency_ms - m.latency_ms) / m.latency_ms;
      ++ok;
    }
    out_.reference_serial_s = wall_s;
    out_.reference_error_pct = ok ? 100 * error / static_cast<double>(ok) : 0;
  }

  // The chunks an interrupted run journaled; true if it had finished (isolation included).
  bool restore() {
    bool isolated = false;
    for (const auto& json : journal_->records()) {
      const SessionRecord record = read_session_record(json);
      for (const auto& [i, r] : record.results) {
        if (i >= candidates_.size()) throw std::invalid_argument("a result of no candidate");
        out_.results[i] = r;
        done_[i] = true;
      }
      setup_samples_.insert(setup_samples_.end(), record.setups_s.begin(), record.setups_s.end());
      out_.wall_s += record.wall_s;
      out_.resumed = true;
      if (!record.chunk) {
        isolated = true;
        continue;
      }
      controller_.restore(record.dop_next, record.w_max);
      out_.chunks.push_back(*record.chunk);
      out_.samples.insert(out_.samples.end(), record.samples.begin(), record.samples.end());
    }
    return isolated;
  }

  MeasurementBackend& backend_;
  const std::vector<Candidate>& candidates_;
  const SessionSettings& settings_;
  const KernelTimer& model_;
  JsonLinesJournal* journal_;
  DopController controller_;
  std::vector<bool> done_;
  std::deque<std::pair<std::size_t, double>> window_;  // the last parallel measurements' outlier feature
  std::vector<double> setup_samples_;                  // set-up times seen alone
  std::vector<double> shares_;                         // each candidate's GPU share, predicted
  SessionResult out_;
};

}  // namespace

SessionResult run_session(MeasurementBackend& backend, const std::vector<Candidate>& candidates,
                          const SessionSettings& settings, const KernelTimer& model, JsonLinesJournal* journal,
                          const SessionProgress& progress) {
  return Session(backend, candidates, settings, model, journal).run(progress);
}

}  // namespace dse
