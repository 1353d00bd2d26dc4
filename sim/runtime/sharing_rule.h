// How concurrent work shares one device, as a registered family (`dse list sharing`): given what
// each running work fills of the device alone and the DRAM bytes it moves, the speed of each as a
// fraction of its solo speed. Overlapping kernels on a GPU, overlapping batches of a serving run and
// the overlapping timed loops of the simulated calibration backend all run through
// sim/runtime/shared_resource.h under the rule the device block's `sharing` key names (the
// simulated backend's block has its own key), or under `auto`, the default (Sharing below).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/base/registry.h"
#include "sim/config/config_node.h"

namespace dse {

// What one running work asks of the device.
struct ShareDemand {
  double share = 1;       // share of the device's slots it fills alone, in (0, 1]
  double dram_bytes = 0;  // DRAM bytes it moves over its solo time
  double solo_s = 0;      // its duration alone, seconds
  int priority = 0;       // higher goes first
};

class SharingRule {
 public:
  static constexpr const char* family_name = "sharing";
  static constexpr const char* family_description =
      "How concurrent work shares a device: kernels on a GPU, serving batches, calibration loops (device.sharing; "
      "auto, the default: leftover between kernels, proportional between whole passes)";
  using Factory = std::function<std::unique_ptr<SharingRule>()>;

  virtual ~SharingRule() = default;
  // `running` is in priority order (highest first), then in the order the works started;
  // `speeds` receives one speed in [0, 1] per work. Returns the share of the device's slots the
  // works hold (their occupancy). A work alone always runs at speed 1.
  virtual double grant(std::span<const ShareDemand> running, double dram_bytes_per_s,
                       std::vector<double>& speeds) const = 0;
};

using SharingRegistry = Registry<SharingRule>;

// The registered rule `name` (a logic_error for an unregistered one: configs are read with
// read_sharing).
std::shared_ptr<const SharingRule> make_sharing_rule(std::string_view name);

// The rules a device shares by: between single kernels, and between whole passes (a serving batch,
// a calibration worker's timed loop: each a stream of kernels). A configured rule is both. `auto`,
// the default, is `leftover` between kernels (the GPU dispatches an earlier kernel's blocks first)
// and `proportional` between passes: the kernels of two concurrent passes take turns at being
// first, and two passes simulated kernel by kernel under `leftover` finish as proportional sharing
// of their time-averaged shares predicts (docs/multitenant.md, "How passes share a GPU").
struct Sharing {
  std::shared_ptr<const SharingRule> kernels;
  std::shared_ptr<const SharingRule> passes;
  static Sharing automatic();
};
// What `block.sharing` names: `auto` (also when absent: `automatic`, the device kind's own) or a
// registered rule; anything else is a ConfigError listing them. sharing_key declares it (KeySpec)
// with the reader's own help.
Sharing read_sharing(const ConfigNode& block, const Sharing& automatic = Sharing::automatic());
KeySpec sharing_key(std::string help);

// Every work's speed scaled down together until their DRAM traffic fits `dram_bytes_per_s` (a
// work alone never exceeds it: its solo time already includes its own traffic).
void fit_to_dram_bandwidth(std::span<const ShareDemand> running, double dram_bytes_per_s, std::vector<double>& speeds);

}  // namespace dse
