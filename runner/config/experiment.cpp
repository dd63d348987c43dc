#include "runner/config/experiment.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
#include <regex>

#include "kernels/api/text.hpp"
#include "runner/config/document.hpp"
#include "runner/config/suggest.hpp"
#include "runner/config/sweep_values.hpp"
#include "runner/config/tables.hpp"
#include "runner/config/values.hpp"

namespace levelforge::config {
namespace {

// Each point holds two complete parameter sets, so a runaway grid would exhaust memory
// long before it could run.
constexpr std::uint64_t max_points = 1'000'000;
constexpr std::int64_t max_int64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t max_interval_seconds = 1'000'000'000;

const std::vector<std::string>& fixed_top_level_keys() {
  static const std::vector<std::string> keys = {"experiment", "kernel",     "driver",
                                                "params",     "sweep",      "seed",
                                                "output",     "checkpoint", "on_error"};
  return keys;
}

ParamSpec seed_spec() { return int_param("seed", 0, 0, max_int64, "seed of every task's RNG"); }

// Not swept and not part of a run's identity: a resumed run may checkpoint at another pace.
const std::vector<ParamSpec>& checkpoint_specs() {
  static const std::vector<ParamSpec> specs = {
      int_param("every", 0, 0, max_int64,
                "work per rank between checkpoints: generations (ga), tasks (sweep), chunks "
                "(exhaustive); 0: by time instead, every `seconds`"),
      // At most about 31 years: the interval must fit the clock's nanoseconds.
      int_param("seconds", 60, 1, max_interval_seconds,
                "with every: 0, seconds of work per rank between checkpoints")};
  return specs;
}

// Part of a run's identity: it decides what a failing task leaves in the result.
ParamSpec on_error_spec() {
  return choice_param("on_error", {"abort", "record"},
                      "what a task whose kernel throws does: abort the run (naming the task), "
                      "or record it in /failures and go on");
}

ParamSpec replicates_spec() {
  return int_param("replicates", 1, 1, max_int64, "tasks run per point");
}

struct SweptKey {
  std::string path;       // as written: "params.width", "ga.population"
  bool in_params = true;  // otherwise a setting of the driver's section
  std::string name;
  std::vector<ParamValue> values;
  std::string location;  // of the key, for errors about the whole list
};

// The validated config: what an Experiment is built from and effective_yaml prints.
struct Model {
  std::string name;
  std::string kernel;
  std::string driver;
  std::uint64_t seed = 0;
  std::string output;
  std::string on_error = "abort";
  ParamSet checkpoint;
  ParamSet params;
  ParamSet settings;  // the driver section's
  std::vector<SweptKey> grid;
  std::vector<SweptKey> zip;
  // sweep.sample: one more axis of `sample_count` points, each key's values the samples.
  std::vector<SweptKey> sampled;
  std::vector<SampleAxis> sample_axes;  // one per sampled key
  std::vector<ParamSpec> sample_specs;  // one per sampled key
  SampleMethod sample_method = SampleMethod::random;
  std::int64_t sample_count = 0;
  std::int64_t replicates = 1;
};

struct Entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

const Entry* find_entry(const std::vector<Entry>& entries, std::string_view key) {
  const auto found = std::find_if(entries.begin(), entries.end(),
                                  [&](const Entry& entry) { return entry.key == key; });
  return found == entries.end() ? nullptr : &*found;
}

const ParamSpec* find_spec(const std::vector<ParamSpec>& specs, std::string_view name) {
  const auto found = std::find_if(specs.begin(), specs.end(),
                                  [&](const ParamSpec& spec) { return spec.name == name; });
  return found == specs.end() ? nullptr : &*found;
}

std::vector<std::string> spec_names(const std::vector<ParamSpec>& specs,
                                    const std::string& prefix = "") {
  std::vector<std::string> names;
  names.reserve(specs.size());
  for (const auto& spec : specs) names.push_back(prefix + spec.name);
  return names;
}

template <class Map>
std::vector<std::string> key_names(const Map& map) {
  std::vector<std::string> names;
  names.reserve(map.size());
  for (const auto& [name, value] : map) names.push_back(name);
  return names;
}

KeyPath child_path(KeyPath path, const std::string& key) {
  path.push_back(key);
  return path;
}

// One axis per grid key, then one for all the zip keys together, then one for the samples.
std::vector<std::size_t> axis_sizes(const Model& model) {
  std::vector<std::size_t> sizes;
  for (const auto& key : model.grid) sizes.push_back(key.values.size());
  if (!model.zip.empty()) sizes.push_back(model.zip.front().values.size());
  if (!model.sampled.empty()) sizes.push_back(static_cast<std::size_t>(model.sample_count));
  return sizes;
}

class ModelReader {
 public:
  ModelReader(const Document& document, const Schema& schema)
      : document_(document), schema_(schema) {}

