// Transformers. Published parameter counts (MACs computed from the architecture, see docs/models.md):
// - vit_b16 (torchvision): 86,567,656 params, 17.56 G MACs at 224x224.
// - bert_base / bert_large (Hugging Face BertModel with pooler, Devlin et al. 2019: "110M" and
//   "340M"): 109,482,240 and 335,141,888 params; default sequence length 128.
// - gpt2, gpt2_medium, gpt2_large, gpt2_xl (Hugging Face GPT2LMHeadModel, LM head tied to the token
//   embedding): 124,439,808 / 354,823,168 / 774,030,080 / 1,557,611,200 params. Prefill processes
//   seq_len tokens (default 1024); decode processes seq_len new tokens (default 1) against past_len
//   cached ones (default 1023) per layer's KV cache.
#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::AttentionInputs;
using zoo::AttentionShape;

// Pre-norm block (ViT, GPT-2): x + attn(ln(x)); x + mlp(ln(x)).
TensorId pre_norm_block(Graph& g, const std::string& name, TensorId x, AttentionShape shape, std::int64_t hidden,
                        const AttentionInputs& inputs = {}) {
  auto y = zoo::self_attention(g, name + ".attn", ops::layernorm(g, name + ".ln1", x), shape, inputs);
  x = ops::add(g, name + ".residual1", x, y);
  y = zoo::mlp(g, name + ".mlp", ops::layernorm(g, name + ".ln2", x), hidden, OpKind::gelu);
  return ops::add(g, name + ".residual2", x, y);
}

// Post-norm block (BERT): ln(x + attn(x)); ln(x + mlp(x)).
TensorId post_norm_block(Graph& g, const std::string& name, TensorId x, AttentionShape shape, std::int64_t hidden,
                         const AttentionInputs& inputs) {
  auto y = zoo::self_attention(g, name + ".attn", x, shape, inputs);
  x = ops::layernorm(g, name + ".ln1", ops::add(g, name + ".residual1", x, y));
  y = zoo::mlp(g, name + ".mlp", x, hidden, OpKind::gelu);
  return ops::layernorm(g, name + ".ln2", ops::add(g, name + ".residual2", x, y));
}

Graph vit_b16(const ModelParams& p) {
  Graph g("vit_b16");
  const int r = p.resolution ? p.resolution : 224;
  if (r % 16 != 0) throw std::invalid_argument("vit_b16: resolution must be a multiple of 16");
  const std::int64_t d = 768, patches = (r / 16) * (r / 16), tokens = patches + 1;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = ops::conv2d(g, "patch_embed", x, d, zoo::square(16, 16, 0), 1, true);
  x = ops::reshape(g, "patch_embed.flatten", x, {p.batch, d, patches});
  x = ops::transpose(g, "patch_embed.tokens", x, {0, 2, 1});
  const auto cls =
      ops::expand(g, "class_token", g.add_constant("class_token.weight", {1, 1, d}, p.dtype), {p.batch, 1, d});
  x = ops::concat(g, "tokens", {cls, x}, 1);
  x = ops::add(g, "pos_embed", x, g.add_constant("pos_embed.weight", {1, tokens, d}, p.dtype));
  for (int i = 0; i < 12; ++i) x = pre_norm_block(g, "layer" + std::to_string(i), x, {12, 64}, 3072);
  x = ops::layernorm(g, "ln", x);
  x = ops::reshape(g, "class_token.out", ops::slice(g, "class_token.select", x, 1, 0, 1), {p.batch, d});
  ops::linear(g, "head", x, 1000);
  return g;
}

struct BertSize {
  const char* name;
  std::int64_t layers, d, heads;
};

