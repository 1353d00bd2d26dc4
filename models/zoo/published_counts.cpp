#include "models/zoo/published_counts.h"

namespace dse {
namespace {

ModelParams at(int resolution) {
  ModelParams p;
  p.resolution = resolution;
  return p;
}

ModelParams seq(int length) {
  ModelParams p;
  p.seq_len = length;
  return p;
}

}  // namespace

const std::vector<PublishedCount>& published_counts() {
  // torchvision: the "Params" and "GFLOPS" columns of the torchvision.models documentation (its
  // GFLOPS are multiply-accumulates, counted at each model's evaluation crop).
  static const std::string tv = "torchvision model docs";
  static const std::string tf_slim_v1 = "TF-slim mobilenet_v1.md table (Howard et al. 2017)";
  static const std::string tf_slim_v2 = "TF-slim mobilenet/README.md table (Sandler et al. 2018)";
  static const std::string keras = "Keras Applications table (counts batch-norm moving statistics too)";
  static const std::string hf = "Hugging Face transformers, num_parameters()";
  static const std::vector<PublishedCount> counts = {
      {"alexnet", at(224), 61'100'840, 0.71, tv},
      {"vgg16", at(224), 138'357'544, 15.47, tv},
      {"vgg19", at(224), 143'667'240, 19.63, tv},
      {"squeezenet1_1", at(224), 1'235'496, 0.35, tv},
      {"googlenet", at(224), 6'624'904, 1.50, tv},
      {"resnet18", at(224), 11'689'512, 1.81, tv},
      {"resnet34", at(224), 21'797'672, 3.66, tv},
      {"resnet50", at(224), 25'557'032, 4.09, tv},
      {"resnet101", at(224), 44'549'160, 7.80, tv},
      {"resnet152", at(224), 60'192'808, 11.51, tv},
      {"resnet_v2_50", at(224), 25.6e6, std::nullopt, keras},
      {"resnet_v2_101", at(224), 44.7e6, std::nullopt, keras},
      {"resnet_v2_152", at(224), 60.4e6, std::nullopt, keras},
      // torchvision's 27,161,264 includes the training-only AuxLogits head: 128*768 + 2*128 (conv0 + bn)
      // + 768*128*25 + 2*768 (conv1 + bn) + 768*1000 + 1000 (fc) = 3,326,696.
      {"inception_v3", at(299), 27'161'264 - 3'326'696, 5.71, tv + " (less AuxLogits)"},
      {"inception_v4", at(299), 42'679'816, 12.28, "timm model card inception_v4.tf_in1k"},
      {"mobilenet_v1", at(224), 4.24e6, 0.569, tf_slim_v1},
      {"mobilenet_v1_050", at(224), 1.34e6, 0.150, tf_slim_v1},
      {"mobilenet_v1_025", at(224), 0.47e6, 0.041, tf_slim_v1},
      {"mobilenet_v2", at(224), 3'504'872, 0.30, tv},
      {"mobilenet_v2_140", at(224), 6.06e6, 0.582, tf_slim_v2},
      {"mobilenet_v3_large", at(224), 5'483'032, 0.22, tv},
      {"efficientnet_b0", at(224), 5'288'548, 0.39, tv},
      {"efficientnet_b1", at(240), 7'794'184, 0.69, tv},
      {"efficientnet_b2", at(288), 9'109'994, 1.09, tv},
      {"efficientnet_b3", at(300), 12'233'232, 1.83, tv},
      {"efficientnet_b4", at(380), 19'341'616, 4.39, tv},
      {"efficientnet_b5", at(456), 30'389'784, 10.27, tv},
      {"efficientnet_b6", at(528), 43'040'704, 19.07, tv},
      {"efficientnet_b7", at(600), 66'347'960, 37.75, tv},
      {"vit_b16", at(224), 86'567'656, 17.56, tv},
      {"bert_base", seq(128), 110e6, std::nullopt, "Devlin et al. 2019 (BERT), Section 3: 110M"},
      {"bert_large", seq(128), 335'141'888, std::nullopt, hf + " (BertModel, bert-large-uncased)"},
      // BertForPreTraining adds the masked-LM transform (D x D + D, layer norm 2D), the decoder's bias
      // (30,522; its weights are the word embeddings') and the next-sentence classifier (2D + 2).
      {"bert_base_pretraining", seq(128), 110'106'428, std::nullopt,
       "Hugging Face Hub, google-bert/bert-base-uncased: its BertForPreTraining checkpoint's safetensors "
       "parameter count"},
      {"bert_large_pretraining", seq(128), 336'226'108, std::nullopt,
       "Hugging Face Hub, google-bert/bert-large-uncased: its BertForPreTraining checkpoint's parameter count"},
      {"gpt2", ModelParams{}, 124'439'808, std::nullopt, hf + " (GPT2LMHeadModel, gpt2)"},
      {"gpt2_medium", ModelParams{}, 354'823'168, std::nullopt, hf + " (gpt2-medium)"},
      {"gpt2_large", ModelParams{}, 774'030'080, std::nullopt, hf + " (gpt2-large)"},
      {"gpt2_xl", ModelParams{}, 1'557'611'200, std::nullopt, hf + " (gpt2-xl)"},
      // Published rounded: a paper's "2.7B" holds a count from 2.65 to 2.75 billion.
      {"gpt3_2_7b", ModelParams{}, 2.7e9, std::nullopt, "Brown et al. 2020 (GPT-3), Table 2.1: 2.7B", 0.1e9},
      {"gpt3_6_7b", ModelParams{}, 6.7e9, std::nullopt, "Brown et al. 2020 (GPT-3), Table 2.1: 6.7B", 0.1e9},
      {"llama2_7b", ModelParams{}, 6'738'415'616, std::nullopt, hf + " (LlamaForCausalLM, meta-llama/Llama-2-7b-hf)"},
      {"opt_1_3b", ModelParams{}, 1.3e9, std::nullopt, "Zhang et al. 2022 (OPT), Table 1: 1.3B", 0.1e9},
  };
  return counts;
}

}  // namespace dse
