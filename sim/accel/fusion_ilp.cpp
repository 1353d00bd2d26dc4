#include "sim/accel/fusion_ilp.h"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <numeric>

namespace dse {
namespace {

// GLPK keeps global state: one solve at a time in the process.
std::mutex& glpk_mutex() {
  static std::mutex mutex;
  return mutex;
}

// A sparse linear program being built (GLPK's 1-based triplets).
class Lp {
 public:
  Lp() : p_(glp_create_prob()) { glp_set_obj_dir(p_, GLP_MIN); }
  ~Lp() { glp_delete_prob(p_); }
  Lp(const Lp&) = delete;
  Lp& operator=(const Lp&) = delete;

  int binary(double cost = 0) {
    const int j = column(cost);
    glp_set_col_kind(p_, j, GLP_BV);
    return j;
  }
  int fixed(double value) {
    const int j = column(0);
    glp_set_col_bnds(p_, j, GLP_FX, value, value);
    return j;
  }
  int continuous(double low, double high, double cost) {
    const int j = column(cost);
    glp_set_col_bnds(p_, j, GLP_DB, low, high);
    return j;
  }
  int continuous_from(double low, double cost) {
    const int j = column(cost);
    glp_set_col_bnds(p_, j, GLP_LO, low, 0);
    return j;
  }
  // sum(coef x) >= low  (or <= high with `upper`)
  void row(const std::vector<std::pair<int, double>>& terms, double bound, bool upper = false) {
    const int i = glp_add_rows(p_, 1);
    glp_set_row_bnds(p_, i, upper ? GLP_UP : GLP_LO, bound, bound);
    for (const auto& [j, a] : terms) {
      ia_.push_back(i);
      ja_.push_back(j);
      ar_.push_back(a);
    }
  }
  // Solves; returns whether a solution exists and whether it is proven optimal.
  std::pair<bool, bool> solve(double time_limit_s) {
    glp_load_matrix(p_, static_cast<int>(ia_.size()) - 1, ia_.data(), ja_.data(), ar_.data());
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = static_cast<int>(time_limit_s * 1000);
    parm.mip_gap = 1e-6;
    glp_intopt(p_, &parm);
    const int status = glp_mip_status(p_);
    return {status == GLP_OPT || status == GLP_FEAS, status == GLP_OPT};
  }
  double value(int j) const { return glp_mip_col_val(p_, j); }
  int columns() const { return glp_get_num_cols(p_); }
  int rows() const { return glp_get_num_rows(p_); }

