// Calibration sessions (hwcal/measure/session.h, hwcal/calibrate.h) on the simulated backend and on
// a scripted one: the DOPpler controller, outliers, failures, resume, the fit and the file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "hwcal/calibrate.h"
#include "hwcal/measure/session_journal.h"
#include "hwcal/measure/suite.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"

namespace dse {
namespace {

namespace fs = std::filesystem;

GpuSpec spec_of(const std::string& name) {
  return read_gpu_spec(load_config_file("embedded:configs/hardware/gpu/" + name + ".yaml"));
}

std::vector<Candidate> suite(const std::string& yaml) {
  return read_kernel_suite(load_config_text(yaml, "kernels.yaml"), "t");
}

// Small vector kernels only: each fills a sliver of the GPU, so measuring many at once is exact
// unless interference is injected.
const char* kSmallKernels =
    "{dtypes: [fp16], gemm_sizes: [], models: [], vector_ops: [add, relu, reduce, ln, softmax], "
    "vector_rows: [8, 16, 24, 32, 48, 64], vector_cols: [64, 128, 256, 512], launch: false, pairs: 0}";

std::unique_ptr<MeasurementBackend> simulated(const std::string& keys, const GpuSpec& spec) {
  const ConfigNode block = load_config_text("{name: simulated, " + keys + "}", "backend.yaml");
  return MeasurementBackendRegistry::instance().find("simulated")->factory(block, spec);
}

int largest_dop(const SessionResult& r) {
  int dop = 0;
  for (const auto& chunk : r.chunks) dop = std::max(dop, chunk.dop);
  return dop;
}

// A backend whose measurements the test scripts: every candidate takes 1 ms alone; `inflated`
// ones measure 3x at once; candidates measured are counted; `stop_after` chunks, it throws (a kill).
class ScriptedBackend final : public MeasurementBackend {
 public:
  std::map<std::string, int> measured;  // alone or at once
  std::set<std::string> inflated;
  int chunks = 0, stop_after = -1;
  DeviceInfo device() const override { return {"scripted", "", ""}; }
  std::vector<PowerSample> samples() override { return {}; }
  std::optional<double> idle_power_w() override { return std::nullopt; }
  ChunkResult measure(const std::vector<const Candidate*>& chunk, const MeasureSettings&) override {
    if (chunks++ == stop_after) throw std::runtime_error("killed");
    ChunkResult r;
    for (const Candidate* c : chunk) {
      ++measured[c->name];
      Measurement m;
      m.latency_ms = chunk.size() > 1 && inflated.contains(c->name) ? 3.0 : 1.0;
      m.repeats_ms = {m.latency_ms};
      m.device_s = 0.1;
      r.measurements.push_back(m);
    }
    r.wall_s = 0.1;
    return r;
  }
};

}  // namespace

TEST(DopController, BacksOffMultiplicativelyAndGrowsByBinarySearch) {
  ParallelSettings p;
  DopController c(p);
  EXPECT_EQ(c.dop(), 1);
  c.update(0, 0);  // (128 - 1) / 2 = 63, clamped to 12
  EXPECT_EQ(c.dop(), 13);
  c.update(0.2, 0);  // error above 5 %: W_max = 13 x 0.9, dop = floor(13 x 0.8)
  EXPECT_EQ(c.dop(), 10);
  EXPECT_NEAR(c.w_max(), 11.7, 1e-9);
  c.update(0, 0.06);  // failures above 5 % back off too
  EXPECT_EQ(c.dop(), 8);
  for (const int expected : {6, 4, 3, 2, 1, 1}) {  // at least one fewer each time: no fixed point at 4
    c.update(0.5, 0);
    EXPECT_EQ(c.dop(), expected);
  }
  c.update(0, 0);
  EXPECT_GE(c.dop(), 3);  // grows by at least increment_min
  EXPECT_DOUBLE_EQ(timeout_at_dop(4, 1), 4);
  EXPECT_DOUBLE_EQ(timeout_at_dop(4, 16), 9);
  EXPECT_DOUBLE_EQ(timeout_at_dop(4, 24), 13);
  EXPECT_DOUBLE_EQ(timeout_at_dop(4, 200), 20);
}

TEST(DoubleMad, FindsOutliersOnEitherSideWithTheirOwnSpread) {
  std::vector<double> values = {1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.01, 0.99, 3.0, 1.0, 0.5};
  const auto outliers = double_mad_outliers(values, 3);
  EXPECT_EQ(outliers, (std::vector<std::size_t>{8, 10}));
  EXPECT_TRUE(double_mad_outliers({1, 1, 1, 1}, 3).empty());  // no spread, nothing stands out
  EXPECT_EQ(double_mad_outliers({1, 1, 1, 1, 1, 9}, 3), (std::vector<std::size_t>{5}));
}

TEST(CalibrationSession, TheControllerGrowsWithoutInterferenceAndBacksOffWithIt) {
  const GpuSpec spec = spec_of("h100_sxm");
  const KernelTimer model(spec, KernelCalibration{});
  const auto candidates = suite(kSmallKernels);
  SessionSettings settings;
  auto quiet = simulated("noise_pct: 0.2, interference_pct: 0, outlier_rate: 0, failure_rate: 0", spec);
  const SessionResult calm = run_session(*quiet, candidates, settings, model, nullptr);
  auto noisy = simulated("noise_pct: 0.2, interference_pct: 25, outlier_rate: 0, failure_rate: 0", spec);
  const SessionResult busy = run_session(*noisy, candidates, settings, model, nullptr);
  EXPECT_GE(largest_dop(calm), 20);
  EXPECT_LE(largest_dop(busy), 13);  // the first increase, then back off
  EXPECT_GT(busy.chunks.size(), calm.chunks.size());
  EXPECT_GT(calm.speedup_vs_serial, 2 * busy.speedup_vs_serial);
  EXPECT_LT(calm.error_vs_serial_pct, 1);
  EXPECT_GT(busy.error_vs_serial_pct, 3 * calm.error_vs_serial_pct);
}

// Kernels that each fill the GPU, eight at a time: timed at once (DOPpler) they slow each other far
// past any correction; set up at once but timed in turn (exclusive timing) they do not, and the
// session still overlaps their set-ups.
TEST(CalibrationSession, ExclusiveTimingKeepsBigKernelsExactAndStillSavesTime) {
  const GpuSpec spec = spec_of("a100_sxm4_40gb");
  const KernelTimer model(spec, KernelCalibration{});
  const auto candidates = suite(
      "{dtypes: [fp16, fp32], gemm_sizes: [2048, 3072, 4096, 6144, 8192], models: [], vector_ops: [], launch: false, "
      "pairs: 0}");
  SessionSettings settings;
  settings.parallel.adaptive = false;
  settings.parallel.dop = 8;
  settings.parallel.remeasure_share = 0.2;
  settings.serial_reference = true;
  auto shared = simulated("seed: 3", spec);
  const SessionResult at_once = run_session(*shared, candidates, settings, model, nullptr);
  settings.measure.exclusive_timing = true;
  auto turns = simulated("seed: 3", spec);
  const SessionResult in_turn = run_session(*turns, candidates, settings, model, nullptr);
  EXPECT_LT(*in_turn.reference_error_pct, 2);
  // At once the chunk's bias passes 0.25, so its kernels are all measured again alone.
  const auto alone = [](const SessionResult& r) {
    return std::count_if(r.results.begin(), r.results.end(),
                         [](const CandidateResult& c) { return c.serial_ms.has_value(); });
  };
  EXPECT_EQ(alone(at_once), static_cast<std::ptrdiff_t>(candidates.size()));
  EXPECT_LT(alone(in_turn), static_cast<std::ptrdiff_t>(candidates.size()) / 2);
  EXPECT_GT(*in_turn.reference_serial_s / in_turn.wall_s, *at_once.reference_serial_s / at_once.wall_s);
  EXPECT_GT(*in_turn.reference_serial_s / in_turn.wall_s, 1.0);
}

TEST(CalibrationSession, OutliersAreFoundAndMeasuredAgainAlone) {
  const GpuSpec spec = spec_of("h100_sxm");
  const KernelTimer model(spec, KernelCalibration{});
  std::vector<Candidate> candidates;
  for (int i = 0; i < 40; ++i) {
    Candidate c;
    c.name = "k" + std::to_string(i);
    c.op.op = "launch";  // every candidate the same kernel: the model predicts them alike
    c.op.back_to_back = true;
    candidates.push_back(c);
  }
  ScriptedBackend backend;
  backend.inflated = {"k5", "k17", "k30"};
  SessionSettings settings;
  settings.parallel.adaptive = false;
  settings.parallel.dop = 20;
  settings.parallel.remeasure_share = 0;  // only the outliers are re-measured
  const SessionResult r = run_session(backend, candidates, settings, model, nullptr);
  for (const char* name : {"k5", "k17", "k30"}) {
    const auto i = static_cast<std::size_t>(std::stoi(std::string(name).substr(1)));
    EXPECT_TRUE(r.results[i].outlier) << name;
    EXPECT_DOUBLE_EQ(r.results[i].latency_ms, 1.0) << name;  // the lower of 3 at once and 1 alone
    EXPECT_EQ(backend.measured.at(name), 2) << name;
  }
  EXPECT_FALSE(r.results[4].outlier);
}

// Half of each chunk slowed 3x at once, half not (a calibration's kernels beside each other are
// not slowed alike): a sample of one that was not slowed gives the chunk no bias, and the slowed
// ones must not be kept at 3x. The model (every candidate predicted alike) says they were slowed
// unlike the sample, so they are measured alone; whichever candidate the sample draws, every
// latency ends exact and the session's own error estimate says so.
TEST(CalibrationSession, CandidatesSlowedUnlikeTheSampleAreMeasuredAlone) {
  const GpuSpec spec = spec_of("h100_sxm");
  const KernelTimer model(spec, KernelCalibration{});
  std::vector<Candidate> candidates;
  ScriptedBackend backend;
  for (int i = 0; i < 40; ++i) {
    Candidate c;
    c.name = "k" + std::to_string(i);
    c.op.op = "launch";
    c.op.back_to_back = true;
    candidates.push_back(c);
    if (i % 4 >= 2) backend.inflated.insert(c.name);
  }
  SessionSettings settings;
  settings.parallel.adaptive = false;
  settings.parallel.dop = 4;
  settings.parallel.remeasure_share = 0.25;  // one of each chunk's four
  const SessionResult r = run_session(backend, candidates, settings, model, nullptr);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    EXPECT_DOUBLE_EQ(r.results[i].latency_ms, 1.0) << candidates[i].name;
    if (backend.inflated.contains(candidates[i].name)) {
      EXPECT_EQ(backend.measured.at(candidates[i].name), 2) << candidates[i].name;
    }
  }
  EXPECT_LT(r.error_vs_serial_pct, 1e-9);
}

