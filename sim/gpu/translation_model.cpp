#include "sim/gpu/translation_model.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace dse {
namespace {

// Pages (of `page_bytes`) that `rows` consecutive rows `row_bytes` apart touch at one column: a
// page holds page / row bytes of them, plus the boundary a run crosses on average; rows a page or
// more apart each have their own.
double pages_spanned(double rows, double row_bytes, double page_bytes) {
  return row_bytes >= page_bytes ? rows : std::min(rows, rows * row_bytes / page_bytes + 1.0);
}

// Pages of the row ranges [first, first + count), merged where they touch.
double pages_of_runs(std::vector<std::pair<std::int64_t, std::int64_t>> runs, double row_bytes, double page_bytes) {
  std::ranges::sort(runs);
  double pages = 0;
  std::int64_t start = 0, end = -1;
  for (const auto& [first, count] : runs) {
    if (end >= first) {
      end = std::max(end, first + count);
      continue;
    }
    if (end > start) pages += pages_spanned(static_cast<double>(end - start), row_bytes, page_bytes);
    start = first;
    end = first + count;
  }
  if (end > start) pages += pages_spanned(static_cast<double>(end - start), row_bytes, page_bytes);
  return pages;
}

}  // namespace

TlbPressure tlb_pressure(const Kernel& kernel, const L1Tlb& tlb, int sm_count, std::int64_t blocks_per_sm) {
  const Kernel::GemmFootprint& f = kernel.gemm_footprint;
  TlbPressure p;
  if (f.steps() <= 0 || f.tile_m <= 0 || f.tile_n <= 0) return p;
  std::vector<std::pair<std::int64_t, std::int64_t>> a_runs, b_runs;
  std::vector<std::int64_t> b_matrices;
  const std::int64_t tiles_n = f.tiles_n(), tiles_m = f.tiles_m(), per_matrix = tiles_m * tiles_n;
  for (int sm = 0; sm < tlb.sms_sharing; ++sm)
    for (std::int64_t j = 0; j < blocks_per_sm; ++j) {
      const std::int64_t block = sm + j * sm_count;
      if (block >= kernel.blocks) break;
      const std::int64_t x = block % tiles_n, y = block / tiles_n % tiles_m, z = block / per_matrix % f.matrices;
      a_runs.emplace_back(z * f.m + y * f.tile_m, std::min(f.tile_m, f.m - y * f.tile_m));
      const std::int64_t b_matrix = f.b_batched ? z : 0;
      if (f.b_transposed)
        b_runs.emplace_back(b_matrix * f.n + x * f.tile_n, std::min(f.tile_n, f.n - x * f.tile_n));
      else
        b_matrices.push_back(b_matrix);
    }
  // std::unique, not std::ranges::unique: clang with libstdc++ 12 (the fuzz build) rejects the latter.
  std::ranges::sort(b_matrices);
  b_matrices.erase(std::unique(b_matrices.begin(), b_matrices.end()), b_matrices.end());
  p.pages = pages_of_runs(a_runs, f.a_row_bytes(), tlb.page_bytes) +
            (f.b_transposed ? pages_of_runs(b_runs, f.b_row_bytes(), tlb.page_bytes)
                            : static_cast<double>(b_matrices.size()) *
                                  pages_spanned(static_cast<double>(f.b_rows()), f.b_row_bytes(), tlb.page_bytes));
  p.miss_share = p.pages > 0 ? std::max(0.0, 1.0 - tlb.entries() / p.pages) : 0.0;
  p.row_reads_per_sm = static_cast<double>(std::min(blocks_per_sm, kernel.blocks) * (f.a_rows() + f.b_rows()));
  return p;
}

}  // namespace dse
