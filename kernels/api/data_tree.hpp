#pragma once
// Structured parameter values (a species catalogue, a spawn table): a plain tree of
// scalars, lists and maps that the runner reads from YAML. Kernels stay free of YAML, and
// every node remembers where it was written, so a kernel's complaint names the file, line
// and key path at fault.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace levelforge {

class DataNode {
 public:
  enum class Kind { scalar, list, map };

  // `where`: "FILE:LINE:COL"; `path`: the key path, "params.species[1].motives.fear".
  static DataNode scalar(std::string text, std::string where = {}, std::string path = {});
  static DataNode list(std::vector<DataNode> items, std::string where = {}, std::string path = {});
  static DataNode map(std::vector<std::pair<std::string, DataNode>> members, std::string where = {},
                      std::string path = {});

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] const std::string& where() const { return where_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  // Throws KernelError "WHERE: PATH: problem".
  [[noreturn]] void fail(const std::string& problem) const;

  // Scalars, read strictly; a wrong kind or a value out of [min, max] fails naming this node.
  [[nodiscard]] const std::string& text() const;
  [[nodiscard]] std::int64_t integer(std::int64_t min, std::int64_t max) const;
  [[nodiscard]] double real(double min, double max) const;
  [[nodiscard]] bool boolean() const;

  // Lists.
  [[nodiscard]] const std::vector<DataNode>& items() const;

  // Maps, in the order written.
  [[nodiscard]] const std::vector<std::pair<std::string, DataNode>>& members() const;
  [[nodiscard]] const DataNode* find(std::string_view key) const;  // nullptr when absent
  [[nodiscard]] const DataNode& at(std::string_view key) const;    // fails when absent
  // Fails on the first key not in `allowed`, listing the valid keys.
  void check_keys(std::initializer_list<std::string_view> allowed) const;

  // A member's value or `fallback` when the key is absent.
  [[nodiscard]] std::int64_t integer_or(std::string_view key, std::int64_t fallback,
                                        std::int64_t min, std::int64_t max) const;
  [[nodiscard]] double real_or(std::string_view key, double fallback, double min, double max) const;
  [[nodiscard]] bool boolean_or(std::string_view key, bool fallback) const;

  // A compact rendering for messages and listings: {a: 1, b: [x, y]}.
  [[nodiscard]] std::string flow_text() const;

  friend bool operator==(const DataNode& a, const DataNode& b);  // content only

 private:
  [[nodiscard]] const DataNode& expect(Kind kind) const;

  Kind kind_ = Kind::map;
  std::string where_;
  std::string path_;
  std::string text_;
  std::vector<DataNode> items_;
  std::vector<std::pair<std::string, DataNode>> members_;
};

// How a ParamSet holds a table: shared and immutable, so copying parameter sets stays
// cheap; compared by content.
struct ParamTable {
  std::shared_ptr<const DataNode> root;

  friend bool operator==(const ParamTable& a, const ParamTable& b) {
    return a.root == b.root || (a.root && b.root && *a.root == *b.root);
  }
};

}  // namespace levelforge
