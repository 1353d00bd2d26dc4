// Governors: online controllers that move a serving GPU's batch size and SM clock while the
// simulation runs (the BatchDVFS controller, Clipper adapted to a power cap, DVFS alone, a static
// setting, and dse's model-based controller). One registry family; each governor is one file in
// sim/serving/governors/ and reads its own keys from the serving block's `governor:` node.
//
// How a governor sees the GPU, as the BatchDVFS paper's code does: a power sensor is read every
// ~0.1 s (nvidia-smi); before each batch, once more than `period_s` has passed since the governor
// last acted, it acts on the highest reading since then (GovernorReading), and the next batch runs
// with what it returns. The dead band of the power-cap controllers is
// band_low × cap <= power <= band_high × cap: inside it nothing changes.
//
// Contract: decide() is deterministic (no clock, no global RNG), so a replay of recorded readings
// (sim/serving/governor_replay.h) reproduces every decision; the knobs it returns stay within the
// context's batch range and clock levels.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/base/registry.h"
#include "sim/config/config_node.h"

namespace dse {

// What a governor sets: the batch size of the next batches and the SM application clock, as an
// index into GovernorContext::clock_levels_mhz (-1 where the device has no clock levels).
struct ServingKnobs {
  int batch = 1;
  int clock_level = -1;
  bool operator==(const ServingKnobs&) const = default;
};

// What a governor knows when it acts.
struct GovernorReading {
  double now_s = 0;
  double power_w = 0;  // the highest sensor reading since the governor last acted
  // Latency of the requests completed since it last acted (for SLO-aware governors); empty if none.
  std::optional<double> latency_p99_ms;
  // Share of the time since it last acted in which the GPU ran a batch (1 where unknown, as in a
  // replay of a backlog): readings of a part-loaded GPU average its idle gaps in.
  double busy_share = 1;
  ServingKnobs current;
};

// The best (batch, clock) a model predicts under a power cap and an SLO (the model-based governor
// asks the serving simulation's own batch-cost table); nullopt when nothing fits.
using OperatingPointOracle = std::function<std::optional<ServingKnobs>(double cap_w, std::optional<double> slo_ms)>;
// The model's predicted average power at a setting, W (for the model-based governor's feedback).
using PowerOracle = std::function<double(const ServingKnobs&)>;

// What the serving run gives every governor: the knobs' ranges, the SLO, and the model.
struct GovernorContext {
  int max_batch = 256;                   // batch sizes 1 .. max_batch
  std::vector<double> clock_levels_mhz;  // ascending; empty: the device has no clock knob
  int default_clock_level = -1;          // the level the GPU starts at (its highest where none given)
  std::optional<double> slo_ms;          // the served tenant's latency SLO
  OperatingPointOracle best_setting;     // may be empty (replay): governors that need it say so
  PowerOracle predicted_power_w;
};

class Governor {
 public:
  static constexpr const char* family_name = "governor";
  static constexpr const char* family_description =
      "Online controllers of a serving device's batch size and clock level (workload.serving.governor.name)";
  // `params` is the governor block ({name, power_cap_w, period_s, and the governor's own keys}).
  using Factory = std::function<std::unique_ptr<Governor>(const ConfigNode& params, const GovernorContext& context)>;

  virtual ~Governor() = default;
  virtual ServingKnobs initial() const = 0;
  virtual ServingKnobs decide(const GovernorReading& reading) = 0;
  // Seconds between actions (0: it never acts after the start).
  virtual double period_s() const = 0;
  // The power cap it holds to, W (none for governors without one).
  virtual std::optional<double> power_cap_w() const = 0;
  // The governor's inner state beside the knobs, by name (BatchDVFS's batch-search bounds), for
  // replay and the result file; empty for stateless governors.
  virtual std::vector<std::pair<std::string, int>> search_state() const { return {}; }
  // Takes `knobs` (and the named inner state, where it keeps one) as its current state: a replay
  // resynchronises with a recorded run after a decision it did not reproduce.
  virtual void adopt(const ServingKnobs& knobs, const std::vector<std::pair<std::string, int>>& state) = 0;
  // A copy with the same state (a replay follows two timing hypotheses at once).
  virtual std::unique_ptr<Governor> clone() const = 0;
};

using GovernorRegistry = Registry<Governor>;

// The keys every power-cap governor shares, read from its block: power_cap_w (required), period_s
// (default 3, the paper's), band_low (0.8) and band_high (1.0).
struct PowerCapSettings {
  static std::vector<KeySpec> declared_keys();
  double cap_w = 0;
  double period_s = 3;
  double band_low = 0.8;
  double band_high = 1.0;
  static PowerCapSettings read(const ConfigNode& params);
  // -1 below the band, 0 inside it, +1 above the cap.
  int side(double power_w) const;
};

// The declarations of the keys the helpers below read (for a governor's declared_keys()).
KeySpec clock_level_key(std::string name, std::string help);
KeySpec initial_batch_key(std::string default_text);

// A clock level given in MHz under `key` (one of the levels), or the context's default if absent.
int read_clock_level(const ConfigNode& params, std::string_view key, const GovernorContext& context);
// The initial batch: `initial_batch` within 1 .. max_batch, default `fallback`.
int read_initial_batch(const ConfigNode& params, const GovernorContext& context, int fallback);
// A UserError at `params` when the device has no clock levels and the governor needs them.
void require_clock_levels(const ConfigNode& params, const GovernorContext& context, const std::string& governor);

// Makes the governor `params` names (name one of the registry's).
std::unique_ptr<Governor> make_governor(const ConfigNode& params, const GovernorContext& context);

}  // namespace dse