TEST(CalibrationSession, AFailingOrHangingKernelDoesNotStopTheSession) {
  const GpuSpec spec = spec_of("h100_sxm");
  const KernelTimer model(spec, KernelCalibration{});
  const auto candidates = suite(kSmallKernels);
  auto backend = simulated("fail: [\"add fp16 64x64\"], hang: [\"softmax fp16 16x256\"]", spec);
  const SessionResult r = run_session(*backend, candidates, {}, model, nullptr);
  std::size_t ok = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i].name == "add fp16 64x64") {
      EXPECT_EQ(r.results[i].status, MeasureStatus::failed);
    } else if (candidates[i].name == "softmax fp16 16x256") {
      EXPECT_EQ(r.results[i].status, MeasureStatus::timeout);
      EXPECT_NE(r.results[i].message.find("timeout"), std::string::npos);
    } else {
      ok += r.results[i].status == MeasureStatus::ok;
    }
  }
  EXPECT_EQ(ok, candidates.size() - 2);
}

TEST(CalibrationSession, AnInterruptedSessionResumesWithoutMeasuringAgain) {
  const GpuSpec spec = spec_of("h100_sxm");
  const KernelTimer model(spec, KernelCalibration{});
  const auto candidates = suite(kSmallKernels);
  const fs::path path = fs::temp_directory_path() / ("dse_session_" + std::to_string(::getpid()) + ".jsonl");
  SessionSettings settings;
  const auto header = session_journal_header(candidates, settings);
  const JournalWords words{"calibration session", "measurement"};
  ScriptedBackend first;
  first.stop_after = 20;
  {
    JsonLinesJournal journal(path.string(), header, JournalStart::force, words, check_session_record);
    EXPECT_THROW(run_session(first, candidates, settings, model, &journal), std::runtime_error);
  }
  ScriptedBackend second;
  JsonLinesJournal journal(path.string(), header, JournalStart::resume, words, check_session_record);
  // What the journal kept: the chunks that finished before the kill (the one it cut runs again).
  std::set<std::string> kept;
  for (const auto& record : journal.records())
    for (const auto& result : record.at("results")) kept.insert(candidates.at(result.at("i").get<std::size_t>()).name);
  ASSERT_GE(kept.size(), 2u);
  const SessionResult r = run_session(second, candidates, settings, model, &journal);
  EXPECT_TRUE(r.resumed);
  for (const auto& name : kept) EXPECT_FALSE(second.measured.contains(name)) << name << " was measured again";
  std::size_t ok = 0;
  for (const auto& result : r.results) ok += result.status == MeasureStatus::ok;
  EXPECT_EQ(ok, candidates.size());
  EXPECT_EQ(kept.size() + second.measured.size(), candidates.size());
  fs::remove(path);
}

