// The Switch Transformer encoder-decoder (Fedus et al. 2022), as Hugging Face's
// SwitchTransformersForConditionalGeneration runs it in eager PyTorch, from its configuration:
// T5-style blocks (RMS layer norms of separate kernels, attention without biases or scaling plus a
// relative position bias computed once per stack), every second feed-forward layer a top-1 routed
// mixture of experts with a per-sequence expert capacity. Not a zoo model: no published model has
// the configurations measured (`dse validate e2e` builds NeuSight's; docs/validation.md).
#pragma once

#include <cstdint>
#include <string>

#include "models/graph.h"
#include "models/zoo/zoo.h"

namespace dse::zoo {

struct SwitchTransformerConfig {
  std::string name;
  std::int64_t d_model = 0, d_kv = 0, heads = 0, d_ff = 0;
  std::int64_t encoder_layers = 0, decoder_layers = 0;
  std::int64_t sparse_step = 2;  // layers i with i % sparse_step == 1 route to experts
  std::int64_t experts = 0;
  std::int64_t expert_capacity = 0;  // tokens per expert per sequence
  std::int64_t vocab = 0;
  std::int64_t relative_buckets = 32;
};

// One forward pass of seq_len encoder tokens and as many decoder tokens (default 512 each), batch
// p.batch. Each expert runs its feed-forward on a buffer of batch x capacity tokens, gathered from
// and scattered back to the tokens routed to it (NeuSight's collector times the experts so:
// trsharm25/NeuSight, neusight/Tracing/trace.py, custom_switchtransmlp_forward).
Graph switch_transformer(const SwitchTransformerConfig& config, const ModelParams& p);

}  // namespace dse::zoo
