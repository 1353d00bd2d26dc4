// Every zoo model against its published parameter and MAC counts (the figures and their sources:
// models/zoo/published_counts.cpp): params within 1 % (or half the step of a figure published
// rounded), MACs within 2 %, batch 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "models/zoo/published_counts.h"
#include "models/zoo/switch_transformer.h"

namespace dse {

class ZooCounts : public ::testing::TestWithParam<PublishedCount> {};

TEST_P(ZooCounts, MatchPublishedFigures) {
  const PublishedCount& published = GetParam();
  const auto* entry = ModelRegistry::instance().find(published.model);
  ASSERT_NE(entry, nullptr) << published.model;
  const OpCost total = entry->factory(published.params).total_cost();
  EXPECT_NEAR(static_cast<double>(total.params), published.parameters, parameter_tolerance(published));
  if (published.gmacs) {
    EXPECT_NEAR(static_cast<double>(total.macs) / 1e9, *published.gmacs, kMacTolerance * *published.gmacs);
  }
}

void PrintTo(const PublishedCount& count, std::ostream* out) { *out << count.model; }

INSTANTIATE_TEST_SUITE_P(Published, ZooCounts, ::testing::ValuesIn(published_counts()),
                         [](const auto& info) { return info.param.model; });

TEST(ZooCounts, EveryZooModelHasAPublishedFigure) {
  std::set<std::string> covered;
  for (const auto& count : published_counts()) covered.insert(count.model);
  for (const auto& name : ModelRegistry::instance().names()) EXPECT_TRUE(covered.contains(name)) << name;
}

TEST(ZooCounts, BatchScalesMacsNotParams) {
  for (const char* name : {"mobilenet_v3_large", "vit_b16", "bert_base", "gpt2"}) {
    const auto& build = ModelRegistry::instance().find(name)->factory;
    ModelParams one, four;
    four.batch = 4;
    const OpCost a = build(one).total_cost(), b = build(four).total_cost();
    EXPECT_EQ(a.params, b.params) << name;
    EXPECT_EQ(4 * a.macs, b.macs) << name;
  }
}

TEST(Gpt2, DecodeReadsTheKvCacheAndTiesTheLmHead) {
  const auto& build = ModelRegistry::instance().find("gpt2")->factory;
  ModelParams decode;
  decode.decode = true;
  decode.past_len = 511;
  const Graph g = build(decode);
  EXPECT_EQ(g.name(), "gpt2_decode");
  // 2 inputs + past K and V for each of 12 layers.
  EXPECT_EQ(g.inputs().size(), 2u + 24u);
  EXPECT_EQ(g.total_cost().params, 124'439'808);  // tied LM head counted once
  // Per layer, the scores matmul reads the whole cache: K of 512 positions x 64 x 12 heads.
  for (const auto& op : g.ops()) {
    if (op.name == "layer0.attn.scores") {
      ASSERT_EQ(op.gemms.size(), 1u);
      EXPECT_EQ(op.gemms[0], (GemmView{12, 1, 512, 64}));
    }
  }
  // One token: MACs ~ 2 x params (every weight once) + attention over the cache.
  const double macs = static_cast<double>(g.total_cost().macs);
  EXPECT_GT(macs, 124e6);
  EXPECT_LT(macs, 200e6);
  decode.past_len = 1024;
  EXPECT_THROW(build(decode), std::invalid_argument);
}

// The decoder-only language models beyond GPT-2, counted from their configurations' figures:
// OPT-1.3B (facebook/opt-1.3b: 24 layers, 2,048 wide, FFN 8,192, ReLU, vocabulary 50,272, 2,050
// learned position rows) and GPT-3 2.7B (GPT-2 architecture, 32 layers, 2,560 wide, 2,048 positions).
TEST(DecoderLm, OptAndGpt3CountWhatTheirConfigurationsDescribe) {
  const auto count_kind = [](const Graph& g, OpKind kind) {
    return std::count_if(g.ops().begin(), g.ops().end(), [&](const Op& op) { return op.kind == kind; });
  };
  const Graph opt = ModelRegistry::instance().find("opt_1_3b")->factory(ModelParams{});
  const std::int64_t d = 2048, ffn = 8192;
  const std::int64_t opt_layer = 4 * (d * d + d) + (d * ffn + ffn) + (ffn * d + d) + 2 * 2 * d;
  EXPECT_EQ(opt.total_cost().params, 50272 * d + 2050 * d + 24 * opt_layer + 2 * d);
  EXPECT_EQ(count_kind(opt, OpKind::relu), 24);
  EXPECT_EQ(count_kind(opt, OpKind::gelu), 0);
  EXPECT_EQ(opt.tensor(opt.inputs().front()).shape, (Shape{1, 2048}));  // prefill: every position

  const auto& gpt3 = ModelRegistry::instance().find("gpt3_2_7b")->factory;
  const std::int64_t w = 2560;
  EXPECT_EQ(gpt3(ModelParams{}).total_cost().params, 50257 * w + 2048 * w + 32 * (12 * w * w + 13 * w) + 2 * w);
  ModelParams decode;
  decode.decode = true;  // one token against 2,047 cached
  const Graph step = gpt3(decode);
  const auto scores =
      std::find_if(step.ops().begin(), step.ops().end(), [](const Op& op) { return op.name == "layer0.attn.scores"; });
  ASSERT_NE(scores, step.ops().end());
  EXPECT_EQ(scores->gemms.at(0), (GemmView{32, 1, 2048, 80}));
  decode.past_len = 2048;
  EXPECT_THROW(gpt3(decode), std::invalid_argument);

  // Llama 2 7B: SwiGLU MLPs (a SiLU per layer), rotary embeddings on q and k (a neg each), 4,096
  // positions.
  const auto& llama = ModelRegistry::instance().find("llama2_7b")->factory;
  const Graph prefill = llama(ModelParams{});
  EXPECT_EQ(count_kind(prefill, OpKind::silu), 32);
  EXPECT_EQ(count_kind(prefill, OpKind::neg), 64);
  EXPECT_EQ(prefill.tensor(prefill.inputs().front()).shape, (Shape{1, 4096}));
  ModelParams llama_decode;
  llama_decode.decode = true;
  llama_decode.past_len = 4096;
  EXPECT_THROW(llama(llama_decode), std::invalid_argument);
}

// A training forward pass runs the dropouts Hugging Face's code applies in training at a rate
// above 0, each writing its keep mask (a byte per element) besides its result; the parameters and
// MACs are the inference pass's.
TEST(TrainingForward, DropsWhereTheModelsCodeDoes) {
  const auto dropouts = [](const Graph& g) {
    std::int64_t n = 0;
    for (const auto& op : g.ops()) {
      if (op.kind != OpKind::elementwise || std::get<std::string>(op.attributes.at("function")) != "dropout") continue;
      ++n;
      const std::int64_t elements = g.tensor(op.output).elements();
      EXPECT_EQ(op.cost.bytes_written, elements * 4 + elements) << op.name;  // fp32 result + bool mask
      EXPECT_EQ(op.cost.bytes_read, elements * 4) << op.name;
    }
    return n;
  };
  ModelParams train;
  train.training = true;
  for (const auto& [name, expected] :
       std::vector<std::pair<std::string, std::int64_t>>{
           {"gpt2", 1 + 3 * 12},                     // embeddings; per layer probabilities, attention, MLP
           {"opt_1_3b", 2 * 24},                     // attention and MLP outputs only (attention_dropout 0)
           {"bert_large_pretraining", 1 + 3 * 24}})  // embeddings; probabilities, BertSelfOutput, BertOutput
  {
    const auto& build = ModelRegistry::instance().find(name)->factory;
    const Graph inference = build(ModelParams{}), training = build(train);
    EXPECT_EQ(dropouts(inference), 0) << name;
    EXPECT_EQ(dropouts(training), expected) << name;
    EXPECT_EQ(training.total_cost().params, inference.total_cost().params) << name;
    EXPECT_EQ(training.total_cost().macs, inference.total_cost().macs) << name;
  }
  // Switch: also each feed-forward's activations and the routers' jitter noise (24 routed layers).
  const zoo::SwitchTransformerConfig c{"switch", 1024, 128, 32, 16384, 24, 24, 2, 4, 64, 32128};
  const Graph switch_train = zoo::switch_transformer(c, train);
  EXPECT_GT(dropouts(switch_train), 0);
  EXPECT_EQ(std::count_if(switch_train.ops().begin(), switch_train.ops().end(),
                          [](const Op& op) { return op.name.ends_with(".jitter"); }),
            24);
  ModelParams decode = train;
  decode.decode = true;
  EXPECT_THROW(ModelRegistry::instance().find("gpt2")->factory(decode), std::invalid_argument);
}

// NeuSight's Switch Transformer configuration (switchxl4.json): every parameter its configuration
// implies, every second feed-forward layer routed to four experts whose feed-forward runs on
// batch x capacity tokens, and the LM head tied to the shared embedding.
TEST(SwitchTransformer, BuildsItsConfiguration) {
  const zoo::SwitchTransformerConfig c{"switch", 1024, 128, 32, 16384, 24, 24, 2, 4, 64, 32128};
  ModelParams p;
  p.batch = 2;
  p.seq_len = 512;
  const Graph g = zoo::switch_transformer(c, p);
  const std::int64_t d = 1024, inner = 32 * 128, ff = 2 * d * 16384, attn = 4 * d * inner;
  const std::int64_t encoder = 24 * (attn + 2 * d) + 12 * ff + 12 * (d * 4 + 4 * ff) + 32 * 32 + d;
  const std::int64_t decoder = 24 * (2 * attn + 3 * d) + 12 * ff + 12 * (d * 4 + 4 * ff) + 32 * 32 + d;
  EXPECT_EQ(g.total_cost().params, 32128 * d + encoder + decoder);
  int routers = 0, expert_ffns = 0;
  for (const auto& op : g.ops()) {
    routers += op.name.ends_with(".router");
    if (op.name.ends_with(".wi") && op.name.find(".expert") != std::string::npos) {
      ++expert_ffns;
      EXPECT_EQ(op.gemms.at(0).m, 2 * 64) << op.name;  // batch x capacity rows
    }
  }
  EXPECT_EQ(routers, 24);
  EXPECT_EQ(expert_ffns, 24 * 4);
}

}  // namespace dse
