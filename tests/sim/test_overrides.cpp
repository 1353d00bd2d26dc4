#include <gtest/gtest.h>

#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"

namespace dse {
namespace {

std::string override_error(ConfigNode root, const std::string& assignment) {
  try {
    apply_override(root, assignment, 1);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

const char* kConfig = "name: x\nworkload:\n  models:\n    - {name: resnet50, batch: 8}\n";

}  // namespace

TEST(Overrides, SetExistingAndNewKeysAndItems) {
  ConfigNode root = load_config_text(kConfig, "x.yaml");
  apply_overrides(
      root, {"workload.models[0].batch=16", "device.gpu=h200", "workload.models[1]={name: resnet18}", "name=renamed"});
  const ConfigNode& model0 = root.find("workload")->find("models")->items()[0];
  EXPECT_EQ(model0.param<int>("batch").required(), 16);
  EXPECT_EQ(model0.find("batch")->path(), "workload.models[0].batch");
  EXPECT_EQ(model0.find("batch")->mark().str(), "(-p #1):1:26");
  EXPECT_EQ(root.find("device")->find("gpu")->text(), "h200");
  EXPECT_EQ(root.find("workload")->find("models")->items()[1].find("name")->text(), "resnet18");
  EXPECT_EQ(root.find("workload")->find("models")->items()[1].find("name")->path(), "workload.models[1].name");
  EXPECT_EQ(root.find("name")->text(), "renamed");
}

TEST(Overrides, ValuesAreTypedLaterLikeFileValues) {
  ConfigNode root = load_config_text(kConfig, "x.yaml");
  apply_override(root, "workload.models[0].batch=eight", 3);
  const ConfigNode& model0 = root.find("workload")->find("models")->items()[0];
  try {
    model0.param<int>("batch").required();
    FAIL() << "expected an error";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(), "(-p #3):1:26: workload.models[0].batch: expected an integer, found \"eight\"");
  }
}

TEST(Overrides, MalformedAssignmentsAreErrors) {
  const ConfigNode root = load_config_text(kConfig, "x.yaml");
  EXPECT_EQ(override_error(root, "batch"), "(-p #1):1:1: batch: expected KEY.PATH=VALUE, found no '=' in \"batch\"");
  EXPECT_EQ(override_error(root, "workload..x=1"),
            "(-p #1):1:10: workload..x: expected KEY.PATH=VALUE with keys of letters, digits, '_' or '-', [N] "
            "indices and [\"KEY\"] for keys with other characters, found '.'");
  EXPECT_EQ(override_error(root, "workload.models[5].batch=1"),
            "(-p #1):1:17: workload.models[5]: expected an index in [0, 1], found 5");
  EXPECT_EQ(override_error(root, "name.first=a"),
            "(-p #1):1:6: name: expected a mapping to set 'first' in, found \"x\"");
  EXPECT_EQ(override_error(root, "workload[0]=a"),
            "(-p #1):1:10: workload: expected a sequence to index with [0], found a mapping");
  EXPECT_NE(override_error(root, "name={a: [1"), "(no error)");
  EXPECT_EQ(override_error(load_config_text("", "empty.yaml"), "a=1"),
            "empty.yaml:1:1: (root): expected a mapping to set 'a' in, found an empty document");
}

}  // namespace dse

namespace dse {

// Search-space keys are themselves key paths: ["..."] reaches them.
TEST(Overrides, QuotedKeysReachKeysWithDots) {
  ConfigNode root =
      load_config_text("name: x\nsearch:\n  space:\n    workload.models[0].batch: {pow2: [1, 8]}\n", "x.yaml");
  apply_overrides(root, {"search.space[\"workload.models[0].batch\"]={pow2: [1, 64]}",
                         "search.space[\"device.l1_kib\"]={choice: [32, 64]}"});
  const ConfigNode& space = *root.find("search")->find("space");
  EXPECT_EQ(space.keys(), (std::vector<std::string>{"workload.models[0].batch", "device.l1_kib"}));
  EXPECT_EQ(space.find("workload.models[0].batch")->find("pow2")->items()[1].text(), "64");
  EXPECT_NE(override_error(root, "search.space[\"unclosed=1").find("a malformed [\"KEY\"]"), std::string::npos);
  EXPECT_NE(override_error(root, "search.space[\"\"]=1").find("a malformed [\"KEY\"]"), std::string::npos);
}

}  // namespace dse

namespace dse {

// `-p KEY=~` removes the key, so that the reader's default or another key applies: a config's
// `duration_s` becomes `requests` from the command line (issue 54). An empty value still sets null.
TEST(Overrides, TildeRemovesAKeyOrAnItem) {
  ConfigNode root = load_config_text(
      "name: x\nworkload:\n  models: [{name: resnet18}, {name: resnet50, batch: 4}]\n  serving: {duration_s: 10}\n",
      "x.yaml");
  apply_overrides(root, {"workload.serving.duration_s=~", "workload.serving.requests=100",
                         "output=", "workload.models[0]= ~ ", "device.gpu=~", "workload.nothing.here=~"});
  const ConfigNode& workload = *root.find("workload");
  EXPECT_EQ(workload.find("serving")->keys(), std::vector<std::string>{"requests"});
  ASSERT_TRUE(root.find("output"));
  EXPECT_TRUE(root.find("output")->is_null());
  // The second model moved up, its key paths with it.
  ASSERT_EQ(workload.find("models")->item_count(), 1u);
  const ConfigNode& model = workload.find("models")->items()[0];
  EXPECT_EQ(model.find("name")->text(), "resnet50");
  EXPECT_EQ(model.find("batch")->path(), "workload.models[0].batch");
  // Removing what is not there removes nothing and creates nothing.
  EXPECT_FALSE(root.find("device"));
  EXPECT_FALSE(workload.find("nothing"));
  EXPECT_EQ(override_error(root, "name.first=~"),
            "(-p #1):1:6: name: expected a mapping to remove 'first' from, found \"x\"");
  EXPECT_EQ(override_error(root, "name[0]=~"),
            "(-p #1):1:6: name: expected a sequence to remove item [0] from, found \"x\"");
  // `~` inside a value is YAML as before.
  apply_override(root, "name=a~b", 1);
  EXPECT_EQ(root.find("name")->text(), "a~b");
}

// Errors quote an input's value cut to 80 bytes: a 60 MB value makes no 60 MB message.
TEST(Overrides, ErrorsQuoteALongAssignmentCut) {
  const ConfigNode root = load_config_text(kConfig, "x.yaml");
  const std::string message = override_error(root, std::string(100000, 'a'));
  const std::string cut = std::string(80, 'a') + "…(100000 bytes)";
  EXPECT_EQ(message, "(-p #1):1:1: " + cut + ": expected KEY.PATH=VALUE, found no '=' in \"" + cut + "\"")
      << message.substr(0, 300);
}

}  // namespace dse