TEST(CalibrationSession, TheFitRecoversTheSimulatedGpusParametersAndStaysPhysical) {
  const fs::path dir = fs::temp_directory_path() / ("dse_calibrate_" + std::to_string(::getpid()));
  CalibrateOptions options;
  // A prior of one row's weight: the test asks what the rows identify. The session's default prior
  // (50 rows) pulls a fit to this small suite 60 % of the way from the truth towards the defaults,
  // which are NeuSight's GPUs' fit, not this simulated GPU's truth.
  options.overrides = {"gpu=a100_sxm4_40gb",        "output=" + (dir / "a100.yaml").string(), "kernels.batch=4",
                       "kernels.models=[resnet18]", "kernels.gemm_sizes=[512, 2048]",         "fit.prior_rows=1"};
  options.start = JournalStart::force;
  const CalibrateOutcome out = calibrate(options);
  // configs/calibration/session.yaml's truth: gemm 0.86, stream 0.80, vector 0.55, launch 4 us.
  EXPECT_NEAR(out.file.parameters.gemm_efficiency, 0.86, 0.05);
  EXPECT_NEAR(out.file.parameters.stream_efficiency, 0.80, 0.05);
  EXPECT_NEAR(out.file.parameters.launch_overhead_us, 4.0, 0.5);
  EXPECT_LT(out.check.all_fitted.mape_pct, 5);
  EXPECT_GT(out.check.all_default.mape_pct, out.check.all_fitted.mape_pct);
  const CalibrationFile reread = read_calibration_file(out.output);
  ASSERT_TRUE(reread.session);
  EXPECT_EQ(reread.session->rows.size(), out.file.session->rows.size());
  EXPECT_NEAR(reread.parameters.gemm_efficiency, out.file.parameters.gemm_efficiency, 1e-5);
  EXPECT_EQ(reread.session->gpu, "a100_sxm4_40gb");
  fs::remove_all(dir);
}

