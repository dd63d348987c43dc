// What a kernel's summary reads (kernels/api/results.hpp): columns by name, numbers from int
// and real columns, and the errors that name the column.

#include "kernels/api/results.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace levelforge {
namespace {

ResultTable table() {
  return ResultTable({"task", "score", "maze"}, {{std::int64_t{0}, 0.5, std::string("a")},
                                                 {std::int64_t{3}, -1.25, std::string("b")}});
}

TEST(ResultTable, ColumnsByName) {
  const auto t = table();
  EXPECT_TRUE(t.has("score"));
  EXPECT_FALSE(t.has("Score"));
  EXPECT_EQ(t.column("maze"), 2U);
  EXPECT_EQ(t.numbers("task"), (std::vector<double>{0.0, 3.0}));
  EXPECT_EQ(t.numbers("score"), (std::vector<double>{0.5, -1.25}));
}

TEST(ResultTable, ErrorsNameTheColumn) {
  const auto t = table();
  try {
    (void)t.column("length");
    ADD_FAILURE() << "no error";
  } catch (const KernelError& error) {
    EXPECT_EQ(std::string(error.what()),
              "result table: no column 'length'; its columns are task, score, maze");
  }
  EXPECT_THROW((void)t.numbers("maze"), KernelError);
}

TEST(ResultTables, FindByPath) {
  ResultTables results{"sweep", {}};
  results.tables.emplace("sweep/records", table());
  ASSERT_NE(results.find("sweep/records"), nullptr);
  EXPECT_EQ(results.find("sweep/records")->rows().size(), 2U);
  EXPECT_EQ(results.find("ga/best"), nullptr);
}

}  // namespace
}  // namespace levelforge
