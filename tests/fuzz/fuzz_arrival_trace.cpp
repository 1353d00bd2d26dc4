// A serving tenant's arrival trace (CSV with an arrival_s column, `arrivals: {name: trace}`): read
// as a config names it, then drained as the serving run draws from it.
#include "sim/config/config_loader.h"
#include "sim/serving/arrivals.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return dse::fuzz::expect_result_or_user_error([&] {
    const std::string& path = dse::fuzz::as_file(data, size, ".csv");
    const dse::ConfigNode params = dse::load_config_text("name: trace\nfile: '" + path + "'\n", "fuzz.yaml");
    const auto arrivals = dse::make_arrivals(params, "fuzz.yaml");
    dse::ServingRng rng(1);
    double last = -1;
    for (const double t : arrivals->initial_s(rng)) last = t;
    while (const auto next = arrivals->after_arrival_s(last, rng)) {
      if (*next < last || *next > dse::kLongestServingRun_s) __builtin_trap();  // the reader's promise
      last = *next;
    }
    (void)arrivals->mean_rate_per_s();
  });
}
