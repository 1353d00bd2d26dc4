#include "sim/serving/batching.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dse {
namespace {

constexpr int kMaxBatch = 65536;

// `max_batch`, 1 .. 65536; required where `fallback` is none.
int read_max_batch(const ConfigNode& params, std::optional<int> fallback) {
  auto read = params.param<int>("max_batch").in_range(1, kMaxBatch);
  return fallback ? read.with_default(*fallback) : read.required();
}

KeySpec max_batch_key(std::string default_text, std::string help) {
  return {"max_batch", "integer", std::move(default_text), "", std::move(help) + " (1 to 65,536)", "32"};
}

class FixedBatch final : public BatchingPolicy {
 public:
  FixedBatch(const ConfigNode& params, std::optional<double>) : BatchingPolicy(read_max_batch(params, 256), 1) {
    batch_ = params.param<int>("batch").in_range(1, max_batch_).required();
  }
  static std::vector<KeySpec> declared_keys() {
    return {max_batch_key("256", "the largest batch a governor may set"),
            {"batch", "integer", "required", "", "requests per batch (at most max_batch)", "8"}};
  }
  BatchDecision decide(const BatchQueueView& queue) override {
    if (queue.queued >= static_cast<std::size_t>(batch_)) return {batch_, std::nullopt};
    if (queue.draining && queue.queued > 0) return {static_cast<int>(queue.queued), std::nullopt};
    return {};
  }
  int largest_own_batch() const override { return batch_; }
};

// Triton's dynamic batcher (docs: "Dynamic Batcher", model_configuration.md): a batch of
// max_batch goes at once; else the largest preferred size that is queued goes at once; else the
// queue is held until its oldest request has waited max_queue_delay_ms, then what is there goes.
class DynamicBatch final : public BatchingPolicy {
 public:
  DynamicBatch(const ConfigNode& params, std::optional<double>)
      : BatchingPolicy(read_max_batch(params, std::nullopt), kMaxBatch),
        delay_s_(params.param<double>("max_queue_delay_ms").in_range(0, 3.6e6).with_default(0) * 1e-3) {
    if (const ConfigNode* preferred = params.find("preferred")) {
      for (const auto& item : preferred->items()) {
        const int size = item.as<int>();
        if (size < 1 || size > max_batch_)
          item.fail(
              fmt::format("expected a preferred batch size from 1 to max_batch ({}), found {}", max_batch_, size));
        preferred_.push_back(size);
      }
      std::sort(preferred_.begin(), preferred_.end());
    }
  }
  static std::vector<KeySpec> declared_keys() {
    return {max_batch_key("required", "a batch of this many goes at once"),
            {"max_queue_delay_ms", "number", "0", "ms", "the longest the oldest request waits for a larger batch", "2"},
            {"preferred", "list of integers", "none", "", "batch sizes that go at once when queued (at most max_batch)",
             "[8, 16]"}};
  }
  BatchDecision decide(const BatchQueueView& queue) override {
    if (queue.queued == 0) return {};
    // batch_ is max_batch unless a governor lowered it.
    const int available = static_cast<int>(std::min<std::size_t>(queue.queued, batch_));
    if (available == batch_) return {batch_, std::nullopt};
    for (auto it = preferred_.rbegin(); it != preferred_.rend(); ++it)
      if (*it <= available) return {*it, std::nullopt};
    const double due_s = queue.oldest_arrival_s + delay_s_;
    if (queue.draining || queue.now_s >= due_s) return {available, std::nullopt};
    return {0, due_s};
  }

 private:
  double delay_s_;
  std::vector<int> preferred_;
};

// Clipper's adaptive batching (Crankshaw et al., NSDI'17, section 4.3.1): the largest batch grows
// additively while batches meet the latency objective and shrinks by a factor when one misses it.
// The step is 4 and the factor 0.9 as the BatchDVFS paper's Clipper baseline uses them (Clipper's
// paper gives 10 % back-off and leaves the step open).
class AimdBatch final : public BatchingPolicy {
 public:
  AimdBatch(const ConfigNode& params, std::optional<double> slo_ms)
      : BatchingPolicy(read_max_batch(params, 256), 1),
        step_(params.param<int>("step").in_range(1, kMaxBatch).with_default(4)),
        backoff_(params.param<double>("backoff").in_range(0.01, 0.999).with_default(0.9)) {
    batch_ = params.param<int>("initial_batch").in_range(1, max_batch_).with_default(1);
    const auto own = params.param<double>("slo_ms").in_range(1e-3, 3.6e6).optional();
    if (!own && !slo_ms) params.fail("expected slo_ms here or on the tenant: aimd batching grows batches up to an SLO");
    slo_ms_ = own ? *own : *slo_ms;
  }
  static std::vector<KeySpec> declared_keys() {
    return {max_batch_key("256", "the largest batch it grows to"),
            {"step", "integer", "4", "", "the batch grows by this after a batch that met the SLO", "2"},
            {"backoff", "number", "0.9", "", "the batch is multiplied by this after one that missed it", "0.8"},
            {"initial_batch", "integer", "1", "", "the batch it starts at", "4"},
            {"slo_ms", "number", "the tenant's slo_ms", "ms", "the latency a batch's requests must meet", "20"}};
  }
  BatchDecision decide(const BatchQueueView& queue) override {
    if (queue.queued == 0) return {};
    return {static_cast<int>(std::min<std::size_t>(queue.queued, batch_)), std::nullopt};
  }
  void on_batch_done(int, double worst_latency_ms, double) override {
    if (worst_latency_ms > slo_ms_)
      batch_ = std::max(1, static_cast<int>(std::floor(backoff_ * batch_)));
    else
      batch_ = std::min(max_batch_, batch_ + step_);
  }

 private:
  int step_;
  double backoff_;
  double slo_ms_ = 0;
};

}  // namespace

std::unique_ptr<BatchingPolicy> make_batching(const ConfigNode& params, std::optional<double> slo_ms) {
  params.expect_map("batching: {name: fixed|dynamic|aimd, ...}");
  const std::string name =
      params.param<std::string>("name").one_of(BatchingRegistry::instance().names(), "a batching policy").required();
  return BatchingRegistry::instance().find(name)->factory(params, slo_ms);
}

DSE_REGISTER_KEYED(BatchingPolicy, FixedBatch, "fixed",
                   "Batches of exactly `batch` requests (max_batch bounds a governor)")
DSE_REGISTER_KEYED(BatchingPolicy, DynamicBatch, "dynamic",
                   "Triton's dynamic batcher: max_batch, preferred sizes, max_queue_delay_ms")
DSE_REGISTER_KEYED(BatchingPolicy, AimdBatch, "aimd",
                   "Clipper's adaptive batching: +step while batches meet the SLO, x backoff when one misses it")

}  // namespace dse
