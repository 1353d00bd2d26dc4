#include "sim/serving/serving_sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>

#include "models/base/errors.h"
#include "sim/metrics/board_power.h"
#include "sim/runtime/schedule.h"
#include "sim/runtime/shared_resource.h"
#include "sim/serving/batch_cost_table.h"
#include "sim/serving/serving_budget.h"
#include "sim/serving/serving_metrics.h"
#include "sim/serving/serving_spec.h"
#include "sim/serving/serving_trace.h"

namespace dse {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr double kNoReading = std::numeric_limits<double>::quiet_NaN();  // a batch with no power to log

// The batch sizes the model-based governor's oracle weighs (every size would cost a pass each):
// powers of two and the steps between them, up to the largest batch.
std::vector<int> oracle_batches(int max_batch) {
  std::vector<int> sizes;
  for (const int b : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 192, 224, 256, 384, 512, 768, 1024})
    if (b <= max_batch) sizes.push_back(b);
  if (sizes.empty() || sizes.back() != max_batch) sizes.push_back(max_batch);
  return sizes;
}

struct TenantState {
  std::unique_ptr<ArrivalProcess> arrivals;
  std::unique_ptr<BatchingPolicy> policy;
  std::deque<std::size_t> queue;  // ready requests, oldest first
  int free_instances = 1;
  std::vector<int> instance_busy;  // per instance: 1 while it runs a batch
  // Host stage.
  std::deque<std::size_t> host_queue;
  int host_busy = 0;
  bool closed = false;  // no request will arrive any more
  double pending_wake_s = kNever;
};

// A batch on the device; how fast it runs is the device's (SharedResource).
struct RunningBatch {
  std::size_t batch_index = 0;  // into trace.batches
  std::vector<std::size_t> requests;
  PassProfile cost;
};

class ServingRun {
 public:
  ServingRun(const Experiment& experiment, WallDeadline deadline)
      : experiment_(experiment),
        spec_(*experiment.serving),
        costs_(experiment, spec_, deadline),
        rng_(spec_.seed),
        device_(engine_, experiment.device->sharing().passes, experiment.device->dram_bytes_per_s()),
        trace_(std::make_shared<ServingTrace>()) {
    engine_.set_deadline(deadline);
    device_.load_changed.connect([this](TimePs, const SharedResource::Load& load) {
      track_busy();
      dynamic_w_ = load.dynamic_w;
      power_changed();
    });
    tenant_priority_.assign(experiment.models.size(), 0);
    for (const ScheduleSegment& segment : experiment.schedule->segments)
      if (segment.ref.segment == 0)
        tenant_priority_[segment.ref.tenant] =
            experiment.schedule->stream_priority[static_cast<std::size_t>(segment.stream)];
  }

  RunResult run();

 private:
  double now_s() const { return static_cast<double>(engine_.now()) * 1e-12; }
  void at_s(double time_s, Engine::Action action) {
    engine_.schedule_at(std::max(engine_.now(), checked_ps(time_s * 1e12, "a serving event time")), std::move(action));
  }

  // Arrivals.
  void schedule_arrival(std::size_t tenant, double time_s);
  void arrive(std::size_t tenant);
  void close_arrivals(std::size_t tenant);
  bool limit_reached() const { return spec_.requests && issued_ >= *spec_.requests; }
  void host_start(std::size_t tenant, std::size_t request);
  void ready(std::size_t tenant, std::size_t request);
  bool draining(const TenantState& t) const { return t.closed && t.host_queue.empty() && t.host_busy == 0; }

  // Dispatch and the device.
  void dispatch(std::size_t tenant);
  void wake(std::size_t tenant, double time_s);
  void start_batch(std::size_t tenant, int size);
  // Runs batch `batch_index`'s pass (after its host work, where the tenant's host stage is per batch).
  void launch(std::size_t tenant, std::size_t batch_index, std::vector<std::size_t> requests);
  void batch_done(std::size_t batch_index);
  void track_busy();  // brings the busy time up to now
  double board_w() const;
  void power_changed();  // tells the board what it draws now
  int clock_level() const { return knobs_.clock_level; }
  double clock_mhz() const;