Graph bert(const BertSize& size, const ModelParams& p) {
  Graph g(size.name);
  const std::int64_t len = p.seq_len ? p.seq_len : 128, d = size.d;
  if (len > 512) throw std::invalid_argument(std::string(size.name) + ": sequence length above 512 positions");
  const auto ids = g.add_input("input_ids", {p.batch, len}, DType::int64);
  const auto types = g.add_input("token_type_ids", {p.batch, len}, DType::int64);
  const auto positions = g.add_input("position_ids", {1, len}, DType::int64);
  const auto mask = g.add_input("attention_mask", {p.batch, 1, 1, len}, p.dtype);  // 0 or -inf per key
  auto x = ops::embedding(g, "word_embed", ids, 30522, d, p.dtype);
  x = ops::add(g, "embed.add_type", x, ops::embedding(g, "type_embed", types, 2, d, p.dtype));
  x = ops::add(g, "embed.add_position", x, ops::embedding(g, "position_embed", positions, 512, d, p.dtype));
  x = ops::layernorm(g, "embed.ln", x);
  for (std::int64_t i = 0; i < size.layers; ++i)
    x = post_norm_block(g, "layer" + std::to_string(i), x, {size.heads, d / size.heads}, 4 * d, {mask, std::nullopt});
  auto pooled = ops::reshape(g, "pooler.first", ops::slice(g, "pooler.select", x, 1, 0, 1), {p.batch, d});
  ops::unary(g, "pooler.tanh", OpKind::tanh, ops::linear(g, "pooler.dense", pooled, d));
  return g;
}

struct Gpt2Size {
  const char* name;
  std::int64_t layers, d, heads;
};

Graph gpt2(const Gpt2Size& size, const ModelParams& p) {
  const std::string name = std::string(size.name) + (p.decode ? "_decode" : "_prefill");
  Graph g(name);
  const std::int64_t d = size.d, heads = size.heads, dh = d / heads;
  const std::int64_t len = p.seq_len ? p.seq_len : (p.decode ? 1 : 1024);
  const std::int64_t past = p.decode ? (p.past_len ? p.past_len : 1023) : 0;
  if (past + len > 1024) throw std::invalid_argument(name + ": past + new tokens above GPT-2's 1024 positions");
  const auto ids = g.add_input("input_ids", {p.batch, len}, DType::int64);
  const auto positions = g.add_input("position_ids", {1, len}, DType::int64);
  const auto wte = g.add_constant("wte", {50257, d}, p.dtype);
  auto x = ops::gather(g, "token_embed", wte, ids, 0);
  x = ops::add(g, "embed.add_position", x, ops::embedding(g, "position_embed", positions, 1024, d, p.dtype));
  // Causal mask over (past + new) keys: a literal, not a parameter.
  const auto mask = g.add_constant("causal_mask", {1, 1, len, past + len}, p.dtype, false);
  for (std::int64_t i = 0; i < size.layers; ++i) {
    AttentionInputs inputs{mask, std::nullopt};
    if (p.decode) {
      const std::string layer = "layer" + std::to_string(i);
      inputs.kv_cache = std::pair{g.add_input(layer + ".past_k", {p.batch, heads, past, dh}, p.dtype),
                                  g.add_input(layer + ".past_v", {p.batch, heads, past, dh}, p.dtype)};
    }
    x = pre_norm_block(g, "layer" + std::to_string(i), x, {heads, dh}, 4 * d, inputs);
  }
  x = ops::layernorm(g, "ln_f", x);
  ops::matmul(g, "lm_head", x, wte, true);  // tied to the token embedding
  return g;
}

constexpr BertSize kBertBase{"bert_base", 12, 768, 12}, kBertLarge{"bert_large", 24, 1024, 16};
constexpr Gpt2Size kGpt2[] = {
    {"gpt2", 12, 768, 12}, {"gpt2_medium", 24, 1024, 16}, {"gpt2_large", 36, 1280, 20}, {"gpt2_xl", 48, 1600, 25}};

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "vit_b16", "ViT-B/16 (torchvision), 224x224", vit_b16)
DSE_REGISTER_FACTORY(ModelZoo, "bert_base", "BERT-base encoder with pooler (Hugging Face), seq 128",
                     [](const ModelParams& p) { return bert(kBertBase, p); })
DSE_REGISTER_FACTORY(ModelZoo, "bert_large", "BERT-large encoder with pooler (Hugging Face), seq 128",
                     [](const ModelParams& p) { return bert(kBertLarge, p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2", "GPT-2 small 124M with LM head; prefill 1024 or decode with a KV cache",
                     [](const ModelParams& p) { return gpt2(kGpt2[0], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2_medium", "GPT-2 medium 355M with LM head; prefill or decode",
                     [](const ModelParams& p) { return gpt2(kGpt2[1], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2_large", "GPT-2 large 774M with LM head; prefill or decode",
                     [](const ModelParams& p) { return gpt2(kGpt2[2], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2_xl", "GPT-2 XL 1.5B with LM head; prefill or decode",
                     [](const ModelParams& p) { return gpt2(kGpt2[3], p); })

}  // namespace dse