  Model read() {
    const std::vector<Entry> top = entries(document_.root(), {});
    check_top_level_keys(top);
    Model model;
    model.name = read_name(top);
    model.kernel = read_kernel(top);
    const KernelSchema& kernel = schema_.kernels.find(model.kernel)->second;
    model.driver = read_driver(top, model.kernel, kernel);
    check_driver_sections(top, model.driver);
    model.params = read_section(top, "params", kernel.params);
    if (is_driver_section(model.driver)) {
      model.settings = read_section(top, model.driver, driver_settings(model.driver));
    }
    model.seed = static_cast<std::uint64_t>(read_integer(top, {}, seed_spec()));
    model.output = read_output(top, model.name);
    model.checkpoint = read_section(top, "checkpoint", checkpoint_specs());
    model.on_error = std::get<std::string>(read_top_value(top, {}, on_error_spec()));
    read_sweep(top, kernel, model);
    return model;
  }

 private:
  [[noreturn]] void fail(const KeyPath& path, const YAML::Node& node,
                         const std::string& message) const {
    throw ConfigError(document_.location(path, node) + ": " + message);
  }

  // The entries of a map at `path`; null reads as an empty map.
  [[nodiscard]] std::vector<Entry> entries(const YAML::Node& map, const KeyPath& path) const {
    std::vector<Entry> result;
    if (map.IsNull()) return result;
    if (!map.IsMap()) {
      fail(path, map, join_key_path(path) + ": expected a map, got " + describe(map));
    }
    for (const auto& entry : map) {
      if (!entry.first.IsScalar()) {
        fail(path, entry.first, "expected a key name, got " + describe(entry.first));
      }
      // YAML 1.1's merge key, which yaml-cpp (YAML 1.2) reads as a key named "<<".
      if (entry.first.Scalar() == "<<" && entry.first.Tag() != "!") {
        fail(path, entry.first,
             "a merge key ('<<') is not supported: write the keys out, or give the whole "
             "section as an alias (*name)");
      }
      result.push_back({entry.first.Scalar(), entry.first, entry.second});
    }
    return result;
  }

  static std::string join_key_path(const KeyPath& path) {
    return path.empty() ? "the config" : join(path, ".");
  }

  [[nodiscard]] bool is_driver_section(const std::string& key) const {
    return !driver_settings(key).empty() &&
           std::find(fixed_top_level_keys().begin(), fixed_top_level_keys().end(), key) ==
               fixed_top_level_keys().end();
  }

  [[nodiscard]] const std::vector<ParamSpec>& driver_settings(std::string_view driver) const {
    static const std::vector<ParamSpec> none;
    const auto found = schema_.drivers.find(driver);
    return found == schema_.drivers.end() ? none : found->second;
  }

  void check_top_level_keys(const std::vector<Entry>& top) const {
    std::vector<std::string> valid = fixed_top_level_keys();
    for (const auto& [driver, settings] : schema_.drivers) {
      if (is_driver_section(driver)) valid.push_back(driver);
    }
    for (const auto& entry : top) {
      if (std::find(valid.begin(), valid.end(), entry.key) != valid.end()) continue;
      fail({entry.key}, entry.key_node,
           "unknown key " + quoted_value(entry.key) + " at the top level" +
               closest_hint(entry.key, valid, "valid keys"));
    }
  }

  // An empty value has no text of its own to point at, so its key stands in.
  [[nodiscard]] std::string value_location(const KeyPath& path, const Entry& entry) const {
    const YAML::Node& node = entry.value.IsNull() ? entry.key_node : entry.value;
    return document_.location(path, node);
  }

  [[noreturn]] void fail_missing(const std::string& key, const std::string& hint) const {
    throw ConfigError(document_.start_location() + ": missing required key '" + key + "'" + hint);
  }