  // The governor and the sensor.
  void maybe_act();
  void apply(const ServingKnobs& knobs);
  void sense();
  bool finished() const;

  const Experiment& experiment_;
  const ServingSpec& spec_;
  BatchCostTable costs_;
  ServingRng rng_;
  Engine engine_;
  SharedResource device_;
  std::shared_ptr<ServingTrace> trace_;
  std::vector<TenantState> tenants_;
  std::vector<RunningBatch> running_;  // in start order
  double dynamic_w_ = 0;               // of the running batches, at the speeds the device grants
  std::vector<int> tenant_priority_;   // the schedule's priority of each tenant's (first) stream
  RunResult result_;

  std::int64_t issued_ = 0, completed_ = 0;
  double idle_w_ = 0;
  // Between batches the GPU stays in P0 at the clock it last ran at: the idle draw plus that clock's
  // leakage (an H200 with a process on it drew 124 W idle at boost against 80 W with none,
  // docs/power.md). 0 until the first batch.
  double idle_static_w_ = 0;
  BoardPower board_;
  double busy_since_s_ = 0;    // busy_s_ counts up to then
  double busy_s_ = 0;          // time with a batch running, since the start
  double hold_until_s_ = 0;    // dispatch waits for a clock change until then
  double last_clock_mhz_ = 0;  // without clock levels: the clock the last batch ran at (before one, a pass's)

  std::unique_ptr<Governor> governor_;
  ServingKnobs knobs_;
  double last_action_s_ = 0;
  double busy_at_action_s_ = 0;  // busy_s_ then
  double window_max_w_ = -1;     // highest reading since the governor last acted (-1: none)
  double last_sample_w_ = kNoReading;
  double last_completion_s_ = 0;                     // when the last batch finished
  std::vector<std::size_t> latencies_since_action_;  // requests completed since then
};

// --- arrivals ----------------------------------------------------------------------------------

void ServingRun::schedule_arrival(std::size_t tenant, double time_s) {
  if (tenants_[tenant].closed) return;
  if (spec_.duration_s && time_s > *spec_.duration_s) {
    // The open chain ends here; a closed loop's clients stop at duration_s (an event closes them).
    if (!tenants_[tenant].arrivals->closed_loop()) close_arrivals(tenant);
    return;
  }
  if (time_s > kLongestServingRun_s)
    throw UserError(fmt::format(
        "{}: workload.serving: tenant {}'s requests arrive past {:g} simulated seconds (the longest run dse "
        "simulates) before the run's {} requests are in; expected a higher rate, fewer requests or duration_s",
        spec_.config_file, tenant, kLongestServingRun_s, spec_.requests ? *spec_.requests : 0));
  at_s(time_s, [this, tenant] { arrive(tenant); });
}

void ServingRun::close_arrivals(std::size_t tenant) {
  TenantState& t = tenants_[tenant];
  if (t.closed) return;
  t.closed = true;
  dispatch(tenant);  // a partial batch may go now
}

void ServingRun::arrive(std::size_t tenant) {
  TenantState& t = tenants_[tenant];
  if (t.closed || limit_reached()) return;
  const double now = now_s();
  const std::size_t request = trace_->requests.size();
  // What the spec could not bound (a closed loop follows the device's speed) stops at the budget.
  if (request >= static_cast<std::size_t>(kMaxServingRequests))
    throw UserError(fmt::format(
        "{}: workload.serving.tenants[{}].arrivals: the run reached {:g} million requests at {:g} simulated "
        "seconds, the most a serving run keeps in memory (docs/serving.md); expected fewer clients, a lower rate or "
        "a shorter duration_s",
        spec_.config_file, tenant, static_cast<double>(kMaxServingRequests) * 1e-6, now));
  trace_->requests.push_back({static_cast<std::uint32_t>(tenant), now, now, -1, -1, 0});
  ++issued_;
  if (const auto next = t.arrivals->after_arrival_s(now, rng_))
    schedule_arrival(tenant, *next);
  else if (!t.arrivals->closed_loop())
    close_arrivals(tenant);  // a trace ran out
  const auto& host = spec_.tenants[tenant].host;
  if (host && host->stage == HostStage::Stage::request)
    host_start(tenant, request);
  else
    ready(tenant, request);
  // The last request joins its queue before the tenants close (closing lets partial batches go).
  if (limit_reached())
    for (std::size_t i = 0; i < tenants_.size(); ++i) close_arrivals(i);
}

