#include <gtest/gtest.h>

#include "models/base/did_you_mean.h"

namespace dse {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // the textbook example
  EXPECT_EQ(edit_distance("resnet5", "resnet50"), 1u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("fp61", "fp16"), 1u);  // one transposition
}

TEST(ClosestName, SuggestsPlausibleTyposOnly) {
  const std::vector<std::string> names{"resnet18", "resnet50", "vgg16"};
  EXPECT_EQ(closest_name("resnet5", names).value(), "resnet50");
  EXPECT_EQ(closest_name("resnet1", names).value(), "resnet18");  // ties go to the first
  EXPECT_EQ(closest_name("vgg61", names).value(), "vgg16");
  EXPECT_FALSE(closest_name("transformer", names).has_value());
  EXPECT_EQ(did_you_mean_suffix("outptu", {"output", "name"}), "; did you mean 'output'?");
  EXPECT_EQ(did_you_mean_suffix("zzz", {"output"}), "");
  // A name within the edit limit beats one that is only a prefix of the typo.
  EXPECT_EQ(closest_name("a100_pcie40", {"a10", "a100_pcie_40gb"}).value(), "a100_pcie_40gb");
  EXPECT_EQ(closest_name("a10_extra_long_name", {"a10", "b20"}).value(), "a10");  // a prefix still suggests
}

TEST(NaturalLess, ComparesDigitRunsAsNumbers) {
  const NaturalLess less;
  EXPECT_TRUE(less("resnet18", "resnet50"));
  EXPECT_TRUE(less("resnet50", "resnet101"));
  EXPECT_FALSE(less("resnet101", "resnet50"));
  EXPECT_TRUE(less("a", "b"));
  EXPECT_TRUE(less("gpt2", "gpt2_xl"));
  EXPECT_FALSE(less("x", "x"));
}

TEST(JoinNames, JoinsWithSeparator) {
  EXPECT_EQ(join_names({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join_names({}), "");
}

}  // namespace dse
