#include "sim/runtime/sharing_rule.h"

#include <stdexcept>
#include <utility>

namespace dse {

std::shared_ptr<const SharingRule> make_sharing_rule(std::string_view name) {
  const auto* entry = SharingRegistry::instance().find(name);
  if (!entry) throw std::logic_error("sharing rule '" + std::string(name) + "' not registered");
  return entry->factory();
}

Sharing Sharing::automatic() { return {make_sharing_rule("leftover"), make_sharing_rule("proportional")}; }

Sharing read_sharing(const ConfigNode& block, const Sharing& automatic) {
  std::vector<std::string> names = SharingRegistry::instance().names();
  names.insert(names.begin(), "auto");
  const std::string name = block.param<std::string>("sharing").one_of(names, "a sharing rule").with_default("auto");
  if (name == "auto") return automatic;
  const auto rule = make_sharing_rule(name);
  return {rule, rule};
}

KeySpec sharing_key(std::string help) {
  return {"sharing", "string", "auto", "", std::move(help) + ": auto or a rule of dse list sharing", "proportional"};
}

void fit_to_dram_bandwidth(std::span<const ShareDemand> running, double dram_bytes_per_s, std::vector<double>& speeds) {
  double demand = 0;
  for (std::size_t i = 0; i < running.size(); ++i) demand += speeds[i] * running[i].dram_bytes / running[i].solo_s;
  const double capacity = std::max(dram_bytes_per_s, running.size() == 1 ? demand : 0.0);
  if (demand > capacity && demand > 0)
    for (double& speed : speeds) speed *= capacity / demand;
}

}  // namespace dse
