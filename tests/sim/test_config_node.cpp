#include <gtest/gtest.h>

#include "sim/config/config_loader.h"

namespace dse {
namespace {

ConfigNode parse(const std::string& text) { return load_config_text(text, "test.yaml"); }

// The message of the ConfigError that `read` throws.
template <class F>
std::string error_of(F&& read) {
  try {
    read();
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST(ConfigNode, TypedReadsWithDefaultsAndRanges) {
  const ConfigNode root = parse("a: 3\nb: 2.5\nc: true\nd: hello\ne: '7'\n");
  EXPECT_EQ(root.param<int>("a").in_range(1, 4).required(), 3);
  EXPECT_DOUBLE_EQ(root.param<double>("b").required(), 2.5);
  EXPECT_TRUE(root.param<bool>("c").required());
  EXPECT_EQ(root.param<std::string>("d").one_of({"hello", "world"}).required(), "hello");
  EXPECT_EQ(root.param<std::string>("e").required(), "7");
  EXPECT_EQ(root.param<int>("missing").with_default(42), 42);
  EXPECT_FALSE(root.param<int>("missing").optional().has_value());
  EXPECT_DOUBLE_EQ(root.param<double>("a").required(), 3.0);  // an integer is a number
}

TEST(ConfigNode, ErrorsNameFileLineColumnAndKeyPath) {
  const ConfigNode root = parse("outer:\n  inner: [1, two]\n  n: 0\n  s: \"8\"\n");
  const ConfigNode& inner = *root.find("outer")->find("inner");
  EXPECT_EQ(error_of([&] { inner.items()[1].as<int>(); }),
            "test.yaml:2:14: outer.inner[1]: expected an integer, found \"two\"");
  EXPECT_EQ(error_of([&] { root.find("outer")->param<int>("n").in_range(1, 9).required(); }),
            "test.yaml:3:6: outer.n: expected an integer in [1, 9], found 0");
  // A quoted number is a string, not an integer.
  EXPECT_EQ(error_of([&] { root.find("outer")->param<int>("s").required(); }),
            "test.yaml:4:6: outer.s: expected an integer, found \"8\"");
  EXPECT_EQ(error_of([&] { root.find("outer")->param<int>("gone").required(); }),
            "test.yaml:2:3: outer.gone: expected key 'gone' (an integer), found a mapping without it");
  EXPECT_EQ(error_of([&] { root.param<std::string>("outer").required(); }),
            "test.yaml:2:3: outer: expected a string, found a mapping");
}

TEST(ConfigNode, BooleansAndNumbersAreStrict) {
  const ConfigNode root = parse("b: yes\nx: 1.5\nbig: 3000000000\nn: .nan\n");
  EXPECT_EQ(error_of([&] { root.param<bool>("b").required(); }),
            "test.yaml:1:4: b: expected true or false, found \"yes\"");
  EXPECT_EQ(error_of([&] { root.param<int>("x").required(); }), "test.yaml:2:4: x: expected an integer, found \"1.5\"");
  EXPECT_EQ(error_of([&] { root.param<int>("big").required(); }),
            "test.yaml:3:6: big: expected an integer that fits in 32 bits, found 3000000000");
  EXPECT_EQ(root.param<std::int64_t>("big").required(), 3'000'000'000);
  EXPECT_EQ(error_of([&] { root.param<double>("n").required(); }),
            "test.yaml:4:4: n: expected a number, found \".nan\"");
}

TEST(ConfigNode, UnknownKeysListValidOnesWithSuggestion) {
  const ConfigNode root = parse("name: x\ndevice: {gpu: h200, gpuu: a100}\n");
  root.param<std::string>("name").required();
  const ConfigNode& device = *root.find("device");
  device.param<std::string>("gpu").required();
  device.has("timing_model");  // asked for, absent: still a valid key here
  EXPECT_EQ(error_of([&] { root.check_unknown_keys(); }),
            "test.yaml:2:21: device.gpuu: expected one of the keys gpu, timing_model, found unknown key 'gpuu'; "
            "did you mean 'gpu'?");
}

TEST(ConfigNode, OneOfListsChoices) {
  const ConfigNode root = parse("dtype: fp61\n");
  EXPECT_EQ(error_of([&] {
              root.param<std::string>("dtype").one_of({"fp16", "fp32"}, "a dtype").required();
            }),
            "test.yaml:1:8: dtype: expected a dtype (fp16, fp32), found \"fp61\"; did you mean 'fp16'?");
}

}  // namespace dse
