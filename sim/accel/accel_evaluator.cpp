#include "sim/accel/accel_evaluator.h"

namespace dse {

AccelEvaluation evaluate_accelerator(const AccelWorkload& workload, const AcceleratorSpec& spec, FusionMode fusion,
                                     PaddingMode padding) {
  AccelEvaluation out;
  out.mappings = map_ops(workload, spec);
  out.fusion = plan_fusion(workload, out.mappings, tensor_dram_factors(workload, spec, padding), spec, fusion);
  out.latency_s = out.fusion.latency_s;
  out.dram_bytes = out.fusion.dram_bytes;
  out.power_area = accelerator_power_area(spec);

  const AcceleratorEnergy& e = out.power_area.energy;
  double dynamic = 0;
  for (std::size_t i = 0; i < workload.ops.size(); ++i) {
    const AccelOp& op = workload.ops[i];
    const OpMapping& map = out.mappings[i];
    const double macs = static_cast<double>(op.macs);
    out.op_dynamic_energy_j.push_back((map.on_vector_units ? 2 * macs * e.vector_op_j : macs * e.mac_j) +
                                      static_cast<double>(op.vector_ops) * e.vector_op_j + map.l1_bytes * e.l1_byte_j +
                                      map.noc_bytes * e.global_byte_j + out.fusion.ops[i].dram_bytes * e.dram_byte_j);
    dynamic += out.op_dynamic_energy_j.back();
  }
  out.dynamic_energy_j = dynamic;
  out.energy_j = dynamic + out.power_area.static_w * out.latency_s;
  return out;
}

}  // namespace dse
