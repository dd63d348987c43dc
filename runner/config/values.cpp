#include "runner/config/values.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <regex>

#include "kernels/api/text.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/suggest.hpp"

namespace levelforge::config {
namespace {

[[noreturn]] void fail(std::string_view location, std::string_view key_path,
                       const std::string& problem) {
  throw ConfigError(std::string(location) + ": " + std::string(key_path) + ": " + problem);
}

enum class IntegerReading { ok, not_an_integer, outside_int64 };

struct IntegerResult {
  IntegerReading reading;
  std::int64_t value = 0;
};

// Decimal notation, exponent included, read exactly: "2e7" and "1.5e3" are integers,
// "2.5" is not, and no rounding through a double can make "9007199254740993" another value.
IntegerResult read_integer(const std::string& text) {
  static const std::regex decimal(R"(([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?)");
  std::smatch parts;
  if (!std::regex_match(text, parts, decimal)) return {IntegerReading::not_an_integer};
  const bool negative = parts[1] == "-";
  const std::string fraction = parts[3].str();
  std::string digits = parts[2].str() + fraction;
  if (digits.empty()) return {IntegerReading::not_an_integer};

  constexpr long long huge_exponent = 1LL << 40;
  long long exponent = 0;
  if (parts[4].matched) {
    std::string exponent_text = parts[4].str();
    if (exponent_text.front() == '+') exponent_text.erase(0, 1);
    const auto* end = exponent_text.data() + exponent_text.size();
    if (std::from_chars(exponent_text.data(), end, exponent).ec != std::errc{}) {
      exponent = exponent_text.front() == '-' ? -huge_exponent : huge_exponent;
    }
  }
  exponent -= static_cast<long long>(fraction.size());

  digits.erase(0, digits.find_first_not_of('0'));
  if (digits.empty()) return {IntegerReading::ok, 0};
  while (exponent < 0 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (exponent < 0) return {IntegerReading::not_an_integer};
  constexpr long long max_digits = std::numeric_limits<std::int64_t>::digits10 + 1;
  if (static_cast<long long>(digits.size()) + exponent > max_digits) {
    return {IntegerReading::outside_int64};
  }
  digits.append(static_cast<std::size_t>(exponent), '0');

  std::uint64_t magnitude = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  const std::uint64_t largest = std::numeric_limits<std::int64_t>::max();
  if (magnitude > largest + (negative ? 1 : 0)) return {IntegerReading::outside_int64};
  if (!negative) return {IntegerReading::ok, static_cast<std::int64_t>(magnitude)};
  if (magnitude == largest + 1)
    return {IntegerReading::ok, std::numeric_limits<std::int64_t>::min()};
  return {IntegerReading::ok, -static_cast<std::int64_t>(magnitude)};
}

enum class RealReading { ok, not_a_number, outside_double };

struct RealResult {
  RealReading reading;
  double value = 0;
};

RealResult read_real(const std::string& text) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (const char* name : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
    if (text == name) return {RealReading::ok, inf};
  }
  for (const char* name : {"-.inf", "-.Inf", "-.INF"}) {
    if (text == name) return {RealReading::ok, -inf};
  }
  for (const char* name : {".nan", ".NaN", ".NAN"}) {
    if (text == name) return {RealReading::ok, std::numeric_limits<double>::quiet_NaN()};
  }
  static const std::regex yaml_float(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (!std::regex_match(text, yaml_float)) return {RealReading::not_a_number};
  const char* begin = text.data() + (text.front() == '+' ? 1 : 0);
  double value = 0;
  if (std::from_chars(begin, text.data() + text.size(), value).ec != std::errc{}) {
    return {RealReading::outside_double};
  }
  return {RealReading::ok, value};
}

std::optional<bool> read_boolean(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

// A tag of YAML's core schema (YAML 1.2, 10.3), the ones a config honours: !!NAME.
struct CoreTag {
  std::string_view name;
  std::string_view noun;   // what its values are: "an int"
  std::string_view texts;  // the scalar texts it takes: "true or false"
  bool (*takes)(const std::string& text);
};

bool is_null_text(const std::string& text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

// Decimal only: a config reads no other integer (0x10 and 0o20 are refused untagged too).
bool is_integer_text(const std::string& text) {
  static const std::regex decimal("[-+]?[0-9]+");
  return std::regex_match(text, decimal);
}

const std::array<CoreTag, 7>& core_tags() {
  static const std::array<CoreTag, 7> tags = {{
      {"str", "a string", "any text", [](const std::string&) { return true; }},
      {"int", "an int", "decimal digits with an optional sign", is_integer_text},
      {"float", "a real", "a number, .inf or .nan",
       [](const std::string& text) {
         return read_real(text).reading != RealReading::not_a_number;
       }},
      {"bool", "a bool", "true or false",
       [](const std::string& text) { return read_boolean(text).has_value(); }},
      {"null", "null", "null, ~ or nothing", is_null_text},
      {"seq", "a list", "a list, never a single value", [](const std::string&) { return false; }},
      {"map", "a map", "a map, never a single value", [](const std::string&) { return false; }},
  }};
  return tags;
}

constexpr std::string_view yaml_tag_prefix = "tag:yaml.org,2002:";

// The tag as it is written: !!int for YAML's own.
std::string written_tag(const std::string& tag) {
  return tag.starts_with(yaml_tag_prefix) ? "!!" + tag.substr(yaml_tag_prefix.size()) : tag;
}

// Whether `node` has a tag of its own: yaml-cpp gives a plain scalar "?" and a quoted one "!"
// (a string).
bool explicitly_tagged(const YAML::Node& node) {
  const auto& tag = node.Tag();
  return !tag.empty() && tag != "?" && tag != "!";
}

// The core schema's tag `node` carries; nullptr for none, or another one.
const CoreTag* core_tag(const YAML::Node& node) {
  const auto& tag = node.Tag();
  if (!tag.starts_with(yaml_tag_prefix)) return nullptr;
  const std::string_view name = std::string_view(tag).substr(yaml_tag_prefix.size());
  const auto& tags = core_tags();
  const auto found = std::find_if(tags.begin(), tags.end(),
                                  [&](const CoreTag& core) { return core.name == name; });
  return found == tags.end() ? nullptr : &*found;
}

// A tag decides the type of its scalar, so it must be one the config knows and its text one
// of that type's: `!!bool 5` is an invalid bool, not the integer 5. A config has no use for
// other tags (`!python/object`, YAML 1.1's `!!binary`), and a tag it ignored would change
// nothing silently.
void check_tag(const YAML::Node& node, std::string_view key_path, std::string_view location) {
  if (!explicitly_tagged(node)) return;
  const CoreTag* tag = core_tag(node);
  if (tag == nullptr) {
    fail(location, key_path,
         "unknown YAML tag " + quoted_value(written_tag(node.Tag())) +
             "; a config uses none but YAML's core schema's (!!str, !!int, !!float, !!bool, "
             "!!null, !!seq, !!map)");
  }
  if (node.IsScalar() && !tag->takes(node.Scalar())) {
    fail(location, key_path,
         quoted_value(node.Scalar()) + " is not a valid !!" + std::string(tag->name) + " (" +
             std::string(tag->texts) + ")");
  }
}

// The text of `node` where it may be a value of one of `types` (core schema names): a plain
// scalar, whose text then decides, or one tagged with one of them. A quoted scalar is a
// string.
std::optional<std::string> scalar_of_type(const YAML::Node& node,
                                          std::initializer_list<std::string_view> types) {
  if (!node.IsScalar() || node.Tag() == "!") return std::nullopt;
  if (!explicitly_tagged(node)) return node.Scalar();
  const CoreTag* tag = core_tag(node);
  if (tag == nullptr || std::find(types.begin(), types.end(), tag->name) == types.end()) {
    return std::nullopt;
  }
  return node.Scalar();
}

std::string expected_type(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::integer: return "an int";
    case ParamType::real: return "a real";
    case ParamType::boolean: return "a bool (true or false)";
    case ParamType::choice: return "one of: " + join(spec.choices);
    case ParamType::text: return "a non-empty text";
    case ParamType::table: return "a table";
  }
  return "?";
}

std::string range_text(const ParamSpec& spec) {
  return "[" + format_value(*spec.min) + ", " + format_value(*spec.max) + "]";
}

[[noreturn]] void fail_type(const ParamSpec& spec, const YAML::Node& node,
                            std::string_view key_path, std::string_view location) {
  fail(location, key_path, "expected " + expected_type(spec) + ", got " + describe(node));
}

[[noreturn]] void fail_range(const ParamSpec& spec, const std::string& value_text,
                             std::string_view key_path, std::string_view location) {
  fail(location, key_path, value_text + " is out of range " + range_text(spec));
}

std::int64_t integer_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                           std::string_view location) {
  // An integral real is an integer ("2e7", "16.0"), tagged !!float or not.
  const auto text = scalar_of_type(node, {"int", "float"});
  if (!text) fail_type(spec, node, key_path, location);
  const IntegerResult result = read_integer(*text);
  if (result.reading == IntegerReading::not_an_integer) fail_type(spec, node, key_path, location);
  if (result.reading == IntegerReading::outside_int64) {
    fail_range(spec, *text, key_path, location);
  }
  const auto min = std::get<std::int64_t>(*spec.min);
  const auto max = std::get<std::int64_t>(*spec.max);
  if (result.value < min || result.value > max) {
    fail_range(spec, std::to_string(result.value), key_path, location);
  }
  return result.value;
}

double real_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                  std::string_view location) {
  const auto text = scalar_of_type(node, {"int", "float"});
  if (!text) fail_type(spec, node, key_path, location);
  const RealResult result = read_real(*text);
  if (result.reading == RealReading::not_a_number) fail_type(spec, node, key_path, location);
  if (result.reading == RealReading::outside_double) {
    fail(location, key_path, *text + " is beyond the range of a double");
  }
  const double min = std::get<double>(*spec.min);
  const double max = std::get<double>(*spec.max);
  const double value = result.value;
  // NaN compares false with every bound, so it is allowed only where nothing is bounded.
  const bool unbounded = std::isinf(min) && min < 0 && std::isinf(max) && max > 0;
  const bool in_range = std::isnan(value) ? unbounded : (min <= value && value <= max);
  if (!in_range) fail_range(spec, format_value(value), key_path, location);
  return value;
}

bool boolean_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                   std::string_view location) {
  const auto text = scalar_of_type(node, {"bool"});
  const auto value = text ? read_boolean(*text) : std::nullopt;
  if (!value) fail_type(spec, node, key_path, location);
  return *value;
}

std::string choice_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                         std::string_view location) {
  if (!node.IsScalar()) fail_type(spec, node, key_path, location);
  const std::string& text = node.Scalar();
  for (const auto& choice : spec.choices) {
    if (choice == text) return text;
  }
  fail(location, key_path, quoted_value(text) + " is not one of: " + join(spec.choices));
}

