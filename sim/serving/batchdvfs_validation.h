// One of the BatchDVFS paper's recorded P40 runs (tests/data/batchdvfs) simulated end to end, for
// `dse validate batchdvfs`: the same model (fp32), controller, cap and length on dse's P40, in the
// paper's setting (BatchDvfsPipeline), with what the run logged beside what dse's run logs.
//
// The file's name gives the model and the controller (NN_MODEL_CONTROLLER.csv: BatchDVFS, Clipper,
// DVFS), its rows the cap and, for DVFS-only, the fixed batch. Both sides are summarised alike
// (BatchDvfsRunStats) from the controller's first action on, over the same length: the recorded
// run after its first row (TensorFlow's warm-up call of 4-16 s, longer than the 3 s period, so the
// controller first acts before the second row), the simulation after its governor's first action.
//
// Contract: UserError naming the file for a name or a file that is not a recorded run; a model
// dse's zoo lacks (Inception v2, NASNet, PNASNet) is not simulated: `skipped` says why.
#pragma once

#include <map>
#include <string>

namespace dse {

// The paper's pipeline, as dse simulates it (docs/batch_dvfs.md, "The paper's pipeline").
struct BatchDvfsPipeline {
  // Each session call decodes and resizes its batch on the host, then runs the pass: a + h x B
  // before the pass, fitted on the recorded runs (scripts/batchdvfs_pipeline_fit.py: 13 models,
  // 414 groups of steady calls, MAPE 3.5 %).
  double host_per_batch_ms = 44.1;
  double host_per_image_ms = 11.86;
  // nvidia-smi's power.draw read every 0.1 s; on the P40 a reading is nearly instantaneous: a boxcar
  // of 20-30 ms fits the bimodal readings of the batch-1 runs (the analysis of issue 50).
  double sensor_period_s = 0.1;
  double sensor_window_s = 0.03;
  // Each clock change stalls the loop 0.22-0.38 s outside the session call (median 0.24-0.27 s).
  double clock_change_ms = 250;
};

// What a run shows, recorded or simulated alike.
// The logged power is the highest reading since the controller last acted; a simulated batch that
// ended before any reading since then logs none and is left out of the first two (NaN if all are).
struct BatchDvfsRunStats {
  double power_mean_w = 0;    // mean over batches of the logged power
  double over_cap_share = 0;  // share of batches whose logged power is over the cap
  double batch_mean = 0;      // mean batch size
  double images_per_s = 0;    // images / wall time, gaps between calls included (not the log's Througput column)
  std::map<int, double> clock_time_share;  // SM clock, MHz -> share of the time between batch ends spent at it
};

// A recorded run, read.
struct BatchDvfsRecordedRun {
  std::string file;
  std::string run;          // the file's name without folder and extension
  std::string paper_model;  // as the paper names it: ResNetV2_50
  std::string model;        // dse's zoo name; "" where the zoo lacks it
  std::string skipped;      // why it is not simulated ("" when it is)
  std::string controller;   // dse's governor: batch_dvfs, clipper_power, dvfs_only
  double power_cap_w = 0;
  int fixed_batch = 0;    // dvfs_only: the batch every row ran (the most frequent); 0 otherwise
  double duration_s = 0;  // from the first row's time stamp to the last's: the span compared
  BatchDvfsRunStats recorded;
};

struct BatchDvfsValidation {
  BatchDvfsRecordedRun run;
  BatchDvfsRunStats simulated;  // empty when run.skipped is set
};

// Reads `csv_path` (UserError naming it when it is not a recorded run).
BatchDvfsRecordedRun read_batchdvfs_run(const std::string& csv_path);
// The experiment that simulates `run` (a dse config: `dse run` takes it as it is).
std::string batchdvfs_experiment_yaml(const BatchDvfsRecordedRun& run, const BatchDvfsPipeline& pipeline);
// Reads the run and, unless skipped, simulates it.
BatchDvfsValidation validate_batchdvfs_run(const std::string& csv_path, const BatchDvfsPipeline& pipeline = {});

}  // namespace dse
