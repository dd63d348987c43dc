#include "runner/config/tables.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

#include "kernels/api/text.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/suggest.hpp"
#include "runner/config/values.hpp"
#include "runner/files/input_file.hpp"

namespace levelforge::config {
namespace {

[[noreturn]] void fail(const std::string& location, const std::string& key_path,
                       const std::string& problem) {
  throw ConfigError(location + ": " + key_path + ": " + problem);
}

// Where a node was written: FILE:LINE:COL, or the override that wrote it.
using Locator = std::function<std::string(const YAML::Node&)>;

std::string row_path(const std::string& key_path, std::size_t index) {
  return key_path + "[" + std::to_string(index) + "]";
}

// For messages only: a key of the table's own shows as printable() shows it.
std::string member_path(const std::string& key_path, const std::string& key) {
  return key_path + "." + printable(key);
}

// Any YAML but null. A null has no text of its own to point at, so `anchor` (its key, or
// the list holding it) stands in.
DataNode convert(const YAML::Node& node, const YAML::Node& anchor, const std::string& path,
                 const Locator& locate) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return DataNode::scalar(node.Scalar(), locate(node), path);
    case YAML::NodeType::Sequence: {
      std::vector<DataNode> items;
      items.reserve(node.size());
      for (const auto& element : node) {
        items.push_back(convert(element, node, row_path(path, items.size()), locate));
      }
      return DataNode::list(std::move(items), locate(node), path);
    }
    case YAML::NodeType::Map: {
      std::vector<std::pair<std::string, DataNode>> members;
      members.reserve(node.size());
      for (const auto& entry : node) {
        if (!entry.first.IsScalar()) {
          fail(locate(entry.first), path, "expected a key name, got " + describe(entry.first));
        }
        const std::string& key = entry.first.Scalar();
        members.emplace_back(key,
                             convert(entry.second, entry.first, member_path(path, key), locate));
      }
      return DataNode::map(std::move(members), locate(node), path);
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: break;
  }
  fail(locate(anchor), path, "expected a value, got null");
}

// fopen and fread (read_input_file), not a stream, for the reason a file cannot be read.
std::string read_text(const std::string& file, const std::string& key_path,
                      const std::string& location) {
  if (const auto problem = input_file_problem(file, "table file", config_size_limit);
      !problem.empty()) {
    fail(location, key_path, problem);
  }
  std::string text;
  if (!read_input_file(file, config_size_limit, text)) {
    fail(location, key_path,
         "cannot read " + quoted_value(file) + ": " + std::generic_category().message(errno));
  }
  return text;
}

// A YAML file a table names, parsed; `where` gives its own lines, not the config's.
struct TableFile {
  std::string name;  // relative to the current directory
  YAML::Node root;

  [[nodiscard]] Locator locator() const {
    return [name = name](const YAML::Node& node) { return file_location(name, node.Mark()); };
  }
};

TableFile load_file(const std::filesystem::path& directory, const YAML::Node& name_node,
                    const std::string& key_path, const std::string& location) {
  std::string name = (directory / name_node.Scalar()).lexically_normal().string();
  const std::string text = read_text(name, key_path, location);
  YAML::Node root = parse_yaml_file(text, name);
  return {std::move(name), root};
}

// The rows of `file`, which the table names at `file_path`, appended to `rows`: its map as
// one row, or each map of its list.
void append_rows(const TableFile& file, const std::string& file_path, const std::string& key_path,
                 std::vector<DataNode>& rows) {
  const Locator locate = file.locator();
  if (file.root.IsMap()) {
    rows.push_back(convert(file.root, file.root, row_path(key_path, rows.size()), locate));
    return;
  }
  if (!file.root.IsSequence()) {
    fail(locate(file.root), file_path,
         "expected a map or a list of maps, got " + describe(file.root));
  }
  for (const auto& element : file.root) {
    const std::string path = row_path(key_path, rows.size());
    if (!element.IsMap()) {
      fail(locate(element.IsNull() ? file.root : element), path,
           "expected a map, got " + describe(element));
    }
    rows.push_back(convert(element, element, path, locate));
  }
}

}  // namespace

ParamTable read_table(const Document& document, const KeyPath& path, const YAML::Node& value,
                      const std::string& location) {
  const std::string key_path = join(path, ".");
  const Locator in_config = [&](const YAML::Node& node) { return document.location(path, node); };
  const std::filesystem::path directory = document.directory(path, value);
  auto table = [&] {
    if (value.IsMap()) return convert(value, value, key_path, in_config);
    std::vector<DataNode> rows;
    if (value.IsScalar()) {
      const TableFile file = load_file(directory, value, key_path, location);
      if (file.root.IsMap()) return convert(file.root, file.root, key_path, file.locator());
      append_rows(file, key_path, key_path, rows);
      return DataNode::list(std::move(rows), file.locator()(file.root), key_path);
    }
    if (!value.IsSequence()) {
      fail(location, key_path,
           "expected a map, a list of maps or a file name, got " + describe(value));
    }
    // Messages about an element count the elements written; rows count the rows spliced.
    std::size_t index = 0;
    for (const auto& element : value) {
      const std::string element_path = row_path(key_path, index++);
      if (element.IsMap()) {
        rows.push_back(convert(element, element, row_path(key_path, rows.size()), in_config));
      } else if (element.IsScalar()) {
        append_rows(load_file(directory, element, element_path, in_config(element)), element_path,
                    key_path, rows);
      } else {
        fail(in_config(element.IsNull() ? value : element), element_path,
             "expected a map or a file name, got " + describe(element));
      }
    }
    return DataNode::list(std::move(rows), location, key_path);
  }();
  return ParamTable{std::make_shared<const DataNode>(std::move(table))};
}

YAML::Node table_yaml(const DataNode& table) {
  switch (table.kind()) {
    case DataNode::Kind::scalar: return YAML::Node(table.text());
    case DataNode::Kind::list: {
      YAML::Node list(YAML::NodeType::Sequence);
      for (const auto& item : table.items()) list.push_back(table_yaml(item));
      return list;
    }
    case DataNode::Kind::map: {
      YAML::Node map(YAML::NodeType::Map);
      for (const auto& [key, value] : table.members()) map.force_insert(key, table_yaml(value));
      return map;
    }
  }
  return {};
}

}  // namespace levelforge::config
