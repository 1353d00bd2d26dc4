// Building blocks shared by the zoo builders (internal to models/zoo).
#pragma once

#include <string>

#include "models/ops/op_library.h"
#include "models/zoo/zoo.h"

namespace dse::zoo {

// A square window; ceil_mode as PyTorch's pooling option.
Window square(std::int64_t kernel, std::int64_t stride, std::int64_t pad, bool ceil_mode = false);

// conv (no bias) -> batch norm -> activation (none when `activation` is nullopt).
TensorId conv_bn_act(Graph& g, const std::string& name, TensorId x, std::int64_t out_channels, std::int64_t kernel,
                     std::int64_t stride, std::optional<OpKind> activation, std::int64_t groups = 1);
// Squeeze-and-excitation: global pool, 1x1 conv (bias) -> act -> 1x1 conv (bias) -> gate, scale.
TensorId squeeze_excite(Graph& g, const std::string& name, TensorId x, std::int64_t squeeze_channels, OpKind activation,
                        OpKind gate);
// Rounds channels as the MobileNet/EfficientNet reference code does (_make_divisible).
std::int64_t make_divisible(double value, std::int64_t divisor = 8);

// Transformer encoder/decoder layer pieces on [B, L, D] activations.
struct AttentionShape {
  std::int64_t heads;
  std::int64_t head_dim;
};
// The dropouts a training forward pass runs (ops::dropout): Hugging Face applies each in training only,
// and PyTorch runs none at a rate of 0. Inference runs none.
struct Dropouts {
  bool attention_probs = false;  // on the softmax's probabilities
  bool sublayer_output = false;  // on the attention's and the MLP's outputs, before their residual adds
};
// `x` dropped (ops::dropout named `name`) when `active`, else `x` itself.
TensorId dropped(Graph& g, const std::string& name, TensorId x, bool active);
struct AttentionInputs {
  std::optional<TensorId> mask;                           // added to the scaled scores
  std::optional<std::pair<TensorId, TensorId>> kv_cache;  // past K, V: [B, H, past, dh]
  Dropouts dropouts;                                      // what a training pass drops
};
// [B, L, heads x head_dim] -> [B, heads, L, head_dim]: a view, then a transpose.
TensorId split_heads(Graph& g, const std::string& name, TensorId x, AttentionShape shape);
// RMS layer norm (T5, Llama) as eager PyTorch runs it, one kernel per step: pow, mean over the last
// dimension, add eps, rsqrt, multiply, multiply by the learnt weight (D parameters).
TensorId rms_norm(Graph& g, const std::string& name, TensorId x);
// Self-attention with one packed QKV projection D -> 3D (bias; the same parameters and MACs as
// separate Q, K, V projections), heads split by reshape + transpose, S = Q K^T, scale, optional
// mask, softmax (its probabilities dropped in training: inputs.dropouts.attention_probs), O = P V,
// heads merged, output projection D -> D (bias). With a KV cache the new K and V are appended to it
// first.
TensorId self_attention(Graph& g, const std::string& name, TensorId x, AttentionShape shape,
                        const AttentionInputs& inputs = {});
// Hugging Face's NewGELUActivation ("gelu_new": GPT-2's activation, and that of the GPT-3
// configurations built on GPT2LMHeadModel): the tanh GELU written out in PyTorch ops,
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), which eager PyTorch runs as eight kernels:
// mul, pow, mul, add, mul, tanh, add, mul (NeuSight's traces of gpt2_large time all eight on every
// GPU: trsharm25/NeuSight, scripts/asplos/label/*/gpt2_large-inf-1024-4.csv). fuse_elementwise
// makes them one kernel again, as torch.compile does.
TensorId gelu_new(Graph& g, const std::string& name, TensorId x);
// An MLP's activation as the model's code computes it: one op of `kind`, or gelu_new's eight.
struct Activation {
  OpKind kind = OpKind::gelu;
  bool gelu_new = false;
  Activation(OpKind one_op) : kind(one_op) {}  // NOLINT(google-explicit-constructor): one op is the usual case
  static Activation hugging_face_gelu_new() {
    Activation written_out(OpKind::gelu);
    written_out.gelu_new = true;
    return written_out;
  }
};
// Two linears with an activation between: D -> hidden -> D.
TensorId mlp(Graph& g, const std::string& name, TensorId x, std::int64_t hidden, Activation activation);
// Pre-norm block (ViT, GPT-2, OPT): x + attn(ln1(x)); x + mlp(ln2(x)), each sublayer's output
// dropped first in training (inputs.dropouts.sublayer_output).
TensorId pre_norm_block(Graph& g, const std::string& name, TensorId x, AttentionShape shape, std::int64_t hidden,
                        Activation activation, const AttentionInputs& inputs = {});

}  // namespace dse::zoo
