#include "sim/accel/scalesim_stalls.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "models/base/checked_count.h"
#include "models/base/errors.h"
#include "sim/accel/scalesim_buffers.h"

namespace dse {

ScaleSimCycles scalesim_layer_cycles(const ScaleSimLayer& layer, const ScaleSimConfig& config) {
  if (!config.user_bandwidth) return {run_gemm({1, layer.m(), layer.n(), layer.k()}, config.array).cycles, 0};
  // SCALE-Sim holds every operand address in memory and would take days on such a layer; dse's
  // index of where each address sits takes 4 bytes per element.
  constexpr std::int64_t kMaxSlots = std::int64_t{1} << 30;
  for (const auto& [operand, name] :
       {std::pair{ScaleSimOperand::ifmap, "ifmap"}, {ScaleSimOperand::filter, "filter"}}) {
    const std::int64_t slots = prefetch_slots(layer, config.array, operand);
    if (slots > kMaxSlots)
      throw UserError(std::string("its ") + name + " prefetch matrix has " + std::to_string(slots) +
                      " slots; dse runs SCALE-Sim's USER bandwidth mode on up to 2^30");
  }
  const std::int64_t ifmap_words =
      checked_product("the ifmap words of a SCALE-Sim layer", layer.ifmap_h, layer.ifmap_w, layer.channels);
  if (ifmap_words > kMaxSlots)
    throw UserError("its ifmap has " + std::to_string(ifmap_words) +
                    " words; dse runs SCALE-Sim's USER bandwidth mode on up to 2^30");

  const auto words_per_kib = [](double kib) { return static_cast<std::int64_t>(kib) * 1024; };
  const auto bandwidth = static_cast<std::int64_t>(config.bandwidth_words_per_cycle);
  const auto order = [&](ScaleSimOperand operand) {
    return [&, operand](const std::function<void(std::int64_t)>& visit) {
      for_each_prefetched(layer, config.array, operand, visit);
    };
  };
  ScaleSimReadBuffer ifmap(words_per_kib(config.ifmap_sram_kib), bandwidth, ifmap_words, order(ScaleSimOperand::ifmap));
  ScaleSimReadBuffer filter(words_per_kib(config.filter_sram_kib), bandwidth, layer.k() * layer.n(),
                            order(ScaleSimOperand::filter));
  ScaleSimWriteBuffer ofmap(words_per_kib(config.ofmap_sram_kib), bandwidth);

  const ScaleSimDemand demand(layer, config.array);
  const char* what = "the cycles of a SCALE-Sim layer";
  ScaleSimCycles cycles;
  std::vector<std::int64_t> addresses;
  std::int64_t line_index = 0;
  for (std::int64_t fc = 0; fc < demand.col_folds(); ++fc) {
    for (std::int64_t fr = 0; fr < demand.row_folds(); ++fr) {
      for (std::int64_t line = 0; line < demand.lines_per_fold(); ++line, ++line_index) {
        const std::int64_t cycle = checked_add(line_index, cycles.stalls, what);
        demand.ifmap_line(fc, fr, line, addresses);
        const std::int64_t ifmap_stall = ifmap.read(cycle, addresses);
        demand.filter_line(fc, fr, line, addresses);
        const std::int64_t filter_stall = filter.read(cycle, addresses);
        const std::int64_t ofmap_stall = ofmap.write(cycle, demand.ofmap_words(fc, fr, line));
        cycles.stalls = checked_add(cycles.stalls, std::max({ifmap_stall, filter_stall, ofmap_stall}), what);
        cycles.total = cycle + ofmap_stall;  // SCALE-Sim ends the layer when its last line's writes are served
      }
    }
  }
  return cycles;
}

}  // namespace dse
