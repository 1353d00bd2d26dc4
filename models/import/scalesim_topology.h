// SCALE-Sim topology CSVs as a model source (SCALE-Sim v2's own format, so its users can bring
// their files as they are). Conv form: "Layer name, IFMAP Height, IFMAP Width, Filter Height,
// Filter Width, Channels, Num Filter, Strides"; GEMM form: "Layer, M, N, K". Each row becomes one
// layer with its own input, in file order. Conv outputs are sized as SCALE-Sim sizes them,
// ceil((H - FH + S) / S) with no padding; a GEMM row is A[M x K] x B[K x N].
#pragma once

#include <string>

#include "models/graph.h"

namespace dse {

enum class TopologyForm { automatic, conv, gemm };

// UserError "FILE:LINE:COL: COLUMN: expected ..., found ..." on bad rows.
Graph import_scalesim_topology(const std::string& path, TopologyForm form = TopologyForm::automatic,
                               DType dtype = DType::int8);

}  // namespace dse