std::string text_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                       std::string_view location) {
  if (!node.IsScalar() || node.Scalar().empty()) fail_type(spec, node, key_path, location);
  return node.Scalar();
}

}  // namespace

ParamValue read_value(const ParamSpec& spec, const YAML::Node& node, std::string_view key_path,
                      std::string_view location) {
  check_tag(node, key_path, location);
  switch (spec.type) {
    case ParamType::integer: return integer_value(spec, node, key_path, location);
    case ParamType::real: return real_value(spec, node, key_path, location);
    case ParamType::boolean: return boolean_value(spec, node, key_path, location);
    case ParamType::choice: return choice_value(spec, node, key_path, location);
    case ParamType::text: return text_value(spec, node, key_path, location);
    case ParamType::table: break;  // read_table reads them, from files too
  }
  fail_type(spec, node, key_path, location);
}

void check_in_range(const ParamSpec& spec, const ParamValue& value, std::string_view key_path,
                    std::string_view location) {
  if (const auto* integer = std::get_if<std::int64_t>(&value)) {
    if (*integer < std::get<std::int64_t>(*spec.min) ||
        *integer > std::get<std::int64_t>(*spec.max)) {
      fail_range(spec, std::to_string(*integer), key_path, location);
    }
  } else if (const auto* real = std::get_if<double>(&value)) {
    if (!(std::get<double>(*spec.min) <= *real && *real <= std::get<double>(*spec.max))) {
      fail_range(spec, format_value(value), key_path, location);
    }
  }
}

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      if (const CoreTag* tag = core_tag(node)) {
        return quoted_value(node.Scalar()) + " (tagged !!" + std::string(tag->name) + ": " +
               std::string(tag->noun) + ")";
      }
      return quoted_value(node.Scalar()) + (node.Tag() == "!" ? " (a quoted string)" : "");
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

}  // namespace levelforge::config
