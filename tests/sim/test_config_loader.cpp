#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/config/config_loader.h"

namespace dse {
namespace fs = std::filesystem;
namespace {

class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("dse_loader_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                     "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "sub");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

std::string error_of(const std::string& path) {
  try {
    load_config_file(path);
  } catch (const UserError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_F(ConfigFiles, IncludeIsRelativeToTheIncludingFileAndKeepsItsMarks) {
  write("sub/device.yaml", "gpu: h200\nextra: {a: 1}\n");
  const std::string main = write("main.yaml", "name: x\ndevice: !include sub/device.yaml\n");
  const ConfigNode root = load_config_file(main);
  const ConfigNode& device = *root.find("device");
  EXPECT_EQ(device.find("gpu")->text(), "h200");
  EXPECT_EQ(device.find("gpu")->path(), "device.gpu");
  EXPECT_EQ(device.find("extra")->find("a")->mark().str(), (dir_ / "sub/device.yaml").string() + ":2:12");
  EXPECT_EQ(device.find("extra")->find("a")->path(), "device.extra.a");
}

TEST_F(ConfigFiles, IncludeCyclesAndMissingFilesAreErrors) {
  write("a.yaml", "x: !include b.yaml\n");
  write("b.yaml", "y: !include a.yaml\n");
  const std::string a = (dir_ / "a.yaml").string(), b = (dir_ / "b.yaml").string();
  EXPECT_EQ(error_of(a),
            b + ":1:4: x.y: expected an include chain without cycles, found " + a + " -> " + b + " -> " + a);
  const std::string missing = write("m.yaml", "x: !include nope.yaml\n");
  EXPECT_EQ(error_of(missing), missing + ":1:4: x: expected an existing file to include, found no file '" +
                                   (dir_ / "nope.yaml").string() + "'");
}

TEST_F(ConfigFiles, UnreadableAndNonTextFilesAreErrors) {
  EXPECT_EQ(error_of((dir_ / "absent.yaml").string()),
            (dir_ / "absent.yaml").string() + ": cannot read: no such file or not readable");
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": cannot read: is a directory, expected a YAML file");
  const std::string binary = write("bin.yaml", std::string("ok: 1\nbad: \xff\xfe\n", 14));
  EXPECT_EQ(error_of(binary),
            binary + ":2:6: (file): expected UTF-8 YAML text, found byte 0xff (is this a binary file?)");
  const std::string nul = write("nul.yaml", std::string("a: 1\0", 5));
  EXPECT_EQ(error_of(nul), nul + ":1:5: (file): expected UTF-8 YAML text, found byte 0x0 (is this a binary file?)");
}

TEST_F(ConfigFiles, SyntaxErrorsAndDuplicatesCarryPositions) {
  const std::string bad = write("bad.yaml", "a: [1, 2\nb: 3\n");
  EXPECT_NE(error_of(bad).find(bad + ":"), std::string::npos);
  EXPECT_NE(error_of(bad).find("expected valid YAML, found a syntax error"), std::string::npos);
  const std::string twice = write("twice.yaml", "m:\n  a: 1\n  a: 2\n");
  EXPECT_EQ(error_of(twice),
            twice + ":3:3: m.a: expected each key once per mapping, found 'a' again (first at line 2)");
}

TEST(ConfigLoader, EmbeddedQuickstartLoadsAndRoundTrips) {
  const ConfigNode root = load_config_file("embedded:configs/experiments/quickstart.yaml");
  EXPECT_EQ(root.find("name")->text(), "quickstart");
  const std::string yaml = to_yaml(root);
  const ConfigNode again = load_config_text(yaml, "again.yaml");
  EXPECT_EQ(to_yaml(again), yaml);
  EXPECT_NE(yaml.find("dtype: fp16"), std::string::npos);
}

TEST(ConfigLoader, QuotedScalarsStayStringsThroughEmit) {
  const ConfigNode root = load_config_text("a: \"8\"\nb: 8\nc: ~\n", "q.yaml");
  const ConfigNode again = load_config_text(to_yaml(root), "again.yaml");
  EXPECT_TRUE(again.find("a")->quoted());
  EXPECT_FALSE(again.find("b")->quoted());
  EXPECT_TRUE(again.find("c")->is_null());
}

}  // namespace dse

namespace dse {

// An alias that contains itself is a cyclic node graph: converting it recursed until the stack
// overflowed (SIGSEGV) from a config, a -p value, a spec or calibration file and `dse models show`.
TEST(ConfigLoader, AnAliasThatContainsItselfIsAnErrorNotACrash) {
  for (const char* text : {"a: &a [*a]\n", "a: &a {b: *a}\n", "x: [1, &a [2, [*a]]]\n"}) {
    try {
      load_config_text(text, "alias.yaml");
      ADD_FAILURE() << "accepted " << text;
    } catch (const ConfigError& error) {
      EXPECT_NE(std::string(error.what()).find("an alias that contains itself?"), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW(parse_yaml_value("&a [*a]", {"(-p #1)", 1, 3}), ConfigError);
}

}  // namespace dse

namespace dse {

// YAML after a second `---` (or after `...`) was silently ignored; devices and FIFOs were read
// forever (`dse run /dev/zero`).
TEST(ConfigLoader, RefusesASecondDocumentAndFilesThatAreNotRegular) {
  // The second document starts at its `---`, or at the first content after `...`.
  for (const auto& [text, at] :
       {std::pair{"name: a\n---\nname: b\n", "two.yaml:2:1"}, std::pair{"name: a\n...\nname: b\n", "two.yaml:3:1"}}) {
    try {
      load_config_text(text, "two.yaml");
      ADD_FAILURE() << "accepted " << text;
    } catch (const ConfigError& error) {
      EXPECT_NE(std::string(error.what()).find(std::string(at) + ": (yaml): expected one YAML document"),
                std::string::npos)
          << error.what();
    }
  }
  EXPECT_NO_THROW(load_config_text("---\nname: a\n...\n# the end\n", "one.yaml"));
  EXPECT_NO_THROW(load_config_text("%YAML 1.2\n---\nname: a\n", "one.yaml"));
  try {
    load_config_file("/dev/zero");
    ADD_FAILURE() << "read /dev/zero";
  } catch (const UserError& error) {
    EXPECT_EQ(std::string(error.what()),
              "/dev/zero: cannot read: expected a regular file (a YAML file), found a character device");
  }
}

}  // namespace dse