  [[nodiscard]] std::string read_string(const Entry& entry) const {
    if (!entry.value.IsScalar() || entry.value.Scalar().empty()) {
      fail({entry.key}, entry.value,
           entry.key + ": expected a non-empty string, got " + describe(entry.value));
    }
    return entry.value.Scalar();
  }

  [[nodiscard]] std::string read_name(const std::vector<Entry>& top) const {
    const Entry* entry = find_entry(top, "experiment");
    if (entry == nullptr) fail_missing("experiment", " (the experiment's name)");
    std::string name = read_string(*entry);
    static const std::regex valid_name("[A-Za-z0-9._-]+");
    if (!std::regex_match(name, valid_name)) {
      fail({entry->key}, entry->value,
           "experiment: " + quoted_value(name) +
               " is not a valid name (use letters, digits, '-', '_', '.')");
    }
    return name;
  }

  [[nodiscard]] std::string read_kernel(const std::vector<Entry>& top) const {
    const std::vector<std::string> known = key_names(schema_.kernels);
    const Entry* entry = find_entry(top, "kernel");
    if (entry == nullptr) fail_missing("kernel", "; known kernels: " + join(known));
    std::string kernel = read_string(*entry);
    if (!schema_.kernels.contains(kernel)) {
      fail({entry->key}, entry->value,
           "unknown kernel " + quoted_value(kernel) + closest_hint(kernel, known, "known kernels"));
    }
    return kernel;
  }

  [[nodiscard]] std::string read_driver(const std::vector<Entry>& top,
                                        const std::string& kernel_name,
                                        const KernelSchema& kernel) const {
    const std::string supported = join(kernel.drivers);
    const Entry* entry = find_entry(top, "driver");
    if (entry == nullptr) {
      fail_missing("driver", "; kernel '" + kernel_name + "' supports: " + supported);
    }
    std::string driver = read_string(*entry);
    if (!schema_.drivers.contains(driver)) {
      fail({entry->key}, entry->value,
           "unknown driver " + quoted_value(driver) +
               closest_hint(driver, key_names(schema_.drivers), "known drivers"));
    }
    if (std::find(kernel.drivers.begin(), kernel.drivers.end(), driver) == kernel.drivers.end()) {
      fail({entry->key}, entry->value,
           "kernel '" + kernel_name + "' does not support driver '" + driver +
               "'; it supports: " + supported);
    }
    return driver;
  }

  void check_driver_sections(const std::vector<Entry>& top, const std::string& driver) const {
    for (const auto& entry : top) {
      if (entry.key != driver && is_driver_section(entry.key)) {
        fail({entry.key}, entry.key_node, not_this_driver(entry.key, driver));
      }
    }
  }

  static std::string not_this_driver(const std::string& section, const std::string& driver) {
    return "section '" + section + "' does not apply to driver '" + driver + "'";
  }

  // Defaults, then the values the section gives.
  [[nodiscard]] ParamSet read_section(const std::vector<Entry>& top, const std::string& section,
                                      const std::vector<ParamSpec>& specs) const {
    ParamSet values = ParamSet::defaults(specs);
    const Entry* entry = find_entry(top, section);
    if (entry == nullptr) return values;
    read_section_entries(entry->value, {section}, "", specs, values);
    return values;
  }

  // The entries of the map at `path` into `values`. A spec named "group.key" is read from
  // a nested map `group: {key: ...}` (or from a key written "group.key").
  void read_section_entries(const YAML::Node& map, const KeyPath& path, const std::string& prefix,
                            const std::vector<ParamSpec>& specs, ParamSet& values) const {
    for (const auto& item : entries(map, path)) {
      const KeyPath item_path = child_path(path, item.key);
      const std::string name = prefix + item.key;
      const ParamSpec* spec = find_spec(specs, name);
      if (spec == nullptr && item.value.IsMap() && is_group(specs, name)) {
        read_section_entries(item.value, item_path, name + ".", specs, values);
        continue;
      }
      const std::string where = join(KeyPath(path.begin(), path.end()), ".");
      if (spec == nullptr) {
        std::vector<std::string> valid;
        for (const auto& candidate : spec_names(specs))
          if (candidate.starts_with(prefix)) valid.push_back(candidate.substr(prefix.size()));
        fail(item_path, item.key_node,
             "unknown key " + quoted_value(item.key) + " in section '" + where + "'" +
                 closest_hint(item.key, valid, "valid keys"));
      }
      const std::string location = value_location(item_path, item);
      values.set(spec->name,
                 spec->type == ParamType::table
                     ? ParamValue{read_table(document_, item_path, item.value, location)}
                     : read_value(*spec, item.value, join(item_path, "."), location));
    }
  }