void ServingRun::host_start(std::size_t tenant, std::size_t request) {
  TenantState& t = tenants_[tenant];
  const HostStage& host = *spec_.tenants[tenant].host;
  if (t.host_busy >= host.workers) {
    t.host_queue.push_back(request);
    return;
  }
  ++t.host_busy;
  at_s(now_s() + host.per_item_s, [this, tenant, request] {
    TenantState& state = tenants_[tenant];
    --state.host_busy;
    if (!state.host_queue.empty()) {
      const std::size_t next = state.host_queue.front();
      state.host_queue.pop_front();
      host_start(tenant, next);
    }
    ready(tenant, request);
  });
}

void ServingRun::ready(std::size_t tenant, std::size_t request) {
  trace_->requests[request].ready_s = now_s();
  tenants_[tenant].queue.push_back(request);
  dispatch(tenant);
}

// --- dispatch ------------------------------------------------------------------------------------

void ServingRun::wake(std::size_t tenant, double time_s) {
  TenantState& t = tenants_[tenant];
  if (t.pending_wake_s <= time_s && t.pending_wake_s > now_s()) return;  // an earlier wake will ask again
  t.pending_wake_s = time_s;
  at_s(time_s, [this, tenant, time_s] {
    if (tenants_[tenant].pending_wake_s == time_s) tenants_[tenant].pending_wake_s = kNever;
    dispatch(tenant);
  });
}

void ServingRun::dispatch(std::size_t tenant) {
  TenantState& t = tenants_[tenant];
  while (t.free_instances > 0 && !t.queue.empty()) {
    if (now_s() + 1e-12 < hold_until_s_) {
      wake(tenant, hold_until_s_);
      return;
    }
    if (governor_ && tenant == spec_.governed_tenant) {
      maybe_act();
      if (now_s() + 1e-12 < hold_until_s_) continue;  // the clock is changing
    }
    // A wake-up's time came back from picoseconds a rounding error early: a picosecond of slack.
    const BatchQueueView view{t.queue.size(), trace_->requests[t.queue.front()].ready_s, now_s() + 1e-12, draining(t)};
    const BatchDecision decision = t.policy->decide(view);
    if (decision.take <= 0) {
      if (decision.wake_at_s) wake(tenant, *decision.wake_at_s);
      return;
    }
    start_batch(tenant, std::min<int>(decision.take, static_cast<int>(t.queue.size())));
  }
}

double ServingRun::clock_mhz() const {
  return clock_level() >= 0 ? spec_.clock_levels_mhz[static_cast<std::size_t>(clock_level())] : 0.0;
}

