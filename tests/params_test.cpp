#include "kernels/api/params.hpp"

#include <gtest/gtest.h>

#include <limits>

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

TEST(ParamSet, TypedAccess) {
  const ParamSet set = ParamSet::defaults(
      {int_param("n", 3, 0, 9, "n"), real_param("x", 0.5, 0, 1, "x"), bool_param("b", true, "b"),
       choice_param("mode", {"stop", "pass"}, "mode")});
  EXPECT_EQ(set.integer("n"), 3);
  EXPECT_DOUBLE_EQ(set.real("x"), 0.5);
  EXPECT_TRUE(set.boolean("b"));
  EXPECT_EQ(set.choice("mode"), "stop");
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