  static bool is_group(const std::vector<ParamSpec>& specs, const std::string& name) {
    return std::any_of(specs.begin(), specs.end(),
                       [&](const ParamSpec& spec) { return spec.name.starts_with(name + "."); });
  }

  // The value `spec` names in the map at `parent`, or its default when absent.
  [[nodiscard]] ParamValue read_top_value(const std::vector<Entry>& map_entries,
                                          const KeyPath& parent, const ParamSpec& spec) const {
    const Entry* entry = find_entry(map_entries, spec.name);
    if (entry == nullptr) return spec.default_value;
    const KeyPath path = child_path(parent, spec.name);
    return read_value(spec, entry->value, join(path, "."), value_location(path, *entry));
  }

  [[nodiscard]] std::int64_t read_integer(const std::vector<Entry>& map_entries,
                                          const KeyPath& parent, const ParamSpec& spec) const {
    return std::get<std::int64_t>(read_top_value(map_entries, parent, spec));
  }

  [[nodiscard]] std::string read_output(const std::vector<Entry>& top,
                                        const std::string& name) const {
    const Entry* entry = find_entry(top, "output");
    return entry == nullptr ? "results/" + name + ".h5" : read_string(*entry);
  }

  void read_sweep(const std::vector<Entry>& top, const KernelSchema& kernel, Model& model) const {
    const Entry* sweep = find_entry(top, "sweep");
    if (sweep == nullptr) return;
    const std::vector<Entry> sections = entries(sweep->value, {"sweep"});
    const std::vector<std::string> valid = {"grid", "zip", "sample", "replicates"};
    for (const auto& section : sections) {
      if (std::find(valid.begin(), valid.end(), section.key) == valid.end()) {
        fail({"sweep", section.key}, section.key_node,
             "unknown key " + quoted_value(section.key) + " in section 'sweep'" +
                 closest_hint(section.key, valid, "valid keys"));
      }
    }
    model.grid = read_swept_keys(sections, "grid", kernel, model.driver);
    model.zip = read_swept_keys(sections, "zip", kernel, model.driver);
    read_sample(sections, kernel, model);
    check_zip(model);
    model.replicates = read_integer(sections, {"sweep"}, replicates_spec());
    check_size(model, *sweep);
    draw_samples(model);
  }

  [[nodiscard]] std::vector<SweptKey> read_swept_keys(const std::vector<Entry>& sections,
                                                      const std::string& section,
                                                      const KernelSchema& kernel,
                                                      const std::string& driver) const {
    std::vector<SweptKey> keys;
    const Entry* entry = find_entry(sections, section);
    if (entry == nullptr) return keys;
    for (const auto& item : entries(entry->value, {"sweep", section})) {
      keys.push_back(read_swept_key(item, section, kernel, driver));
    }
    return keys;
  }

  [[nodiscard]] SweptKey read_swept_key(const Entry& item, const std::string& section,
                                        const KernelSchema& kernel,
                                        const std::string& driver) const {
    const KeyPath path{"sweep", section, item.key};
    SweptKey swept{item.key, true, "", {}, document_.location(path, item.key_node)};
    const ParamSpec& spec = resolve_swept_key(item, path, kernel, driver, swept);
    if (spec.type == ParamType::table) {
      fail(path, item.key_node,
           item.key + " is a table and cannot be swept; sweep a parameter that selects from it");
    }
    const std::string list_path = "sweep." + section + "." + item.key;
    if (item.value.IsMap()) {
      swept.values = sequence_values(spec, item.value, list_path, locator(path), max_points);
      return swept;
    }
    if (!item.value.IsSequence()) {
      fail(path, item.value,
           list_path + ": expected a list or a {range|linspace|logspace: [...]} map, got " +
               describe(item.value));
    }
    if (item.value.size() == 0) fail(path, item.value, list_path + ": the list is empty");
    std::size_t index = 0;
    for (const auto& element : item.value) {
      const std::string element_path = list_path + "[" + std::to_string(index++) + "]";
      swept.values.push_back(
          read_value(spec, element, element_path, document_.location(path, element)));
    }
    return swept;
  }

