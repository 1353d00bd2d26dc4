// A recorded serving run (the BatchDVFS paper's CSV logs) replayed through each governor the paper
// ran, as `dse replay FILE --governor NAME` does.
#include "sim/serving/governor_replay.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = dse::fuzz::as_file(data, size, ".csv");
  for (const char* governor : {"batch_dvfs", "clipper_power", "dvfs_only"}) {
    dse::fuzz::expect_result_or_user_error([&] {
      dse::ReplayOptions options;
      options.governor = governor;
      const dse::ReplayReport report = dse::replay_governor(path, options);
      if (report.matched > report.transitions || report.transitions > report.rows) __builtin_trap();
    });
  }
  return 0;
}
