#include "kernels/api/params.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace levelforge {

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::integer: return "int";
    case ParamType::real: return "real";
    case ParamType::boolean: return "bool";
    case ParamType::choice: return "choice";
    case ParamType::text: return "text";
    case ParamType::table: return "table";
  }
  return "?";
}

std::string format_value(const ParamValue& value) {
  struct Formatter {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      // YAML spellings, so that every formatted value parses back to itself.
      if (std::isnan(v)) return ".nan";
      if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
      // The shortest text that reads back as exactly this double: 0.9, not 0.90000000000000002.
      std::array<char, 32> buffer{};
      const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v).ptr;
      std::string text(buffer.data(), end);
      // A real must still read back as a real, never as an int.
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
      return text;
    }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return v; }
    std::string operator()(const ParamTable& v) const { return v.root->flow_text(); }
  };
  return std::visit(Formatter{}, value);
}

const ParamValue& ParamSet::at(std::string_view name) const {
  auto found = values_.find(name);
  if (found == values_.end()) {
    throw KernelError("parameter '" + std::string(name) + "' is not declared by the kernel");
  }
  return found->second;
}

namespace {
template <class T>
const T& typed(const ParamSet& set, std::string_view name, std::string_view type_name) {
  const auto& value = set.at(name);
  if (const auto* typed_value = std::get_if<T>(&value)) return *typed_value;
  throw KernelError("parameter '" + std::string(name) + "' is not of type " +
                    std::string(type_name) + " (value " + format_value(value) + ")");
}
}  // namespace

std::int64_t ParamSet::integer(std::string_view name) const {
  return typed<std::int64_t>(*this, name, "int");
}
double ParamSet::real(std::string_view name) const { return typed<double>(*this, name, "real"); }
bool ParamSet::boolean(std::string_view name) const { return typed<bool>(*this, name, "bool"); }
const std::string& ParamSet::choice(std::string_view name) const {
  return typed<std::string>(*this, name, "choice");
}
const std::string& ParamSet::text(std::string_view name) const {
  return typed<std::string>(*this, name, "text");
}
const DataNode& ParamSet::table(std::string_view name) const {
  return *typed<ParamTable>(*this, name, "table").root;
}

ParamSet ParamSet::defaults(const std::vector<ParamSpec>& specs) {
  ParamSet set;
  for (const auto& spec : specs) set.set(spec.name, spec.default_value);
  return set;
}

}  // namespace levelforge
