#include "kernels/api/data_tree.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

#include "kernels/api/params.hpp"
#include "tests/error_message.hpp"

namespace levelforge {
namespace {

using testing::error_message;

// species.yaml, as the runner would read it:
//   - name: goblin
//     hp: 3
//     brave: true
//     motives: {fear: 0.5}
//     tags: [small, green]
DataNode goblin() {
  const std::string row = "params.species[0]";
  return DataNode::map(
      {{"name", DataNode::scalar("goblin", "species.yaml:1:9", row + ".name")},
       {"hp", DataNode::scalar("3", "species.yaml:2:7", row + ".hp")},
       {"brave", DataNode::scalar("true", "species.yaml:3:10", row + ".brave")},
       {"motives", DataNode::map({{"fear", DataNode::scalar("0.5", "species.yaml:4:19",
                                                            row + ".motives.fear")}},
                                 "species.yaml:4:12", row + ".motives")},
       {"tags", DataNode::list({DataNode::scalar("small", "species.yaml:5:10", row + ".tags[0]"),
                                DataNode::scalar("green", "species.yaml:5:17", row + ".tags[1]")},
                               "species.yaml:5:9", row + ".tags")}},
      "species.yaml:1:3", row);
}

std::string kernel_error(const auto& action) { return error_message<KernelError>(action); }

TEST(DataNode, KindWhereAndPath) {
  const DataNode node = goblin();
  EXPECT_EQ(node.kind(), DataNode::Kind::map);
  EXPECT_EQ(node.where(), "species.yaml:1:3");
  EXPECT_EQ(node.path(), "params.species[0]");
  EXPECT_EQ(node.at("tags").kind(), DataNode::Kind::list);
  EXPECT_EQ(node.at("hp").kind(), DataNode::Kind::scalar);
  EXPECT_EQ(node.at("motives").at("fear").path(), "params.species[0].motives.fear");
}

TEST(DataNode, ScalarAccessors) {
  const DataNode node = goblin();
  EXPECT_EQ(node.at("name").text(), "goblin");
  EXPECT_EQ(node.at("hp").integer(0, 10), 3);
  EXPECT_EQ(node.at("motives").at("fear").real(0, 1), 0.5);
  EXPECT_EQ(node.at("hp").real(0, 10), 3.0);
  EXPECT_TRUE(node.at("brave").boolean());
  EXPECT_FALSE(DataNode::scalar("False").boolean());
  EXPECT_EQ(DataNode::scalar("+2.5").real(0, 3), 2.5);
  EXPECT_EQ(
      DataNode::scalar("-9223372036854775808").integer(std::numeric_limits<std::int64_t>::min(), 0),
      std::numeric_limits<std::int64_t>::min());
}

TEST(DataNode, ListsAndMaps) {
  const DataNode node = goblin();
  ASSERT_EQ(node.at("tags").items().size(), 2u);
  EXPECT_EQ(node.at("tags").items()[1].text(), "green");
  ASSERT_EQ(node.members().size(), 5u);
  EXPECT_EQ(node.members()[0].first, "name");  // in the order written
  EXPECT_EQ(node.members()[4].first, "tags");
  EXPECT_NE(node.find("hp"), nullptr);
  EXPECT_EQ(node.find("speed"), nullptr);
  EXPECT_EQ(node.integer_or("hp", 9, 0, 10), 3);
  EXPECT_EQ(node.integer_or("speed", 9, 0, 10), 9);
  EXPECT_EQ(node.real_or("speed", 1.5, 0, 2), 1.5);
  EXPECT_EQ(node.at("motives").real_or("fear", 0.0, 0, 1), 0.5);
  EXPECT_TRUE(node.boolean_or("brave", false));
  EXPECT_TRUE(node.boolean_or("shy", true));
}

TEST(DataNode, WrongKindNamesWhereAndPath) {
  const DataNode node = goblin();
  EXPECT_EQ(kernel_error([&] { (void)node.text(); }),
            "species.yaml:1:3: params.species[0]: expected a single value, got a map");
  EXPECT_EQ(kernel_error([&] { (void)node.at("tags").members(); }),
            "species.yaml:5:9: params.species[0].tags: expected a map, got a list");
  EXPECT_EQ(kernel_error([&] { (void)node.at("hp").items(); }),
            "species.yaml:2:7: params.species[0].hp: expected a list, got a single value");
  EXPECT_EQ(kernel_error([&] { (void)node.at("tags").find("x"); }),
            "species.yaml:5:9: params.species[0].tags: expected a map, got a list");
}

TEST(DataNode, BadScalarsNameWhereAndPath) {
  const DataNode node = goblin();
  EXPECT_EQ(kernel_error([&] { (void)node.at("name").integer(0, 10); }),
            "species.yaml:1:9: params.species[0].name: expected an int, got 'goblin'");
  EXPECT_EQ(kernel_error([&] { (void)node.at("motives").at("fear").integer(0, 10); }),
            "species.yaml:4:19: params.species[0].motives.fear: expected an int, got '0.5'");
  EXPECT_EQ(kernel_error([&] { (void)node.at("name").real(0, 1); }),
            "species.yaml:1:9: params.species[0].name: expected a finite real, got 'goblin'");
  EXPECT_EQ(kernel_error([&] { (void)DataNode::scalar(".inf", "f:1:1", "p").real(0, 1); }),
            "f:1:1: p: expected a finite real, got '.inf'");
  EXPECT_EQ(kernel_error([&] { (void)node.at("hp").boolean(); }),
            "species.yaml:2:7: params.species[0].hp: expected a bool (true or false), got '3'");
  EXPECT_EQ(kernel_error([&] { (void)DataNode::scalar("", "f:1:1", "p").integer(0, 1); }),
            "f:1:1: p: expected an int, got ''");
}

// what() is a C string: a raw NUL would end the message there.
TEST(DataNode, ControlCharactersInValuesAreShownEscaped) {
  using namespace std::string_literals;
  const DataNode one = DataNode::scalar("1\0"s, "f:1:1", "p");
  EXPECT_EQ(kernel_error([&] { (void)one.integer(0, 9); }),
            "f:1:1: p: expected an int, got '1\\0'");
  EXPECT_EQ(kernel_error([&] { (void)one.real(0, 9); }),
            "f:1:1: p: expected a finite real, got '1\\0'");
  EXPECT_EQ(kernel_error([&] { (void)one.boolean(); }),
            "f:1:1: p: expected a bool (true or false), got '1\\0'");
  const DataNode map = DataNode::map({{"a\0"s, one}}, "f:1:1", "p");
  EXPECT_EQ(kernel_error([&] { map.check_keys({"b"}); }),
            "f:1:1: p: unknown key 'a\\0'; valid keys: b");
}

TEST(DataNode, RangesAreInclusiveAndChecked) {
  const DataNode node = goblin();
  EXPECT_EQ(node.at("hp").integer(3, 3), 3);
  EXPECT_EQ(kernel_error([&] { (void)node.at("hp").integer(4, 10); }),
            "species.yaml:2:7: params.species[0].hp: 3 is out of range [4, 10]");
  EXPECT_EQ(kernel_error([&] { (void)node.integer_or("hp", 1, 0, 2); }),
            "species.yaml:2:7: params.species[0].hp: 3 is out of range [0, 2]");
  EXPECT_EQ(node.at("motives").at("fear").real(0.5, 0.5), 0.5);
  EXPECT_EQ(kernel_error([&] { (void)node.at("motives").real_or("fear", 0, 0, 0.25); }),
            "species.yaml:4:19: params.species[0].motives.fear: 0.5 is out of range [0.0, 0.25]");
}

TEST(DataNode, MissingAndUnknownKeys) {
  const DataNode node = goblin();
  EXPECT_EQ(kernel_error([&] { (void)node.at("speed"); }),
            "species.yaml:1:3: params.species[0]: missing required key 'speed'");
  node.check_keys({"name", "hp", "brave", "motives", "tags", "speed"});
  EXPECT_EQ(kernel_error([&] {
              node.check_keys({"name", "hp", "motives", "tags"});
            }),
            "species.yaml:3:10: params.species[0].brave: unknown key 'brave'; valid keys: name, "
            "hp, motives, tags");
}

TEST(DataNode, FailWithoutWhereOrPath) {
  EXPECT_EQ(kernel_error([] { DataNode::scalar("x").fail("no place"); }), "no place");
  EXPECT_EQ(kernel_error([] { DataNode::scalar("x", "", "p").fail("no file"); }), "p: no file");
}

TEST(DataNode, FlowText) {
  EXPECT_EQ(goblin().flow_text(),
            "{name: goblin, hp: 3, brave: true, motives: {fear: 0.5}, tags: [small, green]}");
  EXPECT_EQ(DataNode::list({}).flow_text(), "[]");
  EXPECT_EQ(DataNode::map({}).flow_text(), "{}");
  EXPECT_EQ(DataNode::list({goblin(), DataNode::map({{"name", DataNode::scalar("orc")}})})
                .flow_text()
                .substr(0, 15),
            "[{name: goblin,");
}

TEST(DataNode, EqualityComparesContentOnly) {
  const DataNode elsewhere = DataNode::map(
      {{"name", DataNode::scalar("goblin")},
       {"hp", DataNode::scalar("3")},
       {"brave", DataNode::scalar("true")},
       {"motives", DataNode::map({{"fear", DataNode::scalar("0.5")}})},
       {"tags", DataNode::list({DataNode::scalar("small"), DataNode::scalar("green")})}},
      "config_text:9:5", "params.species[3]");
  EXPECT_EQ(goblin(), elsewhere);
  EXPECT_NE(goblin(), goblin().at("motives"));
  EXPECT_NE(DataNode::scalar("3"), DataNode::scalar("3.0"));
  EXPECT_NE(DataNode::list({}), DataNode::map({}));
  EXPECT_NE(DataNode::map({{"a", DataNode::scalar("1")}}),
            DataNode::map({{"b", DataNode::scalar("1")}}));
  EXPECT_NE(DataNode::map({{"a", DataNode::scalar("1")}, {"b", DataNode::scalar("2")}}),
            DataNode::map({{"b", DataNode::scalar("2")}, {"a", DataNode::scalar("1")}}));
}

TEST(ParamTable, ComparesByContent) {
  const ParamTable one{std::make_shared<const DataNode>(goblin())};
  const ParamTable same{std::make_shared<const DataNode>(goblin())};
  const ParamTable other{std::make_shared<const DataNode>(DataNode::list({}))};
  EXPECT_EQ(one, one);
  EXPECT_EQ(one, same);
  EXPECT_NE(one, other);
  EXPECT_NE(one, ParamTable{});
  EXPECT_EQ(ParamTable{}, ParamTable{});
}

}  // namespace
}  // namespace levelforge
