#include "runner/config/sweep_values.hpp"

#include <boost/random/sobol.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "kernels/api/rng.hpp"
#include "kernels/api/text.hpp"
#include "runner/config/experiment.hpp"
#include "runner/config/suggest.hpp"
#include "runner/config/values.hpp"

namespace levelforge::config {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

[[noreturn]] void fail_at(const std::string& location, const std::string& key_path,
                          const std::string& problem) {
  throw ConfigError(location + ": " + key_path + ": " + problem);
}

// The one entry of a map like {linspace: [0, 1, 5]}: its name and its list.
struct Form {
  std::string name;
  YAML::Node name_node;
  YAML::Node list;
};

Form read_form(const YAML::Node& node, const std::vector<std::string>& names,
               const std::string& key_path, const Locate& locate) {
  if (!node.IsMap() || node.size() != 1) {
    fail_at(locate(node), key_path,
            "expected a list, or a map with one of " + join(names) + ", got " + describe(node));
  }
  const auto entry = *node.begin();
  const std::string name = entry.first.as<std::string>();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    fail_at(locate(entry.first), key_path,
            "unknown form " + quoted_value(name) + closest_hint(name, names, "valid forms"));
  }
  return {name, entry.first, entry.second};
}

// The list of a form, checked to have `count` elements: what they mean for the message.
void check_arity(const Form& form, std::size_t count, const std::string& meaning,
                 const std::string& key_path, const Locate& locate) {
  if (!form.list.IsSequence() || form.list.size() != count) {
    fail_at(locate(form.list), key_path,
            form.name + " takes a list of " + std::to_string(count) + ": " + meaning + ", got " +
                describe(form.list));
  }
}

double read_number(const YAML::Node& node, const std::string& key_path, const Locate& locate) {
  return std::get<double>(
      read_value(real_param("", 0, -inf, inf, ""), node, key_path, locate(node)));
}

std::int64_t read_whole(const YAML::Node& node, std::int64_t min, const std::string& key_path,
                        const Locate& locate) {
  return std::get<std::int64_t>(
      read_value(int_param("", 0, min, int64_max, ""), node, key_path, locate(node)));
}

// A computed value as the key's type: an integer key takes only whole numbers.
ParamValue as_key_value(const ParamSpec& spec, double value, const std::string& key_path,
                        const std::string& location) {
  if (spec.type == ParamType::real) return value;
  constexpr double exact_integers = 0x1.0p53;  // beyond, a double skips integers
  if (!(std::abs(value) <= exact_integers)) {
    fail_at(location, key_path,
            format_value(ParamValue{value}) +
                " is beyond 2^53, where a computed number is no "
                "longer an exact integer: list the values");
  }
  const double whole = std::round(value);
  // logspace's powers of ten come out of pow() within an ulp of the whole number.
  if (std::abs(value - whole) > 1e-9) {
    fail_at(location, key_path,
            format_value(ParamValue{value}) + " is not a whole number, and " + spec.name +
                " is an integer");
  }
  return static_cast<std::int64_t>(whole);
}

void check_numeric_key(const ParamSpec& spec, const std::string& form, const std::string& key_path,
                       const std::string& location) {
  if (spec.type != ParamType::integer && spec.type != ParamType::real) {
    fail_at(location, key_path, form + " gives numbers; " + spec.name + " is not a number");
  }
}

std::size_t checked_count(double count, std::size_t max_values, const std::string& key_path,
                          const std::string& location) {
  if (!(count >= 1)) fail_at(location, key_path, "the sequence is empty");
  if (count > static_cast<double>(max_values)) {
    fail_at(location, key_path,
            "the sequence has more than " + std::to_string(max_values) + " values");
  }
  return static_cast<std::size_t>(count);
}

std::vector<ParamValue> integer_range(const Form& form, std::size_t max_values,
                                      const std::string& key_path, const Locate& locate) {
  std::array<std::int64_t, 3> bounds{};
  for (std::size_t k = 0; k < 3; ++k) {
    bounds[k] = read_whole(form.list[k], std::numeric_limits<std::int64_t>::min(),
                           key_path + "." + form.name + "[" + std::to_string(k) + "]", locate);
  }
  const auto [start, stop, step] = bounds;
  if (step == 0) fail_at(locate(form.list[2]), key_path, "range step must not be 0");
  // In 128 bits: stop - start and k step may leave int64 although every value lies
  // between start and stop. The count is the exact ceiling of (stop - start) / step.
  __extension__ using Wide = __int128;
  const Wide span = Wide{stop} - Wide{start};
  Wide count = 0;
  if (step > 0 && span > 0) count = (span + step - 1) / step;
  if (step < 0 && span < 0) count = (span + step + 1) / step;
  const std::size_t checked =
      checked_count(static_cast<double>(count), max_values, key_path, locate(form.list));
  std::vector<ParamValue> values;
  values.reserve(checked);
  for (std::size_t k = 0; k < checked; ++k) {
    values.emplace_back(static_cast<std::int64_t>(Wide{start} + Wide{step} * static_cast<Wide>(k)));
  }
  return values;
}

}  // namespace