void ServingRun::start_batch(std::size_t tenant, int size) {
  TenantState& t = tenants_[tenant];
  const double now = now_s();
  std::vector<std::size_t> requests;
  for (int i = 0; i < size; ++i) {
    const std::size_t request = t.queue.front();
    t.queue.pop_front();
    trace_->requests[request].start_s = now;
    trace_->requests[request].batch = size;
    requests.push_back(request);
  }
  const auto instance = std::find(t.instance_busy.begin(), t.instance_busy.end(), 0) - t.instance_busy.begin();
  t.instance_busy[static_cast<std::size_t>(instance)] = 1;
  --t.free_instances;
  const std::size_t index = trace_->batches.size();
  trace_->batches.push_back(
      {static_cast<std::uint32_t>(tenant), static_cast<std::int32_t>(instance), size, now, -1, 0, 0});
  const auto& host = spec_.tenants[tenant].host;
  if (!host || host->stage != HostStage::Stage::batch) {
    launch(tenant, index, std::move(requests));
    return;
  }
  // The instance decodes its batch first, the device idle meanwhile: the board holds the idle draw
  // at the clock the pass will run at.
  if (running_.empty()) {
    idle_static_w_ = costs_.at(tenant, size, clock_level()).static_w;
    power_changed();
  }
  at_s(now + host->per_batch_s + size * host->per_item_s,
       [this, tenant, index, requests = std::move(requests)]() mutable { launch(tenant, index, std::move(requests)); });
}

void ServingRun::launch(std::size_t tenant, std::size_t batch_index, std::vector<std::size_t> requests) {
  track_busy();
  ServedBatch& record = trace_->batches[batch_index];
  RunningBatch batch;
  batch.cost = costs_.at(tenant, record.size, clock_level());
  idle_static_w_ = batch.cost.static_w;
  batch.requests = std::move(requests);
  batch.batch_index = batch_index;
  record.clock_mhz = batch.cost.clock_mhz;
  // The pass's latency came from whole picoseconds: rounding recovers them.
  const SharedResource::Work work{checked_ps(std::round(batch.cost.latency_s * 1e12), "a batch's latency"),
                                  batch.cost.device_share, batch.cost.dram_bytes, batch.cost.dynamic_w,
                                  tenant_priority_[tenant]};
  running_.push_back(std::move(batch));
  device_.start(work, [this, batch_index](TimePs, TimePs) { batch_done(batch_index); });
}

double ServingRun::board_w() const {
  if (running_.empty()) return idle_w_ + idle_static_w_;
  double static_w = 0;  // one chip: leakage once, at the clock it runs
  for (const RunningBatch& b : running_) static_w = std::max(static_w, b.cost.static_w);
  return idle_w_ + static_w + dynamic_w_;
}

void ServingRun::power_changed() {
  if (!running_.empty()) last_clock_mhz_ = running_.back().cost.clock_mhz;
  double clock = clock_level() >= 0 ? clock_mhz() : last_clock_mhz_;
  // A batch the power limit holds below the level runs at the clock it was held to (a time average
  // within half a MHz of the level is the level).
  if (!running_.empty() && last_clock_mhz_ < clock - 0.5) clock = last_clock_mhz_;
  board_.set(engine_.now(), board_w(), clock);
}

void ServingRun::track_busy() {
  const double now = now_s();
  if (!running_.empty()) busy_s_ += now - busy_since_s_;
  busy_since_s_ = now;
}

void ServingRun::batch_done(std::size_t batch_index) {
  track_busy();
  const double now = now_s();
  const auto it = std::find_if(running_.begin(), running_.end(),
                               [batch_index](const RunningBatch& b) { return b.batch_index == batch_index; });
  const RunningBatch batch = std::move(*it);
  running_.erase(it);
  ServedBatch& record = trace_->batches[batch.batch_index];
  record.end_s = now;
  // No reading since the governor last acted (or none yet): nothing to log. The paper's code waits
  // for one before it logs (a 1 s sleep); the server here does not stall for it.
  record.logged_power_w = !governor_ || governor_->period_s() <= 0 ? last_sample_w_
                          : window_max_w_ >= 0                     ? window_max_w_
                                                                   : kNoReading;
  last_completion_s_ = now;
  TenantState& t = tenants_[record.tenant];
  t.instance_busy[static_cast<std::size_t>(record.instance)] = 0;
  ++t.free_instances;
  double worst_s = 0;
  for (const std::size_t r : batch.requests) {
    ServedRequest& request = trace_->requests[r];
    request.end_s = now;
    worst_s = std::max(worst_s, request.latency_s());
    ++completed_;
    if (record.tenant == spec_.governed_tenant) latencies_since_action_.push_back(r);
    if (const auto next = t.arrivals->after_completion_s(now, rng_)) schedule_arrival(record.tenant, *next);
  }
  t.policy->on_batch_done(record.size, worst_s * 1e3, (now - record.start_s) * 1e3);
  power_changed();  // its leakage leaves with it
  dispatch(record.tenant);
}

