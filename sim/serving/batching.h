// Batching policies of a serving tenant, a registry family (`batching: {name: dynamic, ...}`):
//   fixed    batches of exactly `batch` requests (the last one of a run cut to what is left)
//   dynamic  Triton's dynamic batcher: max_batch, preferred sizes, max_queue_delay_ms
//   aimd     Clipper's adaptive batching for a latency SLO: +step while a batch meets it, x backoff when not
// A policy is asked whenever a model instance is free and requests wait; it answers how many to
// take now, or until when to wait (a new arrival also asks again).
//
// A governor that moves the batch size sets it through set_batch(): the fixed size, or the
// largest batch of the others.
//
// Contract: one policy per tenant of one serving run (one thread); decide() never takes more than
// are queued nor more than max_batch().
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "models/base/registry.h"
#include "sim/config/config_node.h"

namespace dse {

struct BatchDecision {
  int take = 0;                     // > 0: dispatch this many of the oldest requests now
  std::optional<double> wake_at_s;  // take == 0: ask again then (and at the next arrival)
};

struct BatchQueueView {
  std::size_t queued = 0;       // requests waiting
  double oldest_arrival_s = 0;  // when the oldest of them became ready
  double now_s = 0;
  bool draining = false;  // no request will arrive any more: take what is there
};

class BatchingPolicy {
 public:
  static constexpr const char* family_name = "batching";
  static constexpr const char* family_description =
      "Batching policies of a serving tenant (workload.serving.tenants[i].batching.name)";
  // `params` is the batching block; `slo_ms` the tenant's SLO (aimd needs one).
  using Factory =
      std::function<std::unique_ptr<BatchingPolicy>(const ConfigNode& params, std::optional<double> slo_ms)>;

  virtual ~BatchingPolicy() = default;
  virtual BatchDecision decide(const BatchQueueView& queue) = 0;
  // A batch of `size` finished: its requests waited and ran for at most `worst_latency_ms`, of
  // which `service_ms` on the GPU.
  virtual void on_batch_done(int size, double worst_latency_ms, double service_ms) {
    (void)size, (void)worst_latency_ms, (void)service_ms;
  }
  // The batch size a governor sets (clamped to 1 .. max_batch()): the fixed size, or the largest
  // batch the others form.
  void set_batch(int batch) { batch_ = std::clamp(batch, 1, max_batch_); }
  int batch() const { return batch_; }
  // The largest batch it can ever form.
  int max_batch() const { return max_batch_; }
  // The largest it forms while no governor sets its batch (a fixed size; the others grow to max_batch).
  virtual int largest_own_batch() const { return max_batch_; }

 protected:
  BatchingPolicy(int max_batch, int batch) : max_batch_(max_batch), batch_(std::clamp(batch, 1, max_batch)) {}
  int max_batch_;
  int batch_;
};

using BatchingRegistry = Registry<BatchingPolicy>;

std::unique_ptr<BatchingPolicy> make_batching(const ConfigNode& params, std::optional<double> slo_ms);

}  // namespace dse