std::vector<ParamValue> sequence_values(const ParamSpec& spec, const YAML::Node& node,
                                        const std::string& key_path, const Locate& locate,
                                        std::size_t max_values) {
  const Form form = read_form(node, {"range", "linspace", "logspace"}, key_path, locate);
  const std::string location = locate(node);
  check_numeric_key(spec, form.name, key_path, location);
  std::vector<ParamValue> values;
  if (form.name == "range") {
    check_arity(form, 3, "[start, stop, step], stop left out", key_path, locate);
    if (spec.type == ParamType::integer) {
      values = integer_range(form, max_values, key_path, locate);
    } else {
      const double start = read_number(form.list[0], key_path, locate);
      const double stop = read_number(form.list[1], key_path, locate);
      const double step = read_number(form.list[2], key_path, locate);
      if (step == 0) fail_at(locate(form.list[2]), key_path, "range step must not be 0");
      // NumPy's arange, ceil((stop - start) / step) values start + k step, less any that
      // rounding puts on or past stop ({range: [0.7, 1.0, 0.1]} would end on 1.0).
      std::size_t count =
          checked_count(std::ceil((stop - start) / step), max_values, key_path, locate(form.list));
      const auto at = [&](std::size_t k) { return start + static_cast<double>(k) * step; };
      while (count > 0 && (step > 0 ? at(count - 1) >= stop : at(count - 1) <= stop)) --count;
      checked_count(static_cast<double>(count), max_values, key_path, locate(form.list));
      for (std::size_t k = 0; k < count; ++k) values.emplace_back(at(k));
    }
  } else {
    check_arity(form, 3,
                form.name == "linspace" ? "[first, last, count]"
                                        : "[first exponent, last exponent, count] of 10",
                key_path, locate);
    const double first = read_number(form.list[0], key_path, locate);
    const double last = read_number(form.list[1], key_path, locate);
    const auto count = static_cast<std::size_t>(read_whole(form.list[2], 1, key_path, locate));
    checked_count(static_cast<double>(count), max_values, key_path, locate(form.list));
    for (std::size_t k = 0; k < count; ++k) {
      // NumPy's linspace: one value is `first`; the last of several is `last` exactly.
      double at = first;
      if (count > 1) {
        at = k + 1 == count ? last
                            : first + static_cast<double>(k) *
                                          ((last - first) / static_cast<double>(count - 1));
      }
      const double value = form.name == "linspace" ? at : std::pow(10.0, at);
      values.push_back(as_key_value(spec, value, key_path, location));
    }
  }
  for (const auto& value : values) check_in_range(spec, value, key_path, location);
  return values;
}

ParamValue SampleAxis::value_at(double u) const {
  // Rounding may put a stratum's point (lhs) on 1, and a real value on `high`: both are
  // kept inside the documented half-open ranges.
  u = std::clamp(u, 0.0, std::nextafter(1.0, 0.0));
  const auto inside = [this](double value) {
    return std::clamp(value, low, std::nextafter(high, low));
  };
  switch (kind) {
    case Kind::uniform: return inside(low + u * (high - low));
    case Kind::loguniform:
      return inside(std::exp(std::log(low) + u * (std::log(high) - std::log(low))));
    case Kind::integer: {
      const auto span = static_cast<double>(last - first) + 1;
      return std::min(last, first + static_cast<std::int64_t>(u * span));
    }
    case Kind::choice: {
      const auto index = static_cast<std::size_t>(u * static_cast<double>(choices.size()));
      return choices[std::min(index, choices.size() - 1)];
    }
  }
  return {};
}

YAML::Node SampleAxis::yaml() const {
  YAML::Node list(YAML::NodeType::Sequence);
  list.SetStyle(YAML::EmitterStyle::Flow);
  YAML::Node node(YAML::NodeType::Map);
  node.SetStyle(YAML::EmitterStyle::Flow);
  switch (kind) {
    case Kind::uniform:
    case Kind::loguniform:
      list.push_back(format_value(ParamValue{low}));
      list.push_back(format_value(ParamValue{high}));
      node[kind == Kind::uniform ? "uniform" : "loguniform"] = list;
      break;
    case Kind::integer:
      list.push_back(first);
      list.push_back(last);
      node["int"] = list;
      break;
    case Kind::choice:
      for (const auto& choice : choices) list.push_back(format_value(choice));
      node["choice"] = list;
      break;
  }
  return node;
}