// --- governor and sensor -------------------------------------------------------------------------

void ServingRun::apply(const ServingKnobs& knobs) {
  TenantState& t = tenants_[spec_.governed_tenant];
  t.policy->set_batch(knobs.batch);
  const bool clock_changed = knobs.clock_level != knobs_.clock_level;
  knobs_ = {t.policy->batch(), knobs.clock_level};
  if (clock_changed) {
    hold_until_s_ = std::max(hold_until_s_, now_s() + spec_.clock_change_s);
    power_changed();
  }
}

void ServingRun::maybe_act() {
  const double period = governor_->period_s();
  const double now = now_s();
  if (period <= 0 || now - last_action_s_ <= period || window_max_w_ < 0) return;
  GovernorReading reading;
  reading.now_s = now;
  reading.power_w = window_max_w_;
  reading.current = knobs_;
  reading.busy_share = std::clamp((busy_s_ - busy_at_action_s_) / (now - last_action_s_), 0.0, 1.0);
  if (!latencies_since_action_.empty()) {
    std::vector<double> ms;
    ms.reserve(latencies_since_action_.size());
    for (const std::size_t r : latencies_since_action_) ms.push_back(trace_->requests[r].latency_s() * 1e3);
    reading.latency_p99_ms = nearest_rank_percentile(ms, 0.99);
  }
  const ServingKnobs before = knobs_;
  const double before_mhz = clock_mhz();
  apply(governor_->decide(reading));
  trace_->actions.push_back({now, window_max_w_, before.batch, knobs_.batch, before_mhz, clock_mhz()});
  last_action_s_ = now;
  busy_at_action_s_ = busy_s_;
  window_max_w_ = -1;
  latencies_since_action_.clear();
}

bool ServingRun::finished() const {
  if (completed_ < issued_) return false;
  return std::all_of(tenants_.begin(), tenants_.end(), [](const TenantState& t) { return t.closed; });
}

void ServingRun::sense() {
  // The run goes on until its queues drain, which the spec cannot bound.
  if (trace_->sensor.size() >= static_cast<std::size_t>(kMaxSensorReadings))
    throw UserError(fmt::format(
        "{}: workload.serving.sensor_period_s: the run reached {:g} million power-sensor readings at {:g} simulated "
        "seconds (it lasts until its queues drain), the most a serving run keeps in memory (docs/serving.md); "
        "expected a longer sensor period or a shorter or lighter run",
        spec_.config_file, static_cast<double>(kMaxSensorReadings) * 1e-6, now_s()));
  const PowerSample reading =
      spec_.sensor_window_s
          ? board_.read_sensor(engine_.now(), checked_ps(*spec_.sensor_window_s * 1e12, "the sensor's window"))
          : board_.read_sensor(engine_.now());
  last_sample_w_ = reading.power_w;
  window_max_w_ = std::max(window_max_w_, reading.power_w);
  trace_->sensor.push_back(reading);
  if (!finished()) at_s(now_s() + spec_.sensor_period_s, [this] { sense(); });
}

// --- the run -------------------------------------------------------------------------------------