 private:
  int column(double cost) {
    const int j = glp_add_cols(p_, 1);
    glp_set_col_bnds(p_, j, GLP_DB, 0, 1);
    glp_set_obj_coef(p_, j, cost);
    return j;
  }
  glp_prob* p_;
  std::vector<int> ia_{0}, ja_{0};
  std::vector<double> ar_{0.0};
};

}  // namespace

IlpFusionResult plan_fusion_ilp(const AccelWorkload& w, const std::vector<OpMapping>& mappings,
                                const std::vector<double>& layout, const AcceleratorSpec& spec, double time_limit_s) {
  const auto start = std::chrono::steady_clock::now();
  const int n = static_cast<int>(w.ops.size());
  // Units: MB and microseconds keep the coefficients near 1.
  constexpr double kMb = 1e-6;
  const double bw = spec.dram_bytes_per_s() * kMb * 1e-6;  // MB per us
  const double capacity = (spec.global_buffer_bytes > 0 ? static_cast<double>(spec.global_buffer_bytes)
                                                        : static_cast<double>(spec.l1_bytes) * spec.cores()) /
                          2 * kMb;
  const double noc = spec.noc_bandwidth_gbps > 0 ? spec.noc_bytes_per_s() : 0;

  // An intermediate: made by an op and read by at least one.
  const auto candidate = [&w](int t) { return w.tensors[t].producer >= 0 && !w.tensors[t].consumers.empty(); };

  const std::lock_guard lock(glpk_mutex());
  glp_term_out(GLP_OFF);
  Lp lp;
  std::map<std::pair<int, int>, int> read_on_chip;  // (tensor, reader) -> e column
  std::map<int, int> written;                       // tensor -> w column
  std::map<std::pair<int, int>, int> occupies;      // (tensor, op) -> o column
  for (std::size_t t = 0; t < w.tensors.size(); ++t) {
    const int ti = static_cast<int>(t);
    if (!candidate(ti)) continue;
    const AccelTensor& tensor = w.tensors[t];
    written[ti] = tensor.graph_output ? lp.fixed(1) : lp.binary();
    for (const int c : tensor.consumers) {
      const int e = lp.binary();
      read_on_chip[{ti, c}] = e;
      lp.row({{written[ti], 1}, {e, 1}}, 1);  // a reader that reads from DRAM needs it written
    }
    for (int i = tensor.producer; i <= tensor.last_consumer; ++i) occupies[{ti, i}] = lp.continuous(0, 1, 0);
    for (int i = tensor.producer; i < tensor.last_consumer; ++i)
      lp.row({{occupies[{ti, i}], 1}, {occupies[{ti, i + 1}], -1}}, 0);  // held from its producer on
    for (const int c : tensor.consumers) lp.row({{occupies[{ti, c}], 1}, {read_on_chip[{ti, c}], -1}}, 0);
  }
  // Capacity at every op.
  std::vector<std::vector<std::pair<int, double>>> held(static_cast<std::size_t>(n));
  for (const auto& [key, column] : occupies)
    held[static_cast<std::size_t>(key.second)].push_back({column, w.tensors[key.first].bytes * kMb});
  for (int i = 0; i < n; ++i)
    if (!held[static_cast<std::size_t>(i)].empty()) lp.row(held[static_cast<std::size_t>(i)], capacity, true);
  // Each op's time.
  std::vector<double> floor_s(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const AccelOp& op = w.ops[i];
    const OpMapping& map = mappings[static_cast<std::size_t>(i)];
    floor_s[static_cast<std::size_t>(i)] = std::max(map.compute_s, noc > 0 ? map.noc_bytes / noc : 0.0);
    const int z = lp.continuous_from(floor_s[static_cast<std::size_t>(i)] * 1e6, 1);
    std::vector<std::pair<int, double>> terms{{z, bw}};
    double constant = map.weight_dram_bytes * kMb;
    // The first tiles' latency, paid when the op moves any DRAM bytes: u = 1 then. An upper bound of
    // min(bytes, first tiles) / bandwidth, exact when the op moves at least its first tiles (an exact
    // minimum needs a second binary per op and made EfficientNet-B0 unprovable in 20 s).
    int u = 0;
    if (map.startup_bytes > 0) u = lp.binary(map.startup_bytes * kMb / bw);
    std::map<int, double> read_coefficient;
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
      const int t = op.inputs[k];
      const double bytes =
          w.tensors[t].bytes * layout[t] * (k == 0 ? map.first_input_factor : map.other_input_factor) * kMb;
      constant += bytes;
      if (candidate(op.inputs[k])) read_coefficient[op.inputs[k]] += bytes;
    }
    for (const auto& [t, bytes] : read_coefficient) terms.push_back({read_on_chip.at({t, i}), bytes});
    const AccelTensor& out = w.tensors[op.output];
    const double out_bytes = out.bytes * layout[op.output] * map.output_factor * kMb;
    if (candidate(op.output)) {
      terms.push_back({written.at(op.output), -out_bytes});
    } else if (out.graph_output) {
      constant += out_bytes;
    }
    lp.row(terms, constant);  // bw z + on-chip reads - writes >= all the bytes as if from DRAM
    if (u) {                  // big-M: u = 1 whenever any byte moves; M = every byte the op could move
      const double big = constant + (candidate(op.output) ? out_bytes : 0.0);
      std::vector<std::pair<int, double>> link{{u, big}};
      for (std::size_t k = 1; k < terms.size(); ++k) link.push_back(terms[k]);
      lp.row(link, constant);
    }
  }

  IlpFusionResult result;
  result.variables = lp.columns();
  result.constraints = lp.rows();
  const auto outcome = lp.solve(time_limit_s);
  const bool solved = outcome.first;  // named variables: clang 14 cannot capture a structured binding
  result.proven_optimal = outcome.second;

  // Time the solution as the other plans are timed (first tiles included).
  const double bytes_per_s = spec.dram_bytes_per_s();
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&parent](int x) {
    while (parent[static_cast<std::size_t>(x)] != x)
      x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    return x;
  };
  const auto on_chip = [&](int t, int c) {
    const auto it = read_on_chip.find({t, c});
    return solved && it != read_on_chip.end() && lp.value(it->second) > 0.5;
  };
  FusionResult& plan = result.plan;
  plan.ops.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const AccelOp& op = w.ops[i];
    const OpMapping& map = mappings[static_cast<std::size_t>(i)];
    double dram = map.weight_dram_bytes;
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
      const int t = op.inputs[k];
      if (on_chip(t, i)) {
        parent[static_cast<std::size_t>(root(i))] = root(w.tensors[t].producer);
        continue;
      }
      dram += w.tensors[t].bytes * layout[t] * (k == 0 ? map.first_input_factor : map.other_input_factor);
    }
    const AccelTensor& out = w.tensors[op.output];
    const bool write = candidate(op.output) ? (!solved || lp.value(written.at(op.output)) > 0.5) : out.graph_output;
    if (write) dram += out.bytes * layout[op.output] * map.output_factor;
    const double core = floor_s[static_cast<std::size_t>(i)],
                 first_tiles = std::min(dram, map.startup_bytes) / bytes_per_s;
    const double time = std::max(core, dram / bytes_per_s) + first_tiles;
    plan.ops[static_cast<std::size_t>(i)] = {time, map.compute_s, core, first_tiles, dram, 0};
    plan.latency_s += time;
    plan.dram_bytes += dram;
  }
  std::map<int, int> group_of_root;
  for (int i = 0; i < n; ++i) {
    const int r = root(i);
    if (!group_of_root.contains(r)) group_of_root[r] = static_cast<int>(group_of_root.size());
    plan.ops[static_cast<std::size_t>(i)].group = group_of_root[r];
  }
  plan.groups = static_cast<int>(group_of_root.size());
  result.solve_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace dse
