// Llama 2 7B (Touvron et al. 2023) as Hugging Face's LlamaForCausalLM runs it in eager PyTorch
// (transformers 4.40, meta-llama/Llama-2-7b-hf config: 32 layers, 4,096 wide, 32 heads of 128,
// SwiGLU MLP of 11,008, vocabulary 32,000, 4,096 positions, no biases, LM head not tied):
// 6,738,415,616 parameters. RMS norms and rotary embeddings run as the separate kernels eager
// PyTorch launches for them: RMS norm as pow, mean, add, rsqrt, mul and the weight's mul; the rotary
// embedding as q x cos + rotate_half(q) x sin (a neg, a cat, two muls and an add, for q and for k),
// with cos and sin computed per layer. Prefill processes seq_len tokens (default 4,096); decode
// processes seq_len new tokens (default 1) against past_len cached ones (default 4,095).
#include <stdexcept>

#include "models/zoo/layers.h"

namespace dse {
namespace {

constexpr std::int64_t kLayers = 32, kWidth = 4096, kHeads = 32, kHeadDim = 128, kFfn = 11008, kVocab = 32000,
                       kPositions = 4096;

// x [B, H, L, dh] -> x * cos + rotate_half(x) * sin, rotate_half(x) = cat(-x[..., dh/2:], x[..., :dh/2]).
TensorId rotary(Graph& g, const std::string& name, TensorId x, TensorId cos, TensorId sin) {
  const auto half = kHeadDim / 2;
  const auto low = ops::slice(g, name + ".low", x, -1, 0, half);
  const auto high = ops::unary(g, name + ".neg", OpKind::neg, ops::slice(g, name + ".high", x, -1, half, kHeadDim));
  const auto rotated = ops::concat(g, name + ".rotate_half", {high, low}, -1);
  return ops::add(g, name + ".embed", ops::mul(g, name + ".cos", x, cos), ops::mul(g, name + ".sin", rotated, sin));
}

Graph llama2_7b(const ModelParams& p) {
  const std::string name = std::string("llama2_7b") + (p.decode ? "_decode" : "_prefill");
  Graph g(name);
  const std::int64_t len = p.seq_len ? p.seq_len : (p.decode ? 1 : kPositions);
  const std::int64_t past = p.decode ? (p.past_len ? p.past_len : kPositions - 1) : 0;
  if (past + len > kPositions)
    throw std::invalid_argument(name + ": past + new tokens above its " + std::to_string(kPositions) + " positions");
  const auto ids = g.add_input("input_ids", {p.batch, len}, DType::int64);
  const auto positions = g.add_input("position_ids", {1, len}, DType::int64);
  auto x = ops::embedding(g, "embed_tokens", ids, kVocab, kWidth, p.dtype);
  // The causal mask over (past + new) keys, built once per pass from the positions.
  const auto mask = ops::elementwise(g, "causal_mask", "causal_mask",
                                     {ops::reshape(g, "causal_mask.rows", positions, {1, 1, len, 1}),
                                      g.add_constant("causal_mask.keys", {1, 1, 1, past + len}, DType::int64, false)},
                                     3, p.dtype);
  const auto scale = g.add_constant("attn.scale", {1}, p.dtype, false);  // sqrt(head_dim)
  for (std::int64_t i = 0; i < kLayers; ++i) {
    const std::string layer = "layer" + std::to_string(i);
    auto h = zoo::rms_norm(g, layer + ".input_norm", x);
    const auto q =
        zoo::split_heads(g, layer + ".q", ops::linear(g, layer + ".q_proj", h, kWidth, false), {kHeads, kHeadDim});
    auto k = zoo::split_heads(g, layer + ".k", ops::linear(g, layer + ".k_proj", h, kWidth, false), {kHeads, kHeadDim});
    auto v = zoo::split_heads(g, layer + ".v", ops::linear(g, layer + ".v_proj", h, kWidth, false), {kHeads, kHeadDim});
    // cos and sin of the new positions, [1, 1, L, dh], recomputed by each layer's rotary module.
    const auto freqs =
        ops::elementwise(g, layer + ".rotary.freqs", "outer",
                         {ops::reshape(g, layer + ".rotary.positions", positions, {1, 1, len, 1}),
                          g.add_constant(layer + ".rotary.inv_freq", {1, 1, 1, kHeadDim}, p.dtype, false)},
                         1, p.dtype);
    // 8 flops per cos or sin: nominal (no source counts them); [L, 128] elements, launch-bound either way.
    const auto cos = ops::elementwise(g, layer + ".rotary.cos", "cos", {freqs}, 8);
    const auto sin = ops::elementwise(g, layer + ".rotary.sin", "sin", {freqs}, 8);
    const auto q_rot = rotary(g, layer + ".q_rotary", q, cos, sin);
    k = rotary(g, layer + ".k_rotary", k, cos, sin);
    if (p.decode) {
      k = ops::kv_cache_append(g, layer + ".k_cache",
                               g.add_input(layer + ".past_k", {p.batch, kHeads, past, kHeadDim}, p.dtype), k);
      v = ops::kv_cache_append(g, layer + ".v_cache",
                               g.add_input(layer + ".past_v", {p.batch, kHeads, past, kHeadDim}, p.dtype), v);
    }
    auto scores =
        ops::binary(g, layer + ".scaled", OpKind::div, ops::matmul(g, layer + ".scores", q_rot, k, true), scale);
    scores = ops::add(g, layer + ".masked", scores, mask);
    auto out = ops::matmul(g, layer + ".context", ops::softmax(g, layer + ".softmax", scores, -1), v);
    out = ops::transpose(g, layer + ".merge_heads", out, {0, 2, 1, 3});  // .transpose(1, 2).contiguous()
    out = ops::reshape(g, layer + ".merge_view", out, {p.batch, len, kWidth});
    x = ops::add(g, layer + ".residual1", x, ops::linear(g, layer + ".o_proj", out, kWidth, false));
    h = zoo::rms_norm(g, layer + ".post_norm", x);
    const auto gate = ops::unary(g, layer + ".act", OpKind::silu, ops::linear(g, layer + ".gate_proj", h, kFfn, false));
    const auto up = ops::linear(g, layer + ".up_proj", h, kFfn, false);
    x = ops::add(g, layer + ".residual2", x,
                 ops::linear(g, layer + ".down_proj", ops::mul(g, layer + ".gated", gate, up), kWidth, false));
  }
  x = zoo::rms_norm(g, "norm", x);
  ops::linear(g, "lm_head", x, kVocab, false);
  return g;
}

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "llama2_7b", "Llama 2 7B (Hugging Face LlamaForCausalLM); prefill 4096 or decode",
                     llama2_7b)

}  // namespace dse
