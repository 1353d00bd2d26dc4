#include "hwcal/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "hwcal/measure/session_journal.h"
#include "hwcal/measure/suite.h"
#include "models/base/errors.h"
#include "sim/config/config_loader.h"
#include "sim/config/embedded_files.h"
#include "sim/config/hardware_catalog.h"
#include "sim/config/overrides.h"
#include "sim/output/atomic_file.h"
#include "sim/output/build_info.h"

namespace dse {
namespace {

MeasureSettings read_measure(const ConfigNode* node) {
  MeasureSettings m;
  if (!node) return m;
  node->expect_map("the measurement discipline: warmup, repeat, min_repeat_ms, timeout_s");
  m.warmup = node->param<int>("warmup").in_range(0, 1000).with_default(m.warmup);
  m.repeat = node->param<int>("repeat").in_range(1, 1000).with_default(m.repeat);
  m.min_repeat_ms = node->param<double>("min_repeat_ms").in_range(0, 1e5).with_default(m.min_repeat_ms);
  m.timeout_s = node->param<double>("timeout_s").in_range(0.01, 1e5).with_default(m.timeout_s);
  m.exclusive_timing =
      node->param<std::string>("timing").one_of({"shared", "exclusive"}, "a timing mode").with_default("shared") ==
      "exclusive";
  return m;
}

ParallelSettings read_parallel(const ConfigNode* node) {
  ParallelSettings p;
  if (!node) return p;
  node->expect_map("the parallel measurement: adaptive, dop, beta, error_threshold, ... (docs/calibration.md)");
  p.adaptive = node->param<bool>("adaptive").with_default(p.adaptive);
  p.dop = node->param<int>("dop").in_range(1, 4096).with_default(p.dop);
  p.beta = node->param<double>("beta").in_range(0.01, 0.99).with_default(p.beta);
  p.error_threshold = node->param<double>("error_threshold").in_range(0, 10).with_default(p.error_threshold);
  p.failure_threshold = node->param<double>("failure_threshold").in_range(0, 1).with_default(p.failure_threshold);
  if (const ConfigNode* increment = node->find("increment")) {
    const auto items = increment->items();
    if (items.size() != 2) increment->fail("expected [smallest, largest] increments");
    p.increment_min = items[0].as<int>();
    p.increment_max = items[1].as<int>();
    if (p.increment_min < 1 || p.increment_max < p.increment_min)
      increment->fail(
          fmt::format("expected 1 <= smallest <= largest, found [{}, {}]", p.increment_min, p.increment_max));
  }
  p.ceiling = node->param<int>("ceiling").in_range(1, 4096).with_default(p.ceiling);
  p.remeasure_share = node->param<double>("remeasure_share").in_range(0, 1).with_default(p.remeasure_share);
  p.outlier_z = node->param<double>("outlier_z").in_range(0.1, 100).with_default(p.outlier_z);
  p.bias_limit = node->param<double>("bias_limit").in_range(0, 1).with_default(p.bias_limit);
  p.isolate_top_share = node->param<double>("isolate_top_share").in_range(0, 1).with_default(p.isolate_top_share);
  const std::string packing =
      node->param<std::string>("packing").one_of({"none", "model"}, "a packing").with_default("none");
  p.model_packing = packing == "model";
  return p;
}

SessionFitOptions read_fit(const ConfigNode* node) {
  SessionFitOptions f;
  if (!node) return f;
  node->expect_map("the fit: holdout_share, prior_sigma, prior_rows");
  f.holdout_share = node->param<double>("holdout_share").in_range(0, 0.9).with_default(f.holdout_share);
  f.prior_sigma = node->param<double>("prior_sigma").in_range(0.001, 100).with_default(f.prior_sigma);
  f.prior_rows = node->param<double>("prior_rows").in_range(0, 1e6).with_default(f.prior_rows);
  return f;
}

// min, mean, max of what the samples saw (empty without samples).
std::vector<double> spread(const std::vector<double>& values) {
  if (values.empty()) return {};
  double sum = 0;
  for (const double v : values) sum += v;
  return {*std::min_element(values.begin(), values.end()), sum / static_cast<double>(values.size()),
          *std::max_element(values.begin(), values.end())};
}

std::string journal_path(const std::string& output) {
  const std::filesystem::path path(output);
  return (path.parent_path() / path.stem()).string() + ".journal.jsonl";
}

}  // namespace

CalibrateOutcome calibrate(const CalibrateOptions& options) {
  const std::string file = options.session_file.empty()
                               ? std::string(kEmbeddedPrefix) + "configs/calibration/session.yaml"
                               : options.session_file;
  ConfigNode root = load_config_file(file);
  if (!options.backend.empty()) {
    const ConfigNode* block = root.is_map() ? root.peek("backend") : nullptr;
    const ConfigNode* name = block && block->is_map() ? block->peek("name") : nullptr;
    if (!name || !name->is_scalar() || name->text() != options.backend)
      apply_overrides(root, {"backend={name: " + options.backend + "}"});
  }
  apply_overrides(root, options.overrides);
  root.expect_map("a calibration session: name, gpu, backend, kernels, measure, parallel, fit, output");
  CalibrateOutcome out;
  out.name = root.param<std::string>("name").with_default("calibration");
  const ConfigNode& gpu_node = root.at("gpu", "the GPU spec the calibration is for, e.g. h200");
  const std::string spec_file = find_hardware_spec_file(gpu_node, "gpu", "GPU spec", file);
  const GpuSpec spec = read_gpu_spec(load_config_file(spec_file));
  const ConfigNode& backend_node = root.at("backend", "{name: simulated | cuda, ...}");
  backend_node.expect_map("the backend: {name, and its own keys}");
  const std::string backend_name = backend_node.param<std::string>("name")
                                       .one_of(MeasurementBackendRegistry::instance().names(), "a calibration backend")
                                       .required();
  std::unique_ptr<MeasurementBackend> backend =
      MeasurementBackendRegistry::instance().find(backend_name)->factory(backend_node, spec);
  // (Not `kernels ? *kernels : map()`: the conditional would copy the node, and the keys read would
  // be marked on the copy.)
  const ConfigNode empty = ConfigNode::map(root.mark());
  const ConfigNode* kernels = root.find("kernels");
  const std::vector<Candidate> candidates = read_kernel_suite(kernels ? *kernels : empty, spec.name);
  backend->check_candidates(candidates);
  SessionSettings settings;
  settings.measure = read_measure(root.find("measure"));
  settings.parallel = read_parallel(root.find("parallel"));
  settings.serial_reference = root.param<bool>("serial_reference").with_default(false);
  settings.seed = static_cast<std::uint64_t>(root.param<std::int64_t>("seed").in_range(0, INT64_MAX).with_default(1));
  const SessionFitOptions fit = read_fit(root.find("fit"));
  out.output = root.param<std::string>("output").with_default(
      fmt::format("results/calibration/{}_{}.yaml", spec.name, backend_name));
  root.check_unknown_keys();

  // The outputs can be written before anything is measured; the journal locks the output.
  AtomicFile result(out.output);
  result.check_writable();
  out.journal = journal_path(out.output);
  AtomicFile(out.journal).check_writable();  // as the search's journal: a symlink there is refused
  out.candidates = candidates.size();
  JsonLinesJournal journal(out.journal, session_journal_header(candidates, settings), options.start,
                           {"calibration session", "measurement"}, check_session_record);
  const KernelTimer model(spec, KernelCalibration{});
  out.session = run_session(*backend, candidates, settings, model, &journal, options.progress);

  // The rows the fit and the checks use: every kernel measured, as the session valued it.
  CalibrationSession s;
  s.gpu = spec.name;
  s.device = out.session.device.name;
  s.driver = out.session.device.driver;
  s.cuda = out.session.device.cuda;
  s.backend = backend_name;
  s.date_utc = utc_now();
  s.idle_w = out.session.idle_w;
  std::vector<double> clocks, powers;
  for (const auto& sample : out.session.samples) {
    clocks.push_back(sample.clock_mhz);
    powers.push_back(sample.power_w);
  }
  s.clocks_seen_mhz = spread(clocks);
  s.power_seen_w = spread(powers);
  s.wall_s = out.session.wall_s;
  s.serial_estimate_s = out.session.serial_estimate_s;
  s.speedup_vs_serial = out.session.speedup_vs_serial;
  s.error_vs_serial_pct = out.session.error_vs_serial_pct;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    const CandidateResult& r = out.session.results[i];
    if (r.status != MeasureStatus::ok) {
      s.failed.push_back({c.name, kMeasureStatusNames.name(r.status), r.message});
      continue;
    }
    if (c.paired) {
      s.pairs.push_back({c.op, *c.paired, r.latency_ms});
      continue;
    }
    CalibrationRow row{c.op, false, c.models, c.occurrences};
    row.op.latency_ms = r.latency_ms;
    row.op.power_w = r.power_w;
    s.rows.push_back(std::move(row));
  }
  out.file.parameters = fit_session(s.rows, spec, fit);
  out.file.fitted_on = {spec.name};
  out.file.source = fmt::format("dse calibrate {} ({} backend, {} kernels)", file, backend_name, candidates.size());
  out.file.session = std::move(s);
  result.write(calibration_file_yaml(out.file));
  result.commit();
  // Checked as written (its numbers rounded as the file holds them), as `dse calibration validate` does.
  out.check = check_calibration(read_calibration_file(out.output), spec);
  return out;
}

}  // namespace dse