  [[nodiscard]] Locate locator(const KeyPath& path) const {
    return [this, path](const YAML::Node& node) { return document_.location(path, node); };
  }

  // sweep.sample: {method, n, space: {KEY: distribution}}, one axis of n points whose values
  // are drawn for every key from the experiment's seed.
  void read_sample(const std::vector<Entry>& sections, const KernelSchema& kernel,
                   Model& model) const {
    const Entry* sample = find_entry(sections, "sample");
    if (sample == nullptr) return;
    const KeyPath sample_path{"sweep", "sample"};
    const std::vector<Entry> keys = entries(sample->value, sample_path);
    const std::vector<std::string> valid = {"method", "n", "space"};
    for (const auto& key : keys) {
      if (std::find(valid.begin(), valid.end(), key.key) == valid.end()) {
        fail(child_path(sample_path, key.key), key.key_node,
             "unknown key " + quoted_value(key.key) + " in section 'sweep.sample'" +
                 closest_hint(key.key, valid, "valid keys"));
      }
    }
    const auto method = std::get<std::string>(
        read_top_value(keys, sample_path,
                       choice_param("method", sample_method_names(), "how the points are drawn")));
    model.sample_method = sample_method(method);
    const Entry* count = find_entry(keys, "n");
    if (count == nullptr) fail(sample_path, sample->key_node, "sweep.sample: missing key 'n'");
    model.sample_count = read_integer(
        keys, sample_path,
        int_param("n", 1, 1, static_cast<std::int64_t>(max_points), "samples per grid point"));
    const Entry* space = find_entry(keys, "space");
    if (space == nullptr) {
      fail(sample_path, sample->key_node, "sweep.sample: missing key 'space' (KEY: distribution)");
    }
    const KeyPath space_path = child_path(sample_path, "space");
    for (const auto& item : entries(space->value, space_path)) {
      const KeyPath path = child_path(space_path, item.key);
      SweptKey swept{item.key, true, "", {}, document_.location(path, item.key_node)};
      const ParamSpec& spec = resolve_swept_key(item, path, kernel, model.driver, swept);
      if (spec.type == ParamType::table) {
        fail(path, item.key_node,
             item.key +
                 " is a table and cannot be sampled; sample a parameter that selects from it");
      }
      model.sample_specs.push_back(spec);
      model.sample_axes.push_back(
          read_sample_axis(spec, item.value, "sweep.sample.space." + item.key, locator(path)));
      model.sampled.push_back(std::move(swept));
    }
    if (model.sampled.empty()) fail(space_path, space->value, "sweep.sample.space is empty");
  }

  // The sampled values, once check_size has bounded the points they make.
  static void draw_samples(Model& model) {
    if (model.sampled.empty()) return;
    const auto points =
        unit_samples(model.sample_method, static_cast<std::size_t>(model.sample_count),
                     model.sampled.size(), model.seed);
    for (std::size_t d = 0; d < model.sampled.size(); ++d) {
      auto& key = model.sampled[d];
      key.values.reserve(points.size());
      for (const auto& point : points) {
        key.values.push_back(model.sample_axes[d].value_at(point[d]));
        check_in_range(model.sample_specs[d], key.values.back(), "sweep.sample.space." + key.path,
                       key.location);
      }
    }
  }

  // Finds the spec of "params.NAME" or "DRIVER.NAME" and records which set it belongs to.
  const ParamSpec& resolve_swept_key(const Entry& item, const KeyPath& path,
                                     const KernelSchema& kernel, const std::string& driver,
                                     SweptKey& swept) const {
    const auto dot = item.key.find('.');
    const std::string section = item.key.substr(0, dot);
    swept.name = dot == std::string::npos ? "" : item.key.substr(dot + 1);
    swept.in_params = section == "params";
    const std::vector<ParamSpec>& settings = driver_settings(driver);
    const ParamSpec* spec = nullptr;
    if (section == "params") spec = find_spec(kernel.params, swept.name);
    if (section == driver) spec = find_spec(settings, swept.name);
    if (spec != nullptr) return *spec;
    if (section != driver && is_driver_section(section)) {
      fail(path, item.key_node,
           "sweep key " + quoted_value(item.key) + ": " + not_this_driver(section, driver));
    }
    std::vector<std::string> valid = spec_names(kernel.params, "params.");
    for (auto& name : spec_names(settings, driver + ".")) valid.push_back(std::move(name));
    fail(path, item.key_node,
         "unknown key " + quoted_value(item.key) + " in section '" +
             join(KeyPath(path.begin(), path.end() - 1), ".") + "'" +
             closest_hint(item.key, valid, "valid keys"));
  }

