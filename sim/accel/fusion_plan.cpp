#include "sim/accel/fusion_plan.h"

#include "sim/accel/fusion_ilp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dse {

namespace {

// Grows one group op by op from `first`, keeping each op's time current as later ops take its
// output's readers into the group. The per-op figures it needs are copied into flat arrays once per
// design: this loop is what a design evaluation spends most of its time in.
class GroupScanner {
 public:
  GroupScanner(const AccelWorkload& workload, const std::vector<OpMapping>& mappings, const std::vector<double>& layout,
               const AcceleratorSpec& spec)
      : batch_(workload.batch),
        ops_(workload.ops.size()),
        readers_outside_(workload.ops.size(), 0),
        dram_(workload.ops.size(), 0),
        time_(workload.ops.size(), 0),
        release_begin_(workload.ops.size() + 1, 0) {
    const double on_chip = spec.global_buffer_bytes > 0 ? static_cast<double>(spec.global_buffer_bytes)
                                                        : static_cast<double>(spec.l1_bytes) * spec.cores();
    capacity_ = on_chip / 2;
    const double inv_dram_bw = 1 / spec.dram_bytes_per_s();
    const double inv_noc_bw = spec.noc_bandwidth_gbps > 0 ? 1 / spec.noc_bytes_per_s() : 0;
    for (int j = 0; j < static_cast<int>(workload.ops.size()); ++j) {
      const AccelOp& op = workload.ops[j];
      const OpMapping& map = mappings[j];
      const AccelTensor& out = workload.tensors[op.output];
      OpData& d = ops_[j];
      d.input_begin = static_cast<int>(inputs_.size());
      for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        const AccelTensor& t = workload.tensors[op.inputs[i]];
        inputs_.push_back({t.producer,
                           t.bytes * layout[op.inputs[i]] * (i == 0 ? map.first_input_factor : map.other_input_factor),
                           static_cast<bool>(op.repeated[i]), t.graph_output});
      }
      d.input_end = static_cast<int>(inputs_.size());
      d.readers = static_cast<int>(out.consumers.size());
      d.escapes_anyway = out.graph_output;
      d.out_bytes = out.bytes;
      d.out_dram = out.bytes * layout[op.output] * map.output_factor;
      d.weight_dram = map.weight_dram_bytes;
      d.weight_bytes = op.weight_bytes;
      d.floor_s = std::max(map.compute_s, map.noc_bytes * inv_noc_bw);
      d.startup_bytes = map.startup_bytes;
      d.max_slices = std::max<std::int64_t>(batch_, op.row_slices);
      for (const int t : workload.last_read_by[j])
        releases_.push_back({workload.tensors[t].producer, workload.tensors[t].bytes});
      release_begin_[j + 1] = static_cast<int>(releases_.size());
    }
    inv_dram_bw_ = inv_dram_bw;
  }

  void start(int first) {
    first_ = first;
    cost_ = 0;
    live_ = 0;
    slices_ = 1;
    slice_limit_ = std::numeric_limits<std::int64_t>::max();
  }

  // Adds op `j` (the op after the group's last). Returns false when the group no longer fits on
  // chip; the group then must not be used (the caller stops growing it).
  bool extend(int j) {
    const OpData& d = ops_[j];
    double dram = weight_traffic(d, static_cast<double>(slices_));
    for (int i = d.input_begin; i < d.input_end; ++i) {
      const InputRef& in = inputs_[i];
      if (in.producer >= first_) {  // made in this group: on chip
        if (!in.repeated && --readers_outside_[in.producer] == 0 && !in.graph_output) settle(in.producer);
      } else {
        dram += in.dram_bytes;
      }
    }
    readers_outside_[j] = d.readers;
    if (d.readers > 0 || d.escapes_anyway) dram += d.out_dram;
    dram_[j] = dram;
    time_[j] = op_time(j);
    cost_ += time_[j];

    live_ += d.out_bytes;
    // A group slices along its rows while every op in it works row by row, else by samples.
    slice_limit_ = std::min(slice_limit_, d.max_slices);
    bool fits = slices_ <= slice_limit_;
    if (fits && j > first_ && live_ > capacity_ * slices_) {
      // Run the group in slices small enough for its tensors to fit; every slice reads the group's
      // weights (weight_traffic).
      const double slices = std::ceil(live_ / capacity_);
      if (slices > static_cast<double>(slice_limit_))
        fits = false;
      else
        reslice(j, slices);
    }
    for (int r = release_begin_[j]; r < release_begin_[j + 1]; ++r)
      if (releases_[r].producer >= first_) live_ -= releases_[r].bytes;
    return fits;
  }

  double cost() const { return cost_; }
  FusedOpTiming timing(int j, double compute_s, int group) const {
    const OpData& d = ops_[j];
    return {time_[j], compute_s, d.floor_s, std::min(dram_[j], d.startup_bytes) * inv_dram_bw_, dram_[j], group};
  }

 private:
  struct OpData {
    int input_begin = 0, input_end = 0;
    int readers = 0;              // ops that read the output
    bool escapes_anyway = false;  // a graph output
    double out_bytes = 0, out_dram = 0;
    double weight_dram = 0;   // alone: its constants times the re-reads its own tiling needs
    double weight_bytes = 0;  // its constants once
    double floor_s = 0;       // max(compute, network) time
    double startup_bytes = 0;
    std::int64_t max_slices = 1;  // its rows when it works row by row (at least the batch), else the batch
  };
  struct InputRef {
    int producer;
    double dram_bytes;  // when read from DRAM, re-reads included
    bool repeated;
    bool graph_output;
  };
  struct Release {
    int producer;
    double bytes;
  };

