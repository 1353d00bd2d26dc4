#include "sim/run/device_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/graph_memory.h"
#include "sim/serving/serving_spec.h"

namespace dse {
namespace {

std::string gib(double bytes) { return fmt::format("{:.3g} GiB", bytes / 1073741824.0); }

// One model's share of the device's memory.
struct ModelNeed {
  std::string what;  // "llama2_7b at batch 256"
  GraphMemory memory;
  double copies = 1;  // instances, each with its own activations and caches

  double bytes() const { return memory.weight_bytes + copies * (memory.kv_cache_bytes + memory.activation_peak_bytes); }
  std::string breakdown() const {
    std::string text = fmt::format("{} of weights", gib(memory.weight_bytes));
    const std::string each = copies > 1 ? fmt::format(" ({} instances)", copies) : "";
    if (memory.kv_cache_bytes > 0) text += fmt::format(", {} of KV cache{}", gib(copies * memory.kv_cache_bytes), each);
    return text + fmt::format(", {} of activations at their peak{}", gib(copies * memory.activation_peak_bytes), each);
  }
};

}  // namespace

void check_device_memory(const Experiment& experiment, const ConfigNode& root) {
  const auto capacity = experiment.device->memory_bytes();
  if (!capacity) return;
  const ConfigNode* workload = root.peek("workload");
  const ConfigNode* models = workload ? workload->peek("models") : nullptr;
  const ConfigNode* serving = workload ? workload->peek("serving") : nullptr;
  if (!models) return;  // an experiment assembled in code

  std::vector<ModelNeed> needs;
  for (std::size_t i = 0; i < experiment.models.size(); ++i) {
    const ModelRequest& model = experiment.models[i];
    ModelNeed need{fmt::format("{} at batch {}", model.name, model.params.batch), graph_memory(*model.graph)};
    if (experiment.serving && i < experiment.serving->tenants.size()) {
      const ServingSpec& spec = *experiment.serving;
      const ServingTenantSpec& tenant = spec.tenants[i];
      // A governed tenant may be set to its batching's max_batch; the others form their own largest.
      const bool governed = spec.governor && spec.governed_tenant == i;
      const int largest = governed ? tenant.max_batch : tenant.largest_own_batch;
      if (model.model_file.empty()) {
        // Activations and caches grow with the batch; the weights do not.
        const double scale = static_cast<double>(largest) / std::max(1, model.params.batch);
        need.memory.kv_cache_bytes *= scale;
        need.memory.activation_peak_bytes *= scale;
        need.what = fmt::format("{} at batch {} (the largest its {})", model.name, largest,
                                governed ? "governor may set" : "batching forms");
      }
      need.copies = tenant.instances;
    }
    needs.push_back(need);
  }
  double total = 0;
  for (const ModelNeed& need : needs) total += need.bytes();
  if (total <= *capacity) return;

  const std::string device =
      fmt::format("{}'s {} ({:.0f} bytes)", experiment.device->name(), gib(*capacity), *capacity);
  const ConfigNode* at = models;
  std::string message;
  if (needs.size() == 1) {
    if (experiment.serving)
      at = &experiment.serving->tenants.front().batching;
    else if (const ConfigNode* entry = &models->items().front(); entry->is_map() && entry->peek("batch"))
      at = entry->peek("batch");
    else
      at = &models->items().front();
    message = fmt::format("expected a model that fits in {} of memory, found {} needs {} ({:.0f} bytes): {}", device,
                          needs.front().what, gib(total), total, needs.front().breakdown());
  } else {
    if (experiment.serving && serving && serving->is_map() && serving->peek("tenants")) at = serving->peek("tenants");
    message =
        fmt::format("expected models that fit in {} of memory together, found they need {} ({:.0f} bytes):", device,
                    gib(total), total);
    for (std::size_t i = 0; i < needs.size(); ++i)
      message += fmt::format("{} {} needs {} ({})", i == 0 ? "" : ";", needs[i].what, gib(needs[i].bytes()),
                             needs[i].breakdown());
  }
  throw DeviceMemoryError(at->mark(), at->path(), message);
}

}  // namespace dse