  static void check_zip(const Model& model) {
    // A key is swept once: in grid, zip or sample.
    const std::vector<std::pair<std::string, const std::vector<SweptKey>*>> sections = {
        {"sweep.grid", &model.grid},
        {"sweep.zip", &model.zip},
        {"sweep.sample.space", &model.sampled}};
    for (std::size_t later = 1; later < sections.size(); ++later) {
      for (const auto& key : *sections[later].second) {
        for (std::size_t earlier = 0; earlier < later; ++earlier) {
          const auto& keys = *sections[earlier].second;
          if (std::any_of(keys.begin(), keys.end(),
                          [&](const auto& other) { return other.path == key.path; })) {
            throw ConfigError(key.location + ": '" + key.path + "' is in both " +
                              sections[earlier].first + " and " + sections[later].first);
          }
        }
      }
    }
    for (const auto& zipped : model.zip) {
      if (zipped.values.size() == model.zip.front().values.size()) continue;
      std::vector<std::string> lengths;
      for (const auto& key : model.zip) {
        lengths.push_back(key.path + " has " + std::to_string(key.values.size()));
      }
      throw ConfigError(zipped.location +
                        ": sweep.zip lists must have equal lengths: " + join(lengths));
    }
  }

  void check_size(const Model& model, const Entry& sweep) const {
    std::uint64_t points = 1;
    for (const std::size_t size : axis_sizes(model))
      points = std::min(points * size, max_points + 1);
    if (points > max_points) {
      fail({"sweep"}, sweep.key_node,
           "the sweep has more than " + std::to_string(max_points) + " points");
    }
    if (static_cast<std::uint64_t>(model.replicates) >
        static_cast<std::uint64_t>(max_int64) / points) {
      fail({"sweep"}, sweep.key_node,
           "the sweep's " + std::to_string(points) + " points times " +
               std::to_string(model.replicates) + " replicates are too many tasks");
    }
  }

