#include "kernels/api/data_tree.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "kernels/api/params.hpp"
#include "kernels/api/text.hpp"

namespace levelforge {
namespace {

std::string kind_name(DataNode::Kind kind) {
  switch (kind) {
    case DataNode::Kind::scalar: return "a single value";
    case DataNode::Kind::list: return "a list";
    case DataNode::Kind::map: return "a map";
  }
  return "?";
}

std::string join_keys(std::initializer_list<std::string_view> keys) {
  std::string text;
  for (const auto key : keys) {
    if (!text.empty()) text += ", ";
    text += key;
  }
  return text;
}

}  // namespace

DataNode DataNode::scalar(std::string text, std::string where, std::string path) {
  DataNode node;
  node.kind_ = Kind::scalar;
  node.text_ = std::move(text);
  node.where_ = std::move(where);
  node.path_ = std::move(path);
  return node;
}

DataNode DataNode::list(std::vector<DataNode> items, std::string where, std::string path) {
  DataNode node;
  node.kind_ = Kind::list;
  node.items_ = std::move(items);
  node.where_ = std::move(where);
  node.path_ = std::move(path);
  return node;
}

DataNode DataNode::map(std::vector<std::pair<std::string, DataNode>> members, std::string where,
                       std::string path) {
  DataNode node;
  node.kind_ = Kind::map;
  node.members_ = std::move(members);
  node.where_ = std::move(where);
  node.path_ = std::move(path);
  return node;
}

void DataNode::fail(const std::string& problem) const {
  std::string message;
  if (!where_.empty()) message += where_ + ": ";
  if (!path_.empty()) message += path_ + ": ";
  throw KernelError(message + problem);
}

const DataNode& DataNode::expect(Kind kind) const {
  if (kind_ != kind) fail("expected " + kind_name(kind) + ", got " + kind_name(kind_));
  return *this;
}

const std::string& DataNode::text() const { return expect(Kind::scalar).text_; }

std::int64_t DataNode::integer(std::int64_t min, std::int64_t max) const {
  const std::string& value = text();
  std::int64_t result = 0;
  const auto* end = value.data() + value.size();
  const auto parsed = std::from_chars(value.data(), end, result);
  if (value.empty() || parsed.ec != std::errc{} || parsed.ptr != end) {
    fail("expected an int, got " + quoted_value(value));
  }
  if (result < min || result > max) {
    fail(value + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return result;
}

double DataNode::real(double min, double max) const {
  const std::string& value = text();
  const char* begin = value.data() + (value.starts_with('+') ? 1 : 0);
  const auto* end = value.data() + value.size();
  double result = 0;
  const auto parsed = std::from_chars(begin, end, result);
  if (value.empty() || parsed.ec != std::errc{} || parsed.ptr != end || !std::isfinite(result)) {
    fail("expected a finite real, got " + quoted_value(value));
  }
  if (result < min || result > max) {
    fail(value + " is out of range [" + format_value(min) + ", " + format_value(max) + "]");
  }
  return result;
}

bool DataNode::boolean() const {
  const std::string& value = text();
  if (value == "true" || value == "True" || value == "TRUE") return true;
  if (value == "false" || value == "False" || value == "FALSE") return false;
  fail("expected a bool (true or false), got " + quoted_value(value));
}

const std::vector<DataNode>& DataNode::items() const { return expect(Kind::list).items_; }

const std::vector<std::pair<std::string, DataNode>>& DataNode::members() const {
  return expect(Kind::map).members_;
}

const DataNode* DataNode::find(std::string_view key) const {
  const auto& all = members();
  const auto found =
      std::find_if(all.begin(), all.end(), [&](const auto& member) { return member.first == key; });
  return found == all.end() ? nullptr : &found->second;
}

const DataNode& DataNode::at(std::string_view key) const {
  const DataNode* value = find(key);
  if (value == nullptr) fail("missing required key '" + std::string(key) + "'");
  return *value;
}

void DataNode::check_keys(std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, value] : members()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      value.fail("unknown key " + quoted_value(key) + "; valid keys: " + join_keys(allowed));
    }
  }
}

std::int64_t DataNode::integer_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                                  std::int64_t max) const {
  const DataNode* value = find(key);
  return value == nullptr ? fallback : value->integer(min, max);
}

double DataNode::real_or(std::string_view key, double fallback, double min, double max) const {
  const DataNode* value = find(key);
  return value == nullptr ? fallback : value->real(min, max);
}

bool DataNode::boolean_or(std::string_view key, bool fallback) const {
  const DataNode* value = find(key);
  return value == nullptr ? fallback : value->boolean();
}

std::string DataNode::flow_text() const {
  switch (kind_) {
    case Kind::scalar: return text_;
    case Kind::list: {
      std::string text = "[";
      for (std::size_t i = 0; i < items_.size(); ++i) {
        text += (i == 0 ? "" : ", ") + items_[i].flow_text();
      }
      return text + "]";
    }
    case Kind::map: {
      std::string text = "{";
      for (std::size_t i = 0; i < members_.size(); ++i) {
        text += (i == 0 ? "" : ", ") + members_[i].first + ": " + members_[i].second.flow_text();
      }
      return text + "}";
    }
  }
  return {};
}

bool operator==(const DataNode& a, const DataNode& b) {
  return a.kind_ == b.kind_ && a.text_ == b.text_ && a.items_ == b.items_ &&
         a.members_ == b.members_;
}

}  // namespace levelforge
