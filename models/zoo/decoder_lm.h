// Decoder-only language models (GPT-2 / GPT-3 and OPT, as Hugging Face's GPT2LMHeadModel and
// OPTForCausalLM build them) from their configuration: the zoo registers the published sizes, and
// `dse validate e2e` builds the configurations a measurement ran that no published model has.
#pragma once

#include <cstdint>
#include <string>

#include "models/graph.h"
#include "models/zoo/zoo.h"

namespace dse::zoo {

struct DecoderLmConfig {
  std::string name;
  std::int64_t layers = 0, width = 0, heads = 0;
  std::int64_t ffn = 0;            // MLP hidden width (4 x width in both families)
  std::int64_t vocab = 0;          // rows of the token embedding, tied to the LM head
  std::int64_t positions = 0;      // longest past + new tokens
  std::int64_t position_rows = 0;  // learned position embedding rows (OPT adds 2 to positions)
  OpKind activation = OpKind::gelu;
};

// Token and position embeddings, `layers` pre-norm blocks (layer norm -> self-attention with a
// packed QKV projection and the causal mask -> residual; layer norm -> MLP -> residual), a final
// layer norm and the LM head tied to the token embedding. Prefill processes seq_len tokens
// (default: all positions) or, with `decode`, seq_len new tokens (default 1) against past_len cached
// ones (default positions - 1) per layer's KV cache. Graph name: NAME_prefill or NAME_decode.
Graph decoder_lm(const DecoderLmConfig& config, const ModelParams& p);

}  // namespace dse::zoo
