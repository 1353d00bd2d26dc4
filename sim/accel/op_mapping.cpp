#include "sim/accel/op_mapping.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/base/ceil_div.h"

namespace dse {
namespace {

struct GemmPlan {
  std::int64_t cycles = 0;
  int active_cores = 1;
  double a_traffic = 0, b_traffic = 0, c_traffic = 0;  // from the L1s' backing store, all cores
  double l1_bytes = 0;
  double startup_bytes = 0;
};

// The SRAM-side reads of the array's operands for one core's share (SCALE-Sim's access pattern):
// the stationary operand is read once; the streamed one once per fold of the stationary one;
// outputs once per fold of the reduction.
double array_edge_bytes(const GemmView& g, const SystolicArray& array, int elem) {
  const double m = g.m, n = g.n, k = g.k, h = array.rows, w = array.cols;
  const double folds_m = std::ceil(m / w), folds_n = std::ceil(n / w), folds_k = std::ceil(k / h);
  double reads = 0;
  switch (array.dataflow) {
    case Dataflow::weight_stationary: reads = k * n + m * k * folds_n + m * n * folds_k; break;
    case Dataflow::input_stationary: reads = m * k + k * n * folds_m + m * n * folds_k; break;
    case Dataflow::output_stationary: reads = m * k * folds_n + k * n * std::ceil(m / h) + m * n; break;
  }
  return reads * g.batch * elem;
}

GemmPlan plan_gemm(const GemmView& g, const AcceleratorSpec& spec, int elem) {
  const int cores = spec.cores();
  const int pb = static_cast<int>(std::min<std::int64_t>(g.batch, cores));
  const int rest = cores / pb;
  const double l1_half = static_cast<double>(spec.l1_bytes) / 2;
  GemmPlan best;
  double best_traffic = 0;
  for (int pm = 1; pm <= rest; ++pm) {
    if (rest % pm) continue;
    const int pn = rest / pm;
    if (pm > 1 && ceil_div(g.m, pm) * (pm - 1) >= g.m) continue;  // some cores would get no rows
    if (pn > 1 && ceil_div(g.n, pn) * (pn - 1) >= g.n) continue;
    const GemmView core{ceil_div(g.batch, pb), ceil_div(g.m, pm), ceil_div(g.n, pn), g.k};
    const std::int64_t cycles = run_gemm(core, spec.array).cycles;
    const TileFactors f = tile_factors(core.m, core.n, core.k, elem, l1_half, spec.array.rows, spec.array.cols);
    const double active = static_cast<double>(pb) * pm * pn;
    const double per_group = static_cast<double>(core.batch) * elem;
    GemmPlan plan;
    plan.cycles = cycles;
    plan.active_cores = pb * pm * pn;
    plan.a_traffic = active * per_group * static_cast<double>(core.m * core.k) * f.a;
    plan.b_traffic = active * per_group * static_cast<double>(core.k * core.n) * f.b;
    plan.c_traffic = active * per_group * static_cast<double>(core.m * core.n) * f.c;
    const double traffic = plan.a_traffic + plan.b_traffic + plan.c_traffic;
    if (best.cycles == 0 || cycles < best.cycles || (cycles == best.cycles && traffic < best_traffic)) {
      plan.l1_bytes = active * array_edge_bytes(core, spec.array, elem);
      const double first_k = static_cast<double>(std::min(core.k, spec.array.rows));
      plan.startup_bytes = active * elem * first_k *
                           static_cast<double>(std::min(core.m, spec.array.rows) + std::min(core.n, spec.array.cols));
      best = plan;
      best_traffic = traffic;
    }
  }
  return best;
}

}  // namespace

TileFactors tile_factors(std::int64_t m, std::int64_t n, std::int64_t k, int elem, double capacity, std::int64_t unit_m,
                         std::int64_t unit_n) {
  const double e = elem, a = static_cast<double>(m * k) * e, b = static_cast<double>(k * n) * e,
               c = static_cast<double>(m * n) * e;
  const double half = capacity / 2;
  if (a + b + c <= capacity || a <= half || b <= half) return {};  // one operand stays resident
  const double strip = static_cast<double>(k) * e * static_cast<double>(std::max(unit_m, unit_n));
  const std::int64_t ks = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(strip / half)));
  const double kc = std::ceil(static_cast<double>(k) / static_cast<double>(ks));
  const double t = std::max(1.0, std::floor(half / (kc * e)));  // rows of A or columns of B per strip
  const double ra = std::ceil(static_cast<double>(n) / t), rb = std::ceil(static_cast<double>(m) / t);
  TileFactors f;
  if (a * ra + b <= a + b * rb)
    f.a = ra;
  else
    f.b = rb;
  f.c = static_cast<double>(2 * ks - 1);
  return f;
}

std::vector<OpMapping> map_ops(const AccelWorkload& workload, const AcceleratorSpec& spec) {
  std::vector<OpMapping> out;
  out.reserve(workload.ops.size());
  for (const AccelOp& op : workload.ops) out.push_back(map_op(workload, op, spec));
  return out;
}

