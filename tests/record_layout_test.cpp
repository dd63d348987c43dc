#include "kernels/api/record_layout.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/api/params.hpp"
#include "tests/error_message.hpp"

namespace levelforge {
namespace {

// int (8) + text(5) + real (8) + int (8): no padding, declaration order.
RecordLayout mixed_layout() {
  return RecordLayout({int_field("a", "an int"), text_field("label", 5, "a text"),
                       real_field("x", "a real"), int_field("b", "another int")});
}

TEST(RecordLayout, OffsetsAndRowSizeFollowDeclarationOrderWithoutPadding) {
  const auto layout = mixed_layout();
  ASSERT_EQ(layout.fields().size(), 4U);
  EXPECT_EQ(layout.offset(0), 0U);
  EXPECT_EQ(layout.offset(1), 8U);
  EXPECT_EQ(layout.offset(2), 13U);
  EXPECT_EQ(layout.offset(3), 21U);
  EXPECT_EQ(layout.row_size(), 29U);
}

TEST(RecordLayout, FieldSizeIsEightForNumbersAndTextSizeForText) {
  EXPECT_EQ(RecordLayout::field_size(int_field("i", "")), 8U);
  EXPECT_EQ(RecordLayout::field_size(real_field("r", "")), 8U);
  EXPECT_EQ(RecordLayout::field_size(text_field("t", 17, "")), 17U);
}

TEST(RecordLayout, EmptyLayoutHasRowSizeZero) {
  const RecordLayout layout(std::vector<FieldSpec>{});
  EXPECT_EQ(layout.row_size(), 0U);
  EXPECT_TRUE(layout.unpack({}).empty());
}

TEST(RecordLayout, PackUnpackRoundTrip) {
  const auto layout = mixed_layout();
  const Record record{std::int64_t{-42}, std::string("abc"), 3.25, std::int64_t{1} << 40};
  std::vector<std::byte> row(layout.row_size(), std::byte{0xAB});
  layout.pack(record, row, "test");
  EXPECT_EQ(layout.unpack(row), record);
  EXPECT_EQ(layout.get_int(row, 0), -42);
  EXPECT_EQ(layout.get_real(row, 2), 3.25);
  EXPECT_EQ(layout.get_int(row, 3), std::int64_t{1} << 40);
}

TEST(RecordLayout, PackZeroFillsTheRestOfATextField) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size(), std::byte{0xAB});
  layout.pack({std::int64_t{1}, std::string("ab"), 0.0, std::int64_t{2}}, row, "test");
  for (std::size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(row[layout.offset(1) + i], std::byte{0}) << "byte " << i;
  }
  // A shorter text packed over a longer one reads back as the shorter text.
  layout.pack({std::int64_t{1}, std::string("wxyz"), 0.0, std::int64_t{2}}, row, "test");
  layout.pack({std::int64_t{1}, std::string("q"), 0.0, std::int64_t{2}}, row, "test");
  EXPECT_EQ(std::get<std::string>(layout.unpack(row)[1]), "q");
}

TEST(RecordLayout, TextExactlyAtTheLimitRoundTripsWithoutTerminator) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size());
  const Record record{std::int64_t{7}, std::string("12345"), -1.5, std::int64_t{9}};
  layout.pack(record, row, "test");
  const auto back = layout.unpack(row);
  EXPECT_EQ(std::get<std::string>(back[1]), "12345");
  // The text does not spill into the next field.
  EXPECT_EQ(std::get<double>(back[2]), -1.5);
}

TEST(RecordLayout, TextOneOverTheLimitIsAKernelErrorNamingTheField) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size());
  const auto message = testing::error_message<KernelError>([&] {
    layout.pack({std::int64_t{7}, std::string("123456"), 0.0, std::int64_t{9}}, row, "mykernel");
  });
  EXPECT_NE(message.find("mykernel"), std::string::npos) << message;
  EXPECT_NE(message.find("'label'"), std::string::npos) << message;
  EXPECT_NE(message.find('6'), std::string::npos) << message;
}

TEST(RecordLayout, WrongValueCountIsAKernelErrorNamingTheContext) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size());
  const auto too_few = testing::error_message<KernelError>([&] {
    layout.pack({std::int64_t{1}, std::string("a"), 1.0}, row, "ctx-few");
  });
  EXPECT_NE(too_few.find("ctx-few"), std::string::npos) << too_few;
  EXPECT_NE(too_few.find('3'), std::string::npos) << too_few;
  EXPECT_NE(too_few.find('4'), std::string::npos) << too_few;
  const auto too_many = testing::error_message<KernelError>([&] {
    layout.pack({std::int64_t{1}, std::string("a"), 1.0, std::int64_t{2}, std::int64_t{3}}, row,
                "ctx-many");
  });
  EXPECT_NE(too_many.find("ctx-many"), std::string::npos) << too_many;
}