  // The DRAM bytes of op d's constants when its group runs in `slices` slices (of samples or rows,
  // both rows of a GEMM's A and C): every slice reads them all once, and a GEMM whose own tiling
  // already streams its weights once per block of rows pays nothing more until the slices outnumber
  // those passes.
  static double weight_traffic(const OpData& d, double slices) {
    return std::max(d.weight_dram, d.weight_bytes * slices);
  }

  // The group [first_, j] now runs in `slices` slices: its ops read their weights that often. Kept
  // out of line: extend() runs in the dynamic program's inner loop, and this rarely.
  [[gnu::noinline]] void reslice(int j, double slices) {
    for (int p = first_; p <= j; ++p) {
      cost_ -= time_[p];
      dram_[p] += weight_traffic(ops_[p], slices) - weight_traffic(ops_[p], static_cast<double>(slices_));
      time_[p] = op_time(p);
      cost_ += time_[p];
    }
    slices_ = static_cast<std::int64_t>(slices);
  }

  // Op p's output no longer leaves the group: it writes nothing to DRAM.
  void settle(int p) {
    cost_ -= time_[p];
    dram_[p] -= ops_[p].out_dram;
    time_[p] = op_time(p);
    cost_ += time_[p];
  }

  double op_time(int j) const {
    const OpData& d = ops_[j];
    return std::max(d.floor_s, dram_[j] * inv_dram_bw_) + std::min(dram_[j], d.startup_bytes) * inv_dram_bw_;
  }

  int batch_;
  std::vector<OpData> ops_;
  std::vector<InputRef> inputs_;
  std::vector<Release> releases_;
  std::vector<int> readers_outside_;
  std::vector<double> dram_, time_;
  std::vector<int> release_begin_;  // releases_ of op j: [release_begin_[j], release_begin_[j + 1])
  double capacity_ = 0, inv_dram_bw_ = 0;
  int first_ = 0;
  double cost_ = 0, live_ = 0;
  std::int64_t slices_ = 1;
  std::int64_t slice_limit_ = std::numeric_limits<std::int64_t>::max();  // the fewest max_slices in the group
};

// The ops timed under a partition (`starts`: first op of each group), with `scan` built for them.
FusionResult time_partition(GroupScanner& scan, const std::vector<OpMapping>& mappings,
                            const std::vector<int>& starts) {
  const int n = static_cast<int>(mappings.size());
  FusionResult result;
  result.ops.resize(mappings.size());
  result.groups = static_cast<int>(starts.size());
  for (std::size_t g = 0; g < starts.size(); ++g) {
    const int first = starts[g];
    const int end = g + 1 < starts.size() ? starts[g + 1] : n;
    scan.start(first);
    for (int j = first; j < end; ++j) result.feasible = scan.extend(j) && result.feasible;
    for (int j = first; j < end; ++j) {
      result.ops[j] = scan.timing(j, mappings[j].compute_s, static_cast<int>(g));
      result.latency_s += result.ops[j].time_s;
      result.dram_bytes += result.ops[j].dram_bytes;
    }
  }
  return result;
}

}  // namespace

FusionResult plan_fusion(const AccelWorkload& workload, const std::vector<OpMapping>& mappings,
                         const std::vector<double>& layout, const AcceleratorSpec& spec, FusionMode mode) {
  if (mode == FusionMode::ilp) return plan_fusion_ilp(workload, mappings, layout, spec).plan;
  const int n = static_cast<int>(workload.ops.size());
  GroupScanner scan(workload, mappings, layout, spec);
  std::vector<int> starts;  // first op of each group, ascending
  if (mode == FusionMode::none) {
    for (int i = 0; i < n; ++i) starts.push_back(i);
  } else if (mode == FusionMode::greedy || mode == FusionMode::epilogue) {
    const bool stop_at_matrix = mode == FusionMode::epilogue;
    int first = 0;
    while (first < n) {
      starts.push_back(first);
      scan.start(first);
      int j = first;
      while (j < n && j - first < kMaxGroupOps &&
             !(stop_at_matrix && j > first && workload.ops[j].category == OpCategory::matrix) && scan.extend(j))
        ++j;
      first = std::max(j, first + 1);
    }
  } else {
    std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
    std::vector<int> from(n + 1, 0);
    best[0] = 0;
    for (int first = 0; first < n; ++first) {
      scan.start(first);
      for (int j = first; j < n && j - first < kMaxGroupOps; ++j) {
        if (!scan.extend(j)) break;
        const double total = best[first] + scan.cost();
        if (total < best[j + 1]) {
          best[j + 1] = total;
          from[j + 1] = first;
        }
      }
    }
    for (int end = n; end > 0; end = from[end]) starts.push_back(from[end]);
    std::reverse(starts.begin(), starts.end());
  }

  return time_partition(scan, mappings, starts);
}

FusionResult evaluate_partition(const AccelWorkload& workload, const std::vector<OpMapping>& mappings,
                                const std::vector<double>& layout, const AcceleratorSpec& spec,
                                const std::vector<int>& starts) {
  GroupScanner scan(workload, mappings, layout, spec);
  return time_partition(scan, mappings, starts);
}

}  // namespace dse