RunResult ServingRun::run() {
  const std::size_t n = spec_.tenants.size();
  tenants_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    TenantState& t = tenants_[i];
    t.arrivals = spec_.make_arrivals(i);
    t.policy = spec_.make_batching(i);
    t.free_instances = spec_.tenants[i].instances;
    t.instance_busy.assign(static_cast<std::size_t>(t.free_instances), 0);
    trace_->tenant_models.push_back(spec_.tenants[i].model);
  }

  GovernorContext context = spec_.governor_context();
  const std::size_t governed = spec_.governed_tenant;
  const int max_batch = context.max_batch;
  context.best_setting = [this, governed, max_batch](double cap_w,
                                                     std::optional<double> slo_ms) -> std::optional<ServingKnobs> {
    // Highest throughput whose average power keeps under the cap and whose batch takes at most
    // half the SLO (a request may wait one batch, then run in the next: Nexus, SOSP'19, sec. 6.1).
    std::optional<ServingKnobs> best;
    double best_rate = 0;
    const int levels = std::max<int>(1, static_cast<int>(spec_.clock_levels_mhz.size()));
    for (const int b : oracle_batches(max_batch))
      for (int c = 0; c < levels; ++c) {
        const int level = spec_.clock_levels_mhz.empty() ? -1 : c;
        const PassProfile& cost = costs_.at(governed, b, level);
        if (cost.power_w() > cap_w) continue;
        if (slo_ms && cost.latency_s * 1e3 > 0.5 * *slo_ms) continue;
        const double rate = b / cost.latency_s;
        if (rate > best_rate) best_rate = rate, best = ServingKnobs{b, level};
      }
    return best;
  };
  context.predicted_power_w = [this, governed](const ServingKnobs& knobs) {
    return costs_.at(governed, knobs.batch, knobs.clock_level).power_w();
  };
  governor_ = spec_.make_governor(context);
  if (governor_) {
    trace_->governor = spec_.governor->at("name", "").as<std::string>();
    trace_->power_cap_w = governor_->power_cap_w();
    knobs_ = governor_->initial();
    tenants_[governed].policy->set_batch(knobs_.batch);
    knobs_.batch = tenants_[governed].policy->batch();
  }
  const PassProfile& known = costs_.any();
  idle_w_ = known.idle_w;
  last_clock_mhz_ = known.clock_mhz;  // the device's clock before its first batch
  power_changed();

  for (std::size_t i = 0; i < n; ++i) {
    for (const double time_s : tenants_[i].arrivals->initial_s(rng_)) schedule_arrival(i, time_s);
    if (spec_.duration_s && tenants_[i].arrivals->closed_loop())
      at_s(*spec_.duration_s, [this, i] { close_arrivals(i); });
  }
  at_s(spec_.sensor_period_s, [this] { sense(); });
  engine_.run();
  track_busy();

  trace_->end_s = now_s();
  trace_->window_start_s = spec_.warmup_s;
  // A run of a number of requests is measured to its last completion (not to the sensor's next
  // reading, which would make its throughput the sensor period's).
  trace_->window_end_s = spec_.duration_s ? *spec_.duration_s : last_completion_s_;
  if (spec_.requests && spec_.warmup_s > 0 && spec_.warmup_s >= last_completion_s_) {
    const std::string message =
        fmt::format("expected a warm-up shorter than the run, whose {} requests were served by {:g} s, found {:g} s",
                    *spec_.requests, last_completion_s_, spec_.warmup_s);
    if (spec_.warmup) spec_.warmup->fail(message);
    throw UserError(spec_.config_file + ": workload.serving.warmup_s: " + message);
  }
  trace_->passes_simulated = costs_.passes_simulated();
  result_.makespan_ps = engine_.now();
  result_.power = board_.take_series(result_.makespan_ps);
  add_serving_metrics(result_, *trace_, experiment_);
  result_.serving = trace_;
  return std::move(result_);
}

}  // namespace

RunResult run_serving(const Experiment& experiment, WallDeadline deadline) {
  if (!experiment.serving) throw std::logic_error("run_serving: the experiment has no serving block");
  RunResult result = ServingRun(experiment, deadline).run();
  result.experiment = experiment.name;
  result.device_kind = experiment.device->kind();
  result.device = experiment.device->name();
  result.timing_model = experiment.device->timing_model();
  result.calibration = experiment.device->calibration();
  return result;
}

}  // namespace dse
