#pragma once
// Kernel and driver parameters: declared once with type, default, range and doc, so that
// the config validator, `levelforge kernels` and the docs are generated from one source.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kernels/api/data_tree.hpp"

namespace levelforge {

// Thrown by kernels (and by the runner on their behalf) for violated kernel contracts.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// text: any non-empty string (a name the kernel resolves). table: a structured value
// (DataNode) written inline in the config or in a YAML file the config names.
enum class ParamType { integer, real, boolean, choice, text, table };

using ParamValue = std::variant<std::int64_t, double, bool, std::string, ParamTable>;

struct ParamSpec {
  std::string name;
  ParamType type;
  ParamValue default_value;
  std::string doc;
  std::optional<ParamValue> min;     // inclusive; integer and real only
  std::optional<ParamValue> max;     // inclusive; integer and real only
  std::vector<std::string> choices;  // choice only
};

inline ParamSpec int_param(std::string name, std::int64_t default_value, std::int64_t min,
                           std::int64_t max, std::string doc) {
  return {std::move(name),
          ParamType::integer,
          default_value,
          std::move(doc),
          ParamValue{min},
          ParamValue{max},
          {}};
}

inline ParamSpec real_param(std::string name, double default_value, double min, double max,
                            std::string doc) {
  return {std::move(name),
          ParamType::real,
          default_value,
          std::move(doc),
          ParamValue{min},
          ParamValue{max},
          {}};
}

inline ParamSpec bool_param(std::string name, bool default_value, std::string doc) {
  return {std::move(name),
          ParamType::boolean,
          default_value,
          std::move(doc),
          std::nullopt,
          std::nullopt,
          {}};
}

// The first choice is the default.
inline ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string doc) {
  ParamValue first = choices.at(0);
  return {std::move(name), ParamType::choice, std::move(first),  std::move(doc),
          std::nullopt,    std::nullopt,      std::move(choices)};
}

inline ParamSpec text_param(std::string name, std::string default_value, std::string doc) {
  return {std::move(name),
          ParamType::text,
          std::move(default_value),
          std::move(doc),
          std::nullopt,
          std::nullopt,
          {}};
}

// A table's default is an empty list unless given; tables cannot be swept.
inline ParamSpec table_param(std::string name, std::string doc,
                             DataNode default_value = DataNode::list({})) {
  return {std::move(name),
          ParamType::table,
          ParamTable{std::make_shared<const DataNode>(std::move(default_value))},
          std::move(doc),
          std::nullopt,
          std::nullopt,
          {}};
}

// A choice parameter's words and the enum values they stand for, written once: the spec,
// the reading (ParamSet::choice_as) and the printing of a value all come from it.
template <class Enum, std::size_t N>
struct Vocabulary {
  std::array<std::pair<std::string_view, Enum>, N> words;

  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> result;
    for (const auto& word : words) result.emplace_back(word.first);
    return result;
  }
  [[nodiscard]] constexpr std::string_view name(Enum value) const {
    for (const auto& [text, option] : words)
      if (option == value) return text;
    return "?";
  }
};

template <class Enum, std::size_t N>
ParamSpec choice_param(std::string name, const Vocabulary<Enum, N>& vocabulary, std::string doc) {
  return choice_param(std::move(name), vocabulary.names(), std::move(doc));
}

std::string_view to_string(ParamType type);
std::string format_value(const ParamValue& value);

// Validated values by name. Every declared parameter is present (defaults filled in).
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(std::map<std::string, ParamValue, std::less<>> values)
      : values_(std::move(values)) {}

  [[nodiscard]] std::int64_t integer(std::string_view name) const;
  [[nodiscard]] double real(std::string_view name) const;
  [[nodiscard]] bool boolean(std::string_view name) const;
  [[nodiscard]] const std::string& choice(std::string_view name) const;
  [[nodiscard]] const std::string& text(std::string_view name) const;
  [[nodiscard]] const DataNode& table(std::string_view name) const;
  // The enum value a choice parameter names; `options` pairs each declared choice with one.
  template <class Enum>
  [[nodiscard]] Enum choice_as(
      std::string_view name,
      std::initializer_list<std::pair<std::string_view, Enum>> options) const {
    const std::string& value = choice(name);
    for (const auto& [text, option] : options)
      if (value == text) return option;
    throw KernelError("parameter '" + std::string(name) + "': unexpected choice '" + value + "'");
  }

  template <class Enum, std::size_t N>
  [[nodiscard]] Enum choice_as(std::string_view name, const Vocabulary<Enum, N>& vocabulary) const {
    const std::string& value = choice(name);
    for (const auto& [text, option] : vocabulary.words)
      if (value == text) return option;
    throw KernelError("parameter '" + std::string(name) + "': unexpected choice '" + value + "'");
  }

  [[nodiscard]] const ParamValue& at(std::string_view name) const;
  void set(const std::string& name, ParamValue value) { values_[name] = std::move(value); }
  [[nodiscard]] const auto& values() const { return values_; }

  // Defaults of every spec; used by tests and benchmarks that build kernels directly.
  static ParamSet defaults(const std::vector<ParamSpec>& specs);

 private:
  std::map<std::string, ParamValue, std::less<>> values_;
};

}  // namespace levelforge