OpMapping map_op(const AccelWorkload& workload, const AccelOp& op, const AcceleratorSpec& spec) {
  OpMapping out;
  const double hz = spec.clock_hz();
  const int cores = spec.cores();
  const double lanes = static_cast<double>(cores) * static_cast<double>(spec.vector_lanes);  // all cores' vector lanes
  double in_bytes = 0;
  for (const int t : op.inputs) in_bytes += workload.tensors[t].bytes;
  const double out_bytes = op.output >= 0 ? workload.tensors[op.output].bytes : 0;

  switch (op.category) {
    case OpCategory::matrix: {
      double a_l1 = 0, b_l1 = 0, c_l1 = 0, a_size = 0, b_size = 0, c_size = 0;
      double a_gb = 0, b_gb = 0, c_gb = 0;
      const double gb_half = static_cast<double>(spec.global_buffer_bytes) / 2;
      for (const GemmView& g : op.gemms) {
        const GemmPlan plan = plan_gemm(g, spec, op.dtype_bytes);
        out.compute_cycles += plan.cycles;
        out.active_cores = std::max(out.active_cores, plan.active_cores);
        out.l1_bytes += plan.l1_bytes;
        out.startup_bytes = std::max(out.startup_bytes, plan.startup_bytes);
        a_l1 += plan.a_traffic;
        b_l1 += plan.b_traffic;
        c_l1 += plan.c_traffic;
        const double e = op.dtype_bytes, batch = static_cast<double>(g.batch);
        a_size += batch * static_cast<double>(g.m * g.k) * e;
        b_size += batch * static_cast<double>(g.k * g.n) * e;
        c_size += batch * static_cast<double>(g.m * g.n) * e;
        if (spec.global_buffer_bytes > 0) {  // the global buffer is the L1s' backing store
          const TileFactors f = tile_factors(g.m, g.n, g.k, op.dtype_bytes, gb_half, spec.array.rows, spec.array.cols);
          a_gb += batch * static_cast<double>(g.m * g.k) * e * f.a;
          b_gb += batch * static_cast<double>(g.k * g.n) * e * f.b;
          c_gb += batch * static_cast<double>(g.m * g.n) * e * f.c;
        }
      }
      const bool gb = spec.global_buffer_bytes > 0;
      const double fa = (gb ? a_gb : a_l1) / std::max(a_size, 1.0);
      const double fb = (gb ? b_gb : b_l1) / std::max(b_size, 1.0);
      out.output_factor = (gb ? c_gb : c_l1) / std::max(c_size, 1.0);
      out.first_input_factor = fa;
      if (op.weight_bytes > 0) {
        out.other_input_factor = fa;
        out.weight_dram_bytes = op.weight_bytes * fb;
      } else {
        out.other_input_factor = fb;
      }
      out.noc_bytes = gb ? a_l1 + b_l1 + c_l1 : 0;
      out.l1_bytes += a_l1 + b_l1 + c_l1;
      // A compiler may run a matrix op that maps badly onto the arrays on the vector units instead,
      // a MAC as two lane operations: depthwise convolutions (one output channel per group) and
      // outer products (K = 1). Other GEMMs stay on the arrays.
      const bool degenerate =
          std::all_of(op.gemms.begin(), op.gemms.end(), [](const GemmView& g) { return g.n == 1 || g.k == 1; });
      const auto vector_cycles = static_cast<std::int64_t>(std::ceil(2.0 * static_cast<double>(op.macs) / lanes));
      if (degenerate && vector_cycles < out.compute_cycles) {
        out.compute_cycles = vector_cycles;
        out.on_vector_units = true;
        out.active_cores = cores;
      }
      break;
    }
    case OpCategory::vector: {
      out.compute_cycles = static_cast<std::int64_t>(std::ceil(static_cast<double>(op.vector_ops) / lanes));
      out.active_cores = cores;
      out.weight_dram_bytes = op.weight_bytes;
      out.l1_bytes = in_bytes + out_bytes + op.weight_bytes;
      out.noc_bytes = spec.global_buffer_bytes > 0 ? out.l1_bytes : 0;
      out.startup_bytes = std::min(in_bytes, lanes * op.dtype_bytes);
      break;
    }
    case OpCategory::data_movement:
    case OpCategory::view: {
      // A DMA copy; on chip (when fusion keeps its tensors there) the vector units move it.
      out.compute_cycles = static_cast<std::int64_t>(std::ceil(op.moved_bytes / (lanes * op.dtype_bytes)));
      out.active_cores = cores;
      out.weight_dram_bytes = op.weight_bytes;  // a gather's rows
      out.l1_bytes = op.moved_bytes;
      break;
    }
  }
  out.compute_s = static_cast<double>(out.compute_cycles) / hz;
  return out;
}

}  // namespace dse
