// Transformers. Published parameter counts (MACs computed from the architecture, see docs/models.md):
// - vit_b16 (torchvision): 86,567,656 params, 17.56 G MACs at 224x224.
// - bert_base / bert_large (Hugging Face BertModel with pooler, Devlin et al. 2019: "110M" and
//   "340M"): 109,482,240 and 335,141,888 params; default sequence length 128.
// - gpt2, gpt2_medium, gpt2_large, gpt2_xl (Hugging Face GPT2LMHeadModel, LM head tied to the token
//   embedding): 124,439,808 / 354,823,168 / 774,030,080 / 1,557,611,200 params. Prefill processes
//   seq_len tokens (default 1024); decode processes seq_len new tokens (default 1) against past_len
//   cached ones (default 1023) per layer's KV cache.
// - gpt3_2_7b and gpt3_6_7b (Brown et al. 2020, "2.7B" and "6.7B"): 2,651,553,280 and
//   6,658,404,352 params; opt_1_3b (Zhang et al. 2022, "1.3B"): 1,315,758,080. All prefill 2,048
//   tokens by default (decoder_lm.h).
#include "models/zoo/decoder_lm.h"
#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::AttentionInputs;
using zoo::AttentionShape;

// Post-norm block (BERT): ln(x + attn(x)); ln(x + mlp(x)), each sublayer's output dropped first in
// training (BertSelfOutput, BertOutput).
TensorId post_norm_block(Graph& g, const std::string& name, TensorId x, AttentionShape shape, std::int64_t hidden,
                         const AttentionInputs& inputs) {
  const bool drop = inputs.dropouts.sublayer_output;
  auto y = zoo::self_attention(g, name + ".attn", x, shape, inputs);
  x = ops::layernorm(g, name + ".ln1",
                     ops::add(g, name + ".residual1", x, zoo::dropped(g, name + ".attn_dropout", y, drop)));
  y = zoo::mlp(g, name + ".mlp", x, hidden, OpKind::gelu);
  return ops::layernorm(g, name + ".ln2",
                        ops::add(g, name + ".residual2", x, zoo::dropped(g, name + ".mlp_dropout", y, drop)));
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
  for (int i = 0; i < 12; ++i) x = zoo::pre_norm_block(g, "layer" + std::to_string(i), x, {12, 64}, 3072, OpKind::gelu);
  x = ops::layernorm(g, "ln", x);
  x = ops::reshape(g, "class_token.out", ops::slice(g, "class_token.select", x, 1, 0, 1), {p.batch, d});
  ops::linear(g, "head", x, 1000);
  return g;
}

struct BertSize {
  const char* name;
  std::int64_t layers, d, heads;
};

// BertModel with its pooler; with `pretraining`, BertForPreTraining: the masked-LM head (dense D -> D,
// GELU, layer norm, then the decoder onto the vocabulary, its weights tied to the word embeddings and
// a bias of its own) and the next-sentence head (pooled D -> 2). In training (p.training) the
// embeddings, attention probabilities and sublayer outputs are dropped (hidden_dropout_prob and
// attention_probs_dropout_prob, both 0.1 in every published BERT).
Graph bert(const BertSize& size, const ModelParams& p, bool pretraining = false) {
  constexpr std::int64_t kVocab = 30522;
  Graph g(std::string(size.name) + (pretraining ? "_pretraining" : ""));
  const std::int64_t len = p.seq_len ? p.seq_len : 128, d = size.d;
  if (len > 512) throw std::invalid_argument(std::string(size.name) + ": sequence length above 512 positions");
  const auto ids = g.add_input("input_ids", {p.batch, len}, DType::int64);
  const auto types = g.add_input("token_type_ids", {p.batch, len}, DType::int64);
  const auto positions = g.add_input("position_ids", {1, len}, DType::int64);
  const auto mask = g.add_input("attention_mask", {p.batch, 1, 1, len}, p.dtype);  // 0 or -inf per key
  auto x = ops::embedding(g, "word_embed", ids, kVocab, d, p.dtype);
  x = ops::add(g, "embed.add_type", x, ops::embedding(g, "type_embed", types, 2, d, p.dtype));
  x = ops::add(g, "embed.add_position", x, ops::embedding(g, "position_embed", positions, 512, d, p.dtype));
  x = ops::layernorm(g, "embed.ln", x);
  x = zoo::dropped(g, "embed.dropout", x, p.training);
  const AttentionInputs inputs{mask, std::nullopt, {p.training, p.training}};
  for (std::int64_t i = 0; i < size.layers; ++i)
    x = post_norm_block(g, "layer" + std::to_string(i), x, {size.heads, d / size.heads}, 4 * d, inputs);
  auto pooled = ops::reshape(g, "pooler.first", ops::slice(g, "pooler.select", x, 1, 0, 1), {p.batch, d});
  pooled = ops::unary(g, "pooler.tanh", OpKind::tanh, ops::linear(g, "pooler.dense", pooled, d));
  if (!pretraining) return g;
  auto h = ops::unary(g, "mlm.transform.gelu", OpKind::gelu, ops::linear(g, "mlm.transform.dense", x, d));
  h = ops::layernorm(g, "mlm.transform.ln", h);
  // The tied weights are word_embed's table read again: a constant, not a second set of parameters.
  const auto tied = g.add_constant("mlm.decoder.tied_weight", {kVocab, d}, p.dtype, false);
  ops::add(g, "mlm.decoder.bias", ops::matmul(g, "mlm.decoder", h, tied, true),
           g.add_constant("mlm.decoder.bias_weight", {kVocab}, p.dtype));
  ops::linear(g, "nsp.classifier", pooled, 2);
  return g;
}

