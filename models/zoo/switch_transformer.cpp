#include "models/zoo/switch_transformer.h"

#include "models/zoo/layers.h"

namespace dse::zoo {
namespace {

// T5 attention: q, k, v and o without biases, no 1/sqrt(dk) scaling, the position bias (with the
// mask folded in, [B, H, Lq, Lk]) added to the scores, softmax, output projection.
TensorId attention(Graph& g, const std::string& name, TensorId x, TensorId kv_source, TensorId bias,
                   const SwitchTransformerConfig& c, bool training) {
  const Shape s = g.tensor(x).shape;
  const std::int64_t inner = c.heads * c.d_kv;
  const auto q = split_heads(g, name + ".q", ops::linear(g, name + ".q", x, inner, false), {c.heads, c.d_kv});
  const auto k = split_heads(g, name + ".k", ops::linear(g, name + ".k", kv_source, inner, false), {c.heads, c.d_kv});
  const auto v = split_heads(g, name + ".v", ops::linear(g, name + ".v", kv_source, inner, false), {c.heads, c.d_kv});
  auto scores = ops::matmul(g, name + ".scores", q, k, true);
  scores = ops::add(g, name + ".position_bias", scores, bias);
  const auto probs = dropped(g, name + ".probs_dropout", ops::softmax(g, name + ".softmax", scores, -1), training);
  auto out = ops::transpose(g, name + ".merge", ops::matmul(g, name + ".context", probs, v), {0, 2, 1, 3});
  out = ops::reshape(g, name + ".merge_view", out, {s[0], s[1], inner});
  return ops::linear(g, name + ".o", out, c.d_model, false);
}

// wi -> relu -> wo; in training the activations are dropped before wo (DenseActDense's dropout).
TensorId dense_act_dense(Graph& g, const std::string& name, TensorId x, const SwitchTransformerConfig& c,
                         bool training) {
  const auto h = ops::relu(g, name + ".act", ops::linear(g, name + ".wi", x, c.d_ff, false));
  return ops::linear(g, name + ".wo", dropped(g, name + ".dropout", h, training), c.d_model, false);
}

// Top-1 routing (router logits, softmax, argmax, one-hot, the capacity cut by a cumulative sum over
// the sequence, the top probability), then per expert: the routed tokens gathered into a buffer
// of batch x capacity rows, the expert's feed-forward on the whole buffer, the rows scattered back
// into a copy of the input; the result scaled by the router probability. In training the router
// first multiplies its input by uniform noise in [1 - jitter, 1 + jitter] (router_jitter_noise:
// torch.empty_like(x).uniform_() and a product, two kernels; the draw, which only writes, is built
// reading x for its shape: one pass of x more than PyTorch moves).
TensorId sparse_mlp(Graph& g, const std::string& name, TensorId x, const SwitchTransformerConfig& c, bool training) {
  const Shape s = g.tensor(x).shape;  // [B, L, D]
  const DType dtype = g.tensor(x).dtype;
  if (training) {
    const auto noise = ops::elementwise(g, name + ".jitter_noise", "uniform", {x}, 2);
    x = ops::mul(g, name + ".jitter", x, noise);
  }
  const auto logits = ops::linear(g, name + ".router", x, c.experts, false);
  const auto probs = ops::softmax(g, name + ".router_softmax", logits, -1);
  const auto top = ops::reduce(g, name + ".argmax", OpKind::reduce_max, probs, {-1}, true);
  const auto one_hot = ops::elementwise(g, name + ".one_hot", "one_hot", {probs, top}, 1, DType::int64);
  const auto priority = ops::elementwise(g, name + ".cumsum", "cumsum", {one_hot}, 1);
  const auto capacity = g.add_constant(name + ".capacity", {1}, DType::int64, false);
  const auto mask = ops::elementwise(g, name + ".capacity_mask", "less_equal_mul", {priority, capacity, one_hot}, 2);
  const auto router_prob = ops::reduce(g, name + ".router_prob", OpKind::reduce_max, probs, {-1}, true);
  const auto flat = ops::reshape(g, name + ".flat", x, {s[0] * s[1], s[2]});
  const auto next = ops::cast(g, name + ".clone", x, dtype);  // hidden_states.clone()
  const std::int64_t rows = s[0] * c.expert_capacity;
  // torch.zeros(batch x capacity, D): each expert's input buffer, whatever number of tokens it gets.
  const auto padded = g.add_constant(name + ".padded", {rows, s[2]}, dtype, false);
  for (std::int64_t e = 0; e < c.experts; ++e) {
    const std::string expert = name + ".expert" + std::to_string(e);
    const auto chosen = ops::elementwise(g, expert + ".chosen", "nonzero",
                                         {ops::slice(g, expert + ".column", mask, -1, e, e + 1)}, 1, DType::int64);
    // The first of nonzero()'s indices: at most batch x capacity tokens reach an expert.
    const auto index =
        ops::slice(g, expert + ".index", ops::reshape(g, expert + ".all", chosen, {s[0] * s[1]}), 0, 0, rows);
    ops::gather(g, expert + ".gather", flat, index, 0);  // padded[:n] = hidden_states[token_indices]
    // The buffer the expert reads (torch.zeros once per layer, the gathered rows into it each expert):
    // one write of its batch x capacity rows per expert stands for both.
    const auto buffer = ops::elementwise(g, expert + ".buffer", "copy", {padded}, 0);
    const auto out = dense_act_dense(g, expert, buffer, c, training);
    ops::gather(g, expert + ".scatter", out, index, 0);  // next_states[token_indices] = ...
  }
  return ops::mul(g, name + ".scale", router_prob, next);
}

TensorId embed(Graph& g, const std::string& name, TensorId table, TensorId ids) {
  return ops::gather(g, name, table, ids, 0);
}

// compute_bias: the relative position buckets of every (query, key) pair (a dozen integer ops per
// pair, as Hugging Face's _relative_position_bucket writes them: sub, abs or min, lt, log, div, mul,
// add, min, where), looked up in the [buckets, heads] table, plus the additive mask: [B, H, Lq, Lk].
TensorId position_bias(Graph& g, const std::string& name, std::int64_t lq, std::int64_t lk, TensorId mask,
                       const SwitchTransformerConfig& c, DType dtype) {
  const auto positions = g.add_constant(name + ".positions", {lq, 1}, DType::int64, false);
  const auto memory = g.add_constant(name + ".memory", {1, lk}, DType::int64, false);
  const auto buckets =
      ops::elementwise(g, name + ".buckets", "relative_position_bucket", {positions, memory}, 12, DType::int64);
  auto values = ops::embedding(g, name + ".relative_attention_bias", buckets, c.relative_buckets, c.heads, dtype);
  values = ops::reshape(g, name + ".bias_view", ops::transpose(g, name + ".bias_heads", values, {2, 0, 1}),
                        {1, c.heads, lq, lk});
  return ops::add(g, name + ".masked", values, mask);
}

}  // namespace

Graph switch_transformer(const SwitchTransformerConfig& c, const ModelParams& p) {
  Graph g(c.name);
  const std::int64_t len = p.seq_len ? p.seq_len : 512, b = p.batch;
  const auto ids = g.add_input("input_ids", {b, len}, DType::int64);
  const auto decoder_ids = g.add_input("decoder_input_ids", {b, len}, DType::int64);
  const auto decoder_mask = g.add_input("decoder_attention_mask", {b, len}, DType::int64);
  const auto shared = g.add_constant("shared", {c.vocab, c.d_model}, p.dtype);

  // Encoder: no attention mask given, so Hugging Face's extended mask is zeros [B, 1, 1, L].
  const auto encoder_mask = g.add_constant("encoder.mask", {b, 1, 1, len}, p.dtype, false);
  const auto encoder_bias = position_bias(g, "encoder.block0.attn", len, len, encoder_mask, c, p.dtype);
  // Training drops (dropout_rate) the embeddings, the attention probabilities, the feed-forwards'
  // activations, every sublayer's output before its residual add and each stack's final norm.
  const auto drop = [&](TensorId t, const std::string& name) { return dropped(g, name + "_dropout", t, p.training); };
  const auto feed_forward = [&](const std::string& layer, std::int64_t i, TensorId h) {
    return i % c.sparse_step == 1 ? sparse_mlp(g, layer + ".moe", h, c, p.training)
                                  : dense_act_dense(g, layer + ".mlp", h, c, p.training);
  };
  auto x = drop(embed(g, "encoder.embed", shared, ids), "encoder.embed");
  for (std::int64_t i = 0; i < c.encoder_layers; ++i) {
    const std::string layer = "encoder.block" + std::to_string(i);
    auto h = rms_norm(g, layer + ".ln1", x);
    x = ops::add(g, layer + ".residual1", x,
                 drop(attention(g, layer + ".attn", h, h, encoder_bias, c, p.training), layer + ".attn"));
    h = rms_norm(g, layer + ".ln2", x);
    x = ops::add(g, layer + ".residual2", x, drop(feed_forward(layer, i, h), layer + ".ff"));
  }
  const auto encoded = drop(rms_norm(g, "encoder.ln_f", x), "encoder.ln_f");

  // Decoder: the causal mask from decoder_attention_mask, [B, 1, L, L]; cross-attention's bias is
  // zeros plus the encoder's mask.
  const auto causal = ops::elementwise(g, "decoder.causal_mask", "causal_mask",
                                       {ops::reshape(g, "decoder.mask_view", decoder_mask, {b, 1, 1, len}),
                                        g.add_constant("decoder.seq_ids", {1, 1, len, 1}, DType::int64, false)},
                                       3, p.dtype);
  const auto self_bias = position_bias(g, "decoder.block0.attn", len, len, causal, c, p.dtype);
  const auto cross_bias =
      ops::add(g, "decoder.cross_bias", g.add_constant("decoder.cross_zeros", {1, c.heads, len, len}, p.dtype, false),
               encoder_mask);
  auto y = drop(embed(g, "decoder.embed", shared, decoder_ids), "decoder.embed");
  for (std::int64_t i = 0; i < c.decoder_layers; ++i) {
    const std::string layer = "decoder.block" + std::to_string(i);
    auto h = rms_norm(g, layer + ".ln1", y);
    y = ops::add(g, layer + ".residual1", y,
                 drop(attention(g, layer + ".attn", h, h, self_bias, c, p.training), layer + ".attn"));
    y = ops::add(
        g, layer + ".residual2", y,
        drop(attention(g, layer + ".cross", rms_norm(g, layer + ".ln2", y), encoded, cross_bias, c, p.training),
             layer + ".cross"));
    h = rms_norm(g, layer + ".ln3", y);
    y = ops::add(g, layer + ".residual3", y, drop(feed_forward(layer, i, h), layer + ".ff"));
  }
  y = drop(rms_norm(g, "decoder.ln_f", y), "decoder.ln_f");
  // Tied embeddings: the output is scaled by d_model^-0.5 before the LM head (the shared table).
  y = ops::mul(g, "decoder.scale", y, g.add_constant("decoder.model_dim_scale", {1}, p.dtype, false));
  ops::matmul(g, "lm_head", y, shared, true);
  return g;
}

}  // namespace dse::zoo