TEST(RecordLayout, WrongTypeIsAKernelErrorNamingContextAndField) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size());
  // A real where an int is declared.
  const auto int_message = testing::error_message<KernelError>([&] {
    layout.pack({1.0, std::string("a"), 1.0, std::int64_t{2}}, row, "ctx");
  });
  EXPECT_NE(int_message.find("ctx"), std::string::npos) << int_message;
  EXPECT_NE(int_message.find("'a'"), std::string::npos) << int_message;
  // An int where a real is declared: no silent conversion.
  const auto real_message = testing::error_message<KernelError>([&] {
    layout.pack({std::int64_t{1}, std::string("a"), std::int64_t{1}, std::int64_t{2}}, row, "ctx");
  });
  EXPECT_NE(real_message.find("'x'"), std::string::npos) << real_message;
  // An int where a text is declared.
  const auto text_message = testing::error_message<KernelError>([&] {
    layout.pack({std::int64_t{1}, std::int64_t{5}, 1.0, std::int64_t{2}}, row, "ctx");
  });
  EXPECT_NE(text_message.find("'label'"), std::string::npos) << text_message;
  // The last field too.
  const auto last_message = testing::error_message<KernelError>([&] {
    layout.pack({std::int64_t{1}, std::string("a"), 1.0, std::string("no")}, row, "ctx");
  });
  EXPECT_NE(last_message.find("'b'"), std::string::npos) << last_message;
}

TEST(RecordLayout, FillMissingGivesMinusOneNanAndEmptyText) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size(), std::byte{0xAB});
  layout.fill_missing(row);
  const auto record = layout.unpack(row);
  ASSERT_EQ(record.size(), 4U);
  EXPECT_EQ(std::get<std::int64_t>(record[0]), -1);
  EXPECT_EQ(std::get<std::string>(record[1]), "");
  EXPECT_TRUE(std::isnan(std::get<double>(record[2])));
  EXPECT_EQ(std::get<std::int64_t>(record[3]), -1);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(row[layout.offset(1) + i], std::byte{0});
}

TEST(RecordLayout, ConcatPutsThePrefixFirst) {
  const auto layout = RecordLayout::concat({int_field("p1", ""), real_field("p2", "")},
                                           {text_field("r1", 3, ""), int_field("r2", "")});
  ASSERT_EQ(layout.fields().size(), 4U);
  EXPECT_EQ(layout.fields()[0].name, "p1");
  EXPECT_EQ(layout.fields()[1].name, "p2");
  EXPECT_EQ(layout.fields()[2].name, "r1");
  EXPECT_EQ(layout.fields()[3].name, "r2");
  EXPECT_EQ(layout.offset(2), 16U);
  EXPECT_EQ(layout.offset(3), 19U);
  EXPECT_EQ(layout.row_size(), 27U);
}

TEST(RecordLayout, ConcatWithEmptyPartsKeepsTheOtherPart) {
  const auto only_rest = RecordLayout::concat({}, {int_field("r", "")});
  ASSERT_EQ(only_rest.fields().size(), 1U);
  EXPECT_EQ(only_rest.fields()[0].name, "r");
  const auto only_prefix = RecordLayout::concat({real_field("p", "")}, {});
  ASSERT_EQ(only_prefix.fields().size(), 1U);
  EXPECT_EQ(only_prefix.fields()[0].name, "p");
  EXPECT_EQ(only_prefix.row_size(), 8U);
}

TEST(RecordLayout, SetAndGetIntAndRealTouchOnlyTheirField) {
  const auto layout = mixed_layout();
  std::vector<std::byte> row(layout.row_size());
  layout.pack({std::int64_t{1}, std::string("abcde"), 2.0, std::int64_t{3}}, row, "test");
  layout.set_int(row, 3, -123456789012345);
  layout.set_real(row, 2, 0.1);
  EXPECT_EQ(layout.get_int(row, 3), -123456789012345);
  EXPECT_EQ(layout.get_real(row, 2), 0.1);
  const auto record = layout.unpack(row);
  EXPECT_EQ(std::get<std::int64_t>(record[0]), 1);
  EXPECT_EQ(std::get<std::string>(record[1]), "abcde");
  EXPECT_EQ(std::get<double>(record[2]), 0.1);
  EXPECT_EQ(std::get<std::int64_t>(record[3]), -123456789012345);
}

TEST(RecordLayout, RealsRoundTripBitExactIncludingSpecialValues) {
  const RecordLayout layout({real_field("x", "")});
  std::vector<std::byte> row(layout.row_size());
  for (const double value :
       {-0.0, 1e-310, 1.7976931348623157e308, -std::numeric_limits<double>::infinity()}) {
    layout.pack({value}, row, "test");
    const double back = std::get<double>(layout.unpack(row)[0]);
    EXPECT_EQ(back, value);
    EXPECT_EQ(std::signbit(back), std::signbit(value));
  }
}

}  // namespace
}  // namespace levelforge
