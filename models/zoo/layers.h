// Building blocks shared by the zoo builders (internal to models/zoo).
#pragma once

#include <string>

#include "models/ops/op_library.h"
#include "models/zoo/zoo.h"

namespace dse::zoo {

Window square(std::int64_t kernel, std::int64_t stride, std::int64_t pad, bool ceil_mode = false);

// conv (no bias) -> batch norm -> activation (none when `activation` is nullopt).
TensorId conv_bn_act(Graph& g, const std::string& name, TensorId x, std::int64_t out_channels, std::int64_t kernel,
                     std::int64_t stride, std::optional<OpKind> activation, std::int64_t groups = 1);
// Squeeze-and-excitation: global pool, 1x1 conv (bias) -> act -> 1x1 conv (bias) -> gate, scale.
TensorId squeeze_excite(Graph& g, const std::string& name, TensorId x, std::int64_t squeeze_channels,
                        OpKind activation, OpKind gate);
// Rounds channels as the MobileNet/EfficientNet reference code does (_make_divisible).
std::int64_t make_divisible(double value, std::int64_t divisor = 8);

// Transformer encoder/decoder layer pieces on [B, L, D] activations.
struct AttentionShape {
  std::int64_t heads;
  std::int64_t head_dim;
};
// Self-attention with one packed QKV projection D -> 3D (bias), heads split by reshape + transpose,
// S = Q K^T, scale, (causal) softmax, O = P V, heads merged, output projection D -> D (bias).
// With `kv_cache` = {past_k, past_v} ([B, H, past, dh]) the new K and V are appended first.
TensorId self_attention(Graph& g, const std::string& name, TensorId x, AttentionShape shape,
                        std::optional<std::pair<TensorId, TensorId>> kv_cache = std::nullopt);
// Two linears with an activation between: D -> hidden -> D.
TensorId mlp(Graph& g, const std::string& name, TensorId x, std::int64_t hidden, OpKind activation);

}  // namespace dse::zoo
