#include "models/zoo/decoder_lm.h"

#include <stdexcept>

#include "models/zoo/layers.h"

namespace dse::zoo {

Graph decoder_lm(const DecoderLmConfig& config, const ModelParams& p) {
  const std::string name = config.name + (p.decode ? "_decode" : "_prefill");
  Graph g(name);
  const std::int64_t d = config.width, heads = config.heads, dh = d / heads;
  const std::int64_t len = p.seq_len ? p.seq_len : (p.decode ? 1 : config.positions);
  const std::int64_t past = p.decode ? (p.past_len ? p.past_len : config.positions - 1) : 0;
  if (p.training && p.decode)
    throw std::invalid_argument(name + ": a decode step is inference; a training pass runs the whole sequence");
  if (past + len > config.positions)
    throw std::invalid_argument(name + ": past + new tokens above its " + std::to_string(config.positions) +
                                " positions");
  const auto ids = g.add_input("input_ids", {p.batch, len}, DType::int64);
  const auto positions = g.add_input("position_ids", {1, len}, DType::int64);
  const auto wte = g.add_constant("wte", {config.vocab, d}, p.dtype);
  auto x = ops::gather(g, "token_embed", wte, ids, 0);
  x = ops::add(g, "embed.add_position", x,
               ops::embedding(g, "position_embed", positions, config.position_rows, d, p.dtype));
  x = dropped(g, "embed.dropout", x, p.training && config.embedding_dropout);
  // Causal mask over (past + new) keys: a literal, not a parameter.
  const auto mask = g.add_constant("causal_mask", {1, 1, len, past + len}, p.dtype, false);
  for (std::int64_t i = 0; i < config.layers; ++i) {
    AttentionInputs inputs{mask, std::nullopt, {p.training && config.attention_probs_dropout, p.training}};
    const std::string layer = "layer" + std::to_string(i);
    if (p.decode)
      inputs.kv_cache = std::pair{g.add_input(layer + ".past_k", {p.batch, heads, past, dh}, p.dtype),
                                  g.add_input(layer + ".past_v", {p.batch, heads, past, dh}, p.dtype)};
    x = pre_norm_block(g, layer, x, {heads, dh}, config.ffn, config.activation, inputs);
  }
  x = ops::layernorm(g, "ln_f", x);
  ops::matmul(g, "lm_head", x, wte, true);  // tied to the token embedding
  return g;
}

}  // namespace dse::zoo