  const Document& document_;
  const Schema& schema_;
};

Model read_model(std::string_view yaml_text, std::string_view source_name,
                 const std::vector<std::string>& overrides, const Schema& schema,
                 std::string* merged_yaml) {
  Document document(yaml_text, source_name);
  for (const auto& assignment : overrides) document.apply_override(assignment);
  Model model = ModelReader(document, schema).read();
  if (merged_yaml != nullptr) {
    // The tables' rows, not the names of their files: the text then reads back to the same
    // experiment from any directory, and an edited file makes another run.
    for (const auto& spec : schema.kernels.at(model.kernel).params) {
      if (spec.type == ParamType::table) {
        document.replace({"params", spec.name}, table_yaml(model.params.table(spec.name)));
      }
    }
    *merged_yaml = document.yaml();
  }
  return model;
}

void apply_swept_value(const SweptKey& key, const ParamValue& value, Point& point) {
  (key.in_params ? point.params : point.driver).set(key.name, value);
  point.swept_values.push_back(value);
}

// Row-major over the axes: the last axis varies fastest, like nested loops.
std::vector<Point> expand_points(const Model& model) {
  const std::vector<std::size_t> sizes = axis_sizes(model);
  std::size_t count = 1;
  for (const std::size_t size : sizes) count *= size;
  std::vector<Point> points;
  points.reserve(count);
  std::vector<std::size_t> position(sizes.size());
  for (std::size_t index = 0; index < count; ++index) {
    std::size_t rest = index;
    for (std::size_t axis = sizes.size(); axis-- > 0;) {
      position[axis] = rest % sizes[axis];
      rest /= sizes[axis];
    }
    Point point{{}, model.params, model.settings};
    for (std::size_t axis = 0; axis < model.grid.size(); ++axis) {
      apply_swept_value(model.grid[axis], model.grid[axis].values[position[axis]], point);
    }
    std::size_t axis = model.grid.size();
    for (const auto& key : model.zip) apply_swept_value(key, key.values[position[axis]], point);
    if (!model.zip.empty()) ++axis;
    for (const auto& key : model.sampled) apply_swept_value(key, key.values[position[axis]], point);
    points.push_back(std::move(point));
  }
  return points;
}

void emit_section(YAML::Emitter& out, const std::string& name, const std::vector<ParamSpec>& specs,
                  const ParamSet& values) {
  out << YAML::Key << name << YAML::Value << YAML::BeginMap;
  // Specs named "group.key" (declared together) go into a nested map, as they are written.
  std::string group;
  for (const auto& spec : specs) {
    const auto dot = spec.name.find('.');
    const std::string spec_group = dot == std::string::npos ? "" : spec.name.substr(0, dot);
    if (spec_group != group) {
      if (!group.empty()) out << YAML::EndMap;
      if (!spec_group.empty()) out << YAML::Key << spec_group << YAML::Value << YAML::BeginMap;
      group = spec_group;
    }
    out << YAML::Key << (dot == std::string::npos ? spec.name : spec.name.substr(dot + 1))
        << YAML::Value;
    const ParamValue& value = values.at(spec.name);
    if (const auto* table = std::get_if<ParamTable>(&value)) {
      out << table_yaml(*table->root);
    } else {
      out << format_value(value);
    }
  }
  if (!group.empty()) out << YAML::EndMap;
  out << YAML::EndMap;
}

void emit_swept_keys(YAML::Emitter& out, const std::string& name,
                     const std::vector<SweptKey>& keys) {
  out << YAML::Key << name << YAML::Value << YAML::BeginMap;
  for (const auto& key : keys) {
    out << YAML::Key << key.path << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& value : key.values) out << format_value(value);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

}  // namespace

Experiment parse_experiment(std::string_view yaml_text, std::string_view source_name,
                            const std::vector<std::string>& overrides, const Schema& schema) {
  Experiment experiment;
  const Model model =
      read_model(yaml_text, source_name, overrides, schema, &experiment.config_text);
  experiment.name = model.name;
  experiment.kernel = model.kernel;
  experiment.driver = model.driver;
  experiment.seed = model.seed;
  experiment.output = model.output;
  experiment.checkpoint_every = model.checkpoint.integer("every");
  experiment.checkpoint_seconds = model.checkpoint.integer("seconds");
  experiment.record_failures = model.on_error == "record";
  experiment.replicates = model.replicates;
  for (const auto& key : model.grid) experiment.swept_keys.push_back(key.path);
  for (const auto& key : model.zip) experiment.swept_keys.push_back(key.path);
  for (const auto& key : model.sampled) experiment.swept_keys.push_back(key.path);
  experiment.points = expand_points(model);
  return experiment;
}

// Read back from config_text, which keeps what an Experiment no longer does: the base
// values of swept keys and which swept keys form the grid and which the zip.
std::string effective_yaml(const Experiment& experiment, const Schema& schema) {
  const Model model = read_model(experiment.config_text, "config_text", {}, schema, nullptr);
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "experiment" << YAML::Value << model.name;
  out << YAML::Key << "kernel" << YAML::Value << model.kernel;
  out << YAML::Key << "driver" << YAML::Value << model.driver;
  out << YAML::Key << "seed" << YAML::Value << model.seed;
  out << YAML::Key << "output" << YAML::Value << model.output;
  out << YAML::Key << "on_error" << YAML::Value << model.on_error;
  emit_section(out, "checkpoint", checkpoint_specs(), model.checkpoint);
  emit_section(out, "params", schema.kernels.at(model.kernel).params, model.params);
  if (!model.settings.values().empty()) {
    emit_section(out, model.driver, schema.drivers.at(model.driver), model.settings);
  }
  out << YAML::Key << "sweep" << YAML::Value << YAML::BeginMap;
  emit_swept_keys(out, "grid", model.grid);
  emit_swept_keys(out, "zip", model.zip);
  if (!model.sampled.empty()) {
    out << YAML::Key << "sample" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "method" << YAML::Value << sample_method_name(model.sample_method);
    out << YAML::Key << "n" << YAML::Value << model.sample_count;
    out << YAML::Key << "space" << YAML::Value << YAML::BeginMap;
    for (std::size_t d = 0; d < model.sampled.size(); ++d) {
      out << YAML::Key << model.sampled[d].path << YAML::Value << model.sample_axes[d].yaml();
    }
    out << YAML::EndMap << YAML::EndMap;
  }
  out << YAML::Key << "replicates" << YAML::Value << model.replicates;
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace levelforge::config
