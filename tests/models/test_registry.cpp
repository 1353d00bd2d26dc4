#include <gtest/gtest.h>

#include "models/base/registry.h"
#include "models/zoo/zoo.h"

namespace dse {
namespace {

struct Shape2D {
  static constexpr const char* family_name = "test_shape";
  static constexpr const char* family_description = "shapes used by the registry test";
  using Factory = std::function<std::unique_ptr<Shape2D>(double)>;
  virtual ~Shape2D() = default;
  virtual double area() const = 0;
};

struct Square final : Shape2D {
  explicit Square(double side) : side_(side) {}
  double area() const override { return side_ * side_; }
  double side_;
};

}  // namespace

DSE_REGISTER(Shape2D, Square, "square", "a square of the given side")

TEST(Registry, FindsSelfRegisteredImplementations) {
  const auto* entry = Registry<Shape2D>::instance().find("square");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->description, "a square of the given side");
  EXPECT_DOUBLE_EQ(entry->factory(3.0)->area(), 9.0);
  EXPECT_EQ(Registry<Shape2D>::instance().find("circle"), nullptr);
}

TEST(Registry, DuplicateNamesAreRejected) {
  EXPECT_THROW(Registry<Shape2D>::instance().add({"square", "again", nullptr, {}}), std::logic_error);
}

TEST(Registry, EveryFamilyIsInTheCatalog) {
  const auto* family = FamilyCatalog::instance().find("test_shape");
  ASSERT_NE(family, nullptr);
  ASSERT_EQ(family->entries().size(), 1u);
  EXPECT_EQ(family->entries()[0].name, "square");
  // Families registered from other libraries survive static linking (WHOLE_ARCHIVE).
  EXPECT_NE(FamilyCatalog::instance().find("model"), nullptr);
  EXPECT_NE(FamilyCatalog::instance().find("gpu_timing"), nullptr);
  EXPECT_NE(FamilyCatalog::instance().find("gpu"), nullptr);
  EXPECT_NE(ModelRegistry::instance().find("resnet50"), nullptr);
}

}  // namespace dse