SampleAxis read_sample_axis(const ParamSpec& spec, const YAML::Node& node,
                            const std::string& key_path, const Locate& locate) {
  const Form form = read_form(node, {"uniform", "loguniform", "int", "choice"}, key_path, locate);
  SampleAxis axis;
  if (form.name == "choice") {
    if (!form.list.IsSequence() || form.list.size() == 0) {
      fail_at(locate(form.list), key_path, "choice takes a non-empty list of values");
    }
    axis.kind = SampleAxis::Kind::choice;
    for (std::size_t k = 0; k < form.list.size(); ++k) {
      axis.choices.push_back(read_value(spec, form.list[k],
                                        key_path + ".choice[" + std::to_string(k) + "]",
                                        locate(form.list[k])));
    }
    return axis;
  }
  check_arity(form, 2, "[low, high]", key_path, locate);
  const std::array<std::string, 2> ends = {key_path + "." + form.name + "[0]",
                                           key_path + "." + form.name + "[1]"};
  if (form.name == "int") {
    if (spec.type != ParamType::integer) {
      fail_at(locate(form.name_node), key_path,
              "int samples integers; " + spec.name + " is not an integer key");
    }
    axis.kind = SampleAxis::Kind::integer;
    axis.first =
        std::get<std::int64_t>(read_value(spec, form.list[0], ends[0], locate(form.list[0])));
    axis.last =
        std::get<std::int64_t>(read_value(spec, form.list[1], ends[1], locate(form.list[1])));
    if (axis.first > axis.last) fail_at(locate(form.list), key_path, "int needs low <= high");
    return axis;
  }
  if (spec.type != ParamType::real) {
    fail_at(locate(form.name_node), key_path,
            form.name + " samples real numbers; " + spec.name +
                (spec.type == ParamType::integer
                     ? " is an integer key: sample it with {int: [low, high]}"
                     : " is not a number: sample it with {choice: [...]}"));
  }
  axis.kind = form.name == "uniform" ? SampleAxis::Kind::uniform : SampleAxis::Kind::loguniform;
  axis.low = std::get<double>(read_value(spec, form.list[0], ends[0], locate(form.list[0])));
  axis.high = std::get<double>(read_value(spec, form.list[1], ends[1], locate(form.list[1])));
  if (!(axis.low < axis.high) || !std::isfinite(axis.high - axis.low)) {
    fail_at(locate(form.list), key_path,
            form.name + " needs finite low < high, and a finite high - low");
  }
  if (axis.kind == SampleAxis::Kind::loguniform && axis.low <= 0) {
    fail_at(locate(form.list[0]), key_path, "loguniform needs low > 0");
  }
  return axis;
}

const std::vector<std::string>& sample_method_names() {
  static const std::vector<std::string> names = {"random", "sobol", "lhs"};
  return names;
}

SampleMethod sample_method(const std::string& name) {
  const auto& names = sample_method_names();
  const auto index = std::find(names.begin(), names.end(), name) - names.begin();
  return static_cast<SampleMethod>(index);
}

const std::string& sample_method_name(SampleMethod method) {
  return sample_method_names().at(static_cast<std::size_t>(method));
}

std::vector<std::vector<double>> unit_samples(SampleMethod method, std::size_t count,
                                              std::size_t dimensions, std::uint64_t seed) {
  std::vector<std::vector<double>> points(count, std::vector<double>(dimensions));
  const auto draw = [seed](std::uint64_t sample, std::uint64_t dimension, std::uint64_t use) {
    return Rng({seed, Stream::sweep_sample, sample, dimension, use});
  };
  switch (method) {
    case SampleMethod::random:
      for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t d = 0; d < dimensions; ++d) points[i][d] = draw(i, d, 0).uniform();
      }
      break;
    case SampleMethod::lhs:
      for (std::size_t d = 0; d < dimensions; ++d) {
        std::vector<std::size_t> strata(count);
        std::iota(strata.begin(), strata.end(), 0);
        Rng shuffle = draw(0, d, 1);
        for (std::size_t k = count; k > 1; --k) std::swap(strata[k - 1], strata[shuffle.below(k)]);
        for (std::size_t i = 0; i < count; ++i) {
          points[i][d] = (static_cast<double>(strata[i]) + draw(i, d, 2).uniform()) /
                         static_cast<double>(count);
        }
      }
      break;
    case SampleMethod::sobol: {
      boost::random::sobol sequence(dimensions);
      for (auto& point : points) {
        for (double& coordinate : point)
          coordinate = static_cast<double>(sequence() >> 11U) * 0x1.0p-53;
      }
      break;
    }
  }
  return points;
}

}  // namespace levelforge::config
