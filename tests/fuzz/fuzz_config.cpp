// An experiment config: YAML text through the loader (includes, aliases, tags) and read_experiment
// (workload, device, schedule, output), as `dse run` reads it before simulating.
#include "sim/config/config_loader.h"
#include "sim/run/experiment.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return dse::fuzz::expect_result_or_user_error([&] {
    const dse::ConfigNode root = dse::load_config_text(dse::fuzz::text(data, size), "fuzz.yaml");
    (void)dse::read_experiment(root, "fuzz.yaml");
  });
}
