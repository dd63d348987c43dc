#include "kernels/api/params.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

namespace levelforge {
namespace {

TEST(FormatValue, RealsReadBackAsReals) {
  EXPECT_EQ(format_value(ParamValue{2.0}), "2.0");
  EXPECT_EQ(format_value(ParamValue{0.1}), "0.1");
  EXPECT_EQ(format_value(ParamValue{1.0 / 3}), "0.3333333333333333");
  EXPECT_EQ(format_value(ParamValue{std::numeric_limits<double>::infinity()}), ".inf");
  EXPECT_EQ(format_value(ParamValue{-std::numeric_limits<double>::infinity()}), "-.inf");
  EXPECT_EQ(format_value(ParamValue{std::numeric_limits<double>::quiet_NaN()}), ".nan");
  EXPECT_EQ(format_value(ParamValue{1e300}), "1e+300");
  EXPECT_EQ(format_value(ParamValue{1e16}), "1e+16");
}

TEST(FormatValue, OtherTypes) {
  EXPECT_EQ(format_value(ParamValue{std::int64_t{-42}}), "-42");
  EXPECT_EQ(format_value(ParamValue{true}), "true");
  EXPECT_EQ(format_value(ParamValue{std::string("resolve")}), "resolve");
}

TEST(FormatValue, TablesAsFlowText) {
  const DataNode rows =
      DataNode::list({DataNode::map({{"name", DataNode::scalar("goblin")},
                                     {"tags", DataNode::list({DataNode::scalar("small")})}})});
  EXPECT_EQ(format_value(ParamValue{ParamTable{std::make_shared<const DataNode>(rows)}}),
            "[{name: goblin, tags: [small]}]");
}

TEST(ParamSpec, TextAndTableHelpers) {
  const ParamSpec hero = text_param("hero", "knight", "who the level is for");
  EXPECT_EQ(hero.type, ParamType::text);
  EXPECT_EQ(std::get<std::string>(hero.default_value), "knight");
  EXPECT_FALSE(hero.min || hero.max);
  const ParamSpec species = table_param("species", "the species catalogue");
  EXPECT_EQ(species.type, ParamType::table);
  EXPECT_EQ(species.doc, "the species catalogue");
  EXPECT_EQ(format_value(species.default_value), "[]");
  EXPECT_EQ(to_string(ParamType::text), "text");
  EXPECT_EQ(to_string(ParamType::table), "table");
}

TEST(ParamSet, TypedAccess) {
  const ParamSet set = ParamSet::defaults(
      {int_param("n", 3, 0, 9, "n"), real_param("x", 0.5, 0, 1, "x"), bool_param("b", true, "b"),
       choice_param("mode", {"stop", "pass"}, "mode"), text_param("hero", "knight", "hero"),
       table_param("species", "species")});
  EXPECT_EQ(set.integer("n"), 3);
  EXPECT_DOUBLE_EQ(set.real("x"), 0.5);
  EXPECT_TRUE(set.boolean("b"));
  EXPECT_EQ(set.choice("mode"), "stop");
  EXPECT_EQ(set.text("hero"), "knight");
  EXPECT_EQ(set.table("species"), DataNode::list({}));
}

TEST(ParamSet, TableAccessNamesTheParameter) {
  const ParamSet set = ParamSet::defaults({text_param("hero", "knight", "hero")});
  try {
    (void)set.table("hero");
    FAIL() << "expected KernelError";
  } catch (const KernelError& error) {
    EXPECT_EQ(std::string(error.what()), "parameter 'hero' is not of type table (value knight)");
  }
}

TEST(ParamSet, WrongTypeOrMissingNamesTheParameter) {
  const ParamSet set = ParamSet::defaults({int_param("n", 3, 0, 9, "n")});
  try {
    (void)set.real("n");
    FAIL() << "expected KernelError";
  } catch (const KernelError& error) {
    EXPECT_NE(std::string(error.what()).find("'n' is not of type real"), std::string::npos);
  }
  try {
    (void)set.integer("m");
    FAIL() << "expected KernelError";
  } catch (const KernelError& error) {
    EXPECT_NE(std::string(error.what()).find("'m' is not declared"), std::string::npos);
  }
}

}  // namespace
}  // namespace levelforge
