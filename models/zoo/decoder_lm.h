// Decoder-only language models (GPT-2 / GPT-3 and OPT, as Hugging Face's GPT2LMHeadModel and
// OPTForCausalLM build them) from their configuration: the zoo registers the published sizes, and
// `dse validate e2e` builds the configurations a measurement ran that no published model has.
#pragma once

#include <cstdint>
#include <string>

#include "models/graph.h"
#include "models/zoo/layers.h"
#include "models/zoo/zoo.h"

namespace dse::zoo {

struct DecoderLmConfig {
  std::string name;
  std::int64_t layers = 0, width = 0, heads = 0;
  std::int64_t ffn = 0;            // MLP hidden width (4 x width in both families)
  std::int64_t vocab = 0;          // rows of the token embedding, tied to the LM head
  std::int64_t positions = 0;      // longest past + new tokens
  std::int64_t position_rows = 0;  // learned position embedding rows (OPT adds 2 to positions)
  Activation activation = Activation::hugging_face_gelu_new();  // GPT-2; OPT: relu
  // What a training pass drops (p.training) besides each sublayer's output: GPT-2 its embeddings
  // (embd_pdrop) and attention probabilities (attn_pdrop), both 0.1; OPT neither (its decoder has no
  // embedding dropout and its attention_dropout is 0; NeuSight's H100 traces of opt_13 training time
  // the probabilities' dropout at 8 us, a no-op, and its sublayers' at 23 us).
  bool embedding_dropout = true, attention_probs_dropout = true;
};

// Token and position embeddings, `layers` pre-norm blocks (layer norm -> self-attention with a
// packed QKV projection and the causal mask -> residual; layer norm -> MLP -> residual), a final
// layer norm and the LM head tied to the token embedding. In training (p.training) the embeddings,
// the attention probabilities and each sublayer's output are dropped as the configuration says.
// Prefill processes seq_len tokens (default: all positions) or, with `decode`, seq_len new tokens
// (default 1) against past_len cached ones (default positions - 1) per layer's KV cache. Graph name:
// NAME_prefill or NAME_decode.
Graph decoder_lm(const DecoderLmConfig& config, const ModelParams& p);

}  // namespace dse::zoo
