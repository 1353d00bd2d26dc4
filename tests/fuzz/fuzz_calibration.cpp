// A calibration file as `dse calibration validate` and `dse run -p device.calibration=FILE` read it
// (its session's rows and pairs predicted with its parameters), and the same bytes as a calibration
// session's journal as `dse calibrate --resume` reads it.
#include "hwcal/calibration_file.h"
#include "hwcal/measure/session_journal.h"
#include "hwcal/session_fit.h"
#include "sim/config/config_loader.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const dse::GpuSpec spec = dse::read_gpu_spec(dse::load_config_file("embedded:configs/hardware/gpu/t4.yaml"));
  dse::fuzz::expect_result_or_user_error([&] {
    const std::string& path = dse::fuzz::as_file(data, size, ".yaml");
    (void)dse::read_kernel_calibration(dse::load_config_file(path));
    const dse::CalibrationFile file = dse::read_calibration_file(path);
    // At most a few rows predicted: a fuzzer's huge shapes would only spend its time.
    if (file.session && file.session->rows.size() + file.session->pairs.size() <= 8)
      (void)dse::check_calibration(file, spec);
  });
  // The journal: its lines are JSON; a resumed session checks every record before it trusts it.
  return dse::fuzz::expect_result_or_user_error([&] {
    const std::string& path = dse::fuzz::as_file(data, size, ".jsonl");
    std::vector<dse::Candidate> candidates(3);
    for (std::size_t i = 0; i < candidates.size(); ++i) candidates[i].name = "k" + std::to_string(i);
    (void)dse::read_json_lines(path, dse::session_journal_header(candidates, dse::SessionSettings{}),
                               {"calibration session", "measurement"}, dse::check_session_record);
  });
}
