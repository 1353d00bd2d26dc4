// SCALE-Sim inputs: the bytes as an array config (.cfg, INI) and as a topology (CSV of layers).
#include "models/import/scalesim_topology.h"
#include "sim/accel/scalesim_config.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dse::fuzz::expect_result_or_user_error(
      [&] { (void)dse::read_scalesim_config(dse::fuzz::as_file(data, size, ".cfg")); });
  return dse::fuzz::expect_result_or_user_error(
      [&] { (void)dse::import_scalesim_topology(dse::fuzz::as_file(data, size, ".csv")); });
}