constexpr BertSize kBertBase{"bert_base", 12, 768, 12}, kBertLarge{"bert_large", 24, 1024, 16};
// GPT2LMHeadModel sizes (Radford et al. 2019; Hugging Face configs gpt2 ... gpt2-xl), GPT-3 2.7B
// (Brown et al. 2020, Table 2.1: 32 layers, d_model 2,560, 32 heads of 80, 2,048-token context; the
// GPT-2 architecture and vocabulary) and OPT-1.3B (Zhang et al. 2022, Table 1, and Hugging Face's
// facebook/opt-1.3b config: 24 layers, 2,048 wide, 32 heads, FFN 8,192, ReLU, vocabulary 50,272,
// learned positions 2,048 + 2).
zoo::DecoderLmConfig gpt2_size(const char* name, std::int64_t layers, std::int64_t width, std::int64_t heads,
                               std::int64_t positions = 1024) {
  return {name, layers, width, heads, 4 * width, 50257, positions, positions, zoo::Activation::hugging_face_gelu_new()};
}
const zoo::DecoderLmConfig kGpt2[] = {gpt2_size("gpt2", 12, 768, 12), gpt2_size("gpt2_medium", 24, 1024, 16),
                                      gpt2_size("gpt2_large", 36, 1280, 20), gpt2_size("gpt2_xl", 48, 1600, 25)};
const zoo::DecoderLmConfig kGpt3_2_7b = gpt2_size("gpt3_2_7b", 32, 2560, 32, 2048);
const zoo::DecoderLmConfig kGpt3_6_7b = gpt2_size("gpt3_6_7b", 32, 4096, 32, 2048);  // Table 2.1: 32 heads of 128
const zoo::DecoderLmConfig kOpt1_3b{"opt_1_3b", 24, 2048, 32, 8192, 50272, 2048, 2050, OpKind::relu, false, false};

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "vit_b16", "ViT-B/16 (torchvision), 224x224", vit_b16)
DSE_REGISTER_FACTORY(ModelZoo, "bert_base", "BERT-base encoder with pooler (Hugging Face), seq 128",
                     [](const ModelParams& p) { return bert(kBertBase, p); })
DSE_REGISTER_FACTORY(ModelZoo, "bert_large", "BERT-large encoder with pooler (Hugging Face), seq 128",
                     [](const ModelParams& p) { return bert(kBertLarge, p); })
DSE_REGISTER_FACTORY(ModelZoo, "bert_base_pretraining",
                     "BERT-base with BertForPreTraining's masked-LM and next-sentence heads (Hugging Face), seq 128",
                     [](const ModelParams& p) { return bert(kBertBase, p, true); })
DSE_REGISTER_FACTORY(ModelZoo, "bert_large_pretraining",
                     "BERT-large with BertForPreTraining's masked-LM and next-sentence heads (Hugging Face), seq 128",
                     [](const ModelParams& p) { return bert(kBertLarge, p, true); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2", "GPT-2 small 124M with LM head; prefill 1024 or decode with a KV cache",
                     [](const ModelParams& p) { return zoo::decoder_lm(kGpt2[0], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2_medium", "GPT-2 medium 355M with LM head; prefill or decode",
                     [](const ModelParams& p) { return zoo::decoder_lm(kGpt2[1], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2_large", "GPT-2 large 774M with LM head; prefill or decode",
                     [](const ModelParams& p) { return zoo::decoder_lm(kGpt2[2], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt2_xl", "GPT-2 XL 1.5B with LM head; prefill or decode",
                     [](const ModelParams& p) { return zoo::decoder_lm(kGpt2[3], p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt3_2_7b",
                     "GPT-3 2.7B (GPT-2 architecture, 2,048 positions) with LM head; prefill or decode",
                     [](const ModelParams& p) { return zoo::decoder_lm(kGpt3_2_7b, p); })
DSE_REGISTER_FACTORY(ModelZoo, "gpt3_6_7b",
                     "GPT-3 6.7B (GPT-2 architecture, 2,048 positions) with LM head; prefill or decode",
                     [](const ModelParams& p) { return zoo::decoder_lm(kGpt3_6_7b, p); })
DSE_REGISTER_FACTORY(ModelZoo, "opt_1_3b", "OPT-1.3B (Meta) with LM head; prefill 2048 or decode",
                     [](const ModelParams& p) { return zoo::decoder_lm(kOpt1_3b, p); })

}  // namespace dse