// A session row whose op cannot be built from its sizes (a fuzzed linear of N = 0 divided by zero)
// is refused where the file is read, naming the key.
TEST(CalibrationFile, RowSizesAreCountsForTheirOp) {
  const std::string path = ::testing::TempDir() + "/dse_zero_size_calibration.yaml";
  const auto write = [&](const std::string& row) {
    std::ofstream(path)
        << "calibration: kernel_timer\nfitted_on: [t4]\nsource: test\nparameters: {gemm_efficiency: 0.9}\n"
           "session:\n  gpu: t4\n  device: T4\n  driver: \"\"\n  cuda: \"\"\n  backend: simulated\n"
           "  date_utc: 2026-12-03T22:58:04Z\n  rows:\n    - "
        << row << "\n  pairs: []\n  failed: []\n";
    return path;
  };
  const auto error_of = [](const std::string& file) -> std::string {
    try {
      (void)read_calibration_file(file);
    } catch (const UserError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(error_of(write("{op: linear, b: 1, m: 256, n: 0, k: 0, latency_ms: 0.004, count: 1}"))
                .find("session.rows[0].n: expected a size of at least 1 for a linear op's n, found 0"),
            std::string::npos)
      << error_of(path);
  EXPECT_NE(error_of(write("{op: softmax, b: 0, m: 64, latency_ms: 0.004, count: 1}"))
                .find("session.rows[0].b: expected a size of at least 1 for a softmax op's b, found 0"),
            std::string::npos)
      << error_of(path);
  // A launch row has no sizes; a softmax needs none beyond B rows of M.
  EXPECT_EQ(error_of(write("{op: launch, b: 0, m: 0, n: 0, k: 0, latency_ms: 0.004, count: 1}")), "(no error)");
  EXPECT_EQ(error_of(write("{op: softmax, b: 8, m: 64, latency_ms: 0.004, count: 1}")), "(no error)");
}

}  // namespace dse

namespace dse {

// The cuda backend's process handling, with a stand-in worker that speaks dse-measure-cuda's
// protocol (tests/hwcal/data/fake_cuda_worker.sh): answers, failures, a hang and a crash.
TEST(CudaBackend, WorkersAnswerFailHangAndCrashWithoutStoppingTheChunk) {
  const std::string worker = std::string(DSE_SOURCE_DIR) + "/tests/hwcal/data/fake_cuda_worker.sh";
  const GpuSpec h100 = spec_of("h100_sxm");
  const ConfigNode block = load_config_text("{name: cuda, worker: " + worker + "}", "backend.yaml");
  auto backend = MeasurementBackendRegistry::instance().find("cuda")->factory(block, h100);
  EXPECT_EQ(backend->device().name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(backend->device().driver, "580.65");
  std::vector<Candidate> candidates(4);
  const char* ops[] = {"add", "gelu", "tanh", "mul"};
  for (int i = 0; i < 4; ++i) {
    candidates[i].name = ops[i];
    candidates[i].op.op = ops[i];
    candidates[i].op.b = 1;
    candidates[i].op.m = 250;
  }
  std::vector<const Candidate*> chunk;
  for (const auto& c : candidates) chunk.push_back(&c);
  MeasureSettings settings;
  settings.timeout_s = 1;
  const ChunkResult r = backend->measure(chunk, settings);
  ASSERT_EQ(r.measurements.size(), 4u);
  EXPECT_EQ(r.measurements[0].status, MeasureStatus::ok);
  EXPECT_DOUBLE_EQ(r.measurements[0].latency_ms, 0.25);
  EXPECT_EQ(r.measurements[0].repeats_ms.size(), 2u);
  EXPECT_EQ(r.measurements[1].status, MeasureStatus::failed);
  EXPECT_NE(r.measurements[1].message.find("planted"), std::string::npos);
  EXPECT_EQ(r.measurements[2].status, MeasureStatus::timeout);
  EXPECT_EQ(r.measurements[3].status, MeasureStatus::failed);
  EXPECT_LT(r.wall_s, 5);  // the hang was killed at the timeout
  // A worker on another GPU than the session's spec is refused, naming both.
  const GpuSpec h200 = spec_of("h200");
  try {
    MeasurementBackendRegistry::instance().find("cuda")->factory(block, h200);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("found a 'NVIDIA H100 80GB HBM3'"), std::string::npos) << error.what();
  }
  const ConfigNode missing = load_config_text("{name: cuda, worker: /nonexistent/dse-measure-cuda}", "backend.yaml");
  EXPECT_THROW(MeasurementBackendRegistry::instance().find("cuda")->factory(missing, h100), ConfigError);
}

}  // namespace dse

#include "hwcal/backends/worker_process.h"

namespace dse {

// A worker that exits without reading its request (--info does, a crash may) leaves its stdin's
// reader closed: writing the request then raises SIGPIPE, which must not end the caller (it did,
// in CI). /bin/true exits at once, so most of these writes find no reader.
TEST(WorkerProcess, AWorkerThatExitsUnreadDoesNotKillTheCaller) {
  const std::vector<std::string> requests(16, std::string(2000, 'x'));
  for (int round = 0; round < 20; ++round)
    for (const auto& run : run_workers("/bin/true", {}, requests, 5)) EXPECT_EQ(run.exit_code, 0);
  const auto timed_out = run_workers("/bin/sleep", {"30"}, {"x"}, 0.2);
  EXPECT_TRUE(timed_out.front().timed_out);
  EXPECT_LT(timed_out.front().wall_s, 5);
}

}  // namespace dse
