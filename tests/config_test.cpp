#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/document.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/driver_list.hpp"
#include "tests/error_message.hpp"

namespace levelforge::config {
namespace {

Schema test_schema() {
  Schema schema;
  schema.kernels["onemax"] = {{int_param("length", 64, 1, 100'000, "genome length"),
                               real_param("noise", 0.0, 0.0, 1.0, "noise added to the fitness")},
                              {"ga"}};
  schema.kernels["collatz"] = {
      {int_param("start", 1, 1, 1'000'000'000'000, "first number"),
       int_param("limit", 1000, 1, 1'000'000'000, "steps before giving up"),
       choice_param("mode", {"steps", "peak", "both"}, "what is recorded"),
       bool_param("verbose", false, "record every step")},
      {"exhaustive", "sweep"}};
  schema.kernels["bestiary"] = {{text_param("hero", "knight", "who the level is for"),
                                 table_param("species", "the species catalogue"),
                                 int_param("waves", 1, 1, 10, "waves of monsters")},
                                {"sweep"}};
  schema.drivers["ga"] = GaSpec::settings();
  schema.drivers["exhaustive"] = ExhaustiveSpec::settings();
  schema.drivers["sweep"] = {};
  return schema;
}

const Schema& schema() {
  static const Schema instance = test_schema();
  return instance;
}

Experiment parse(const std::string& yaml, const std::vector<std::string>& overrides = {},
                 std::string_view source_name = "exp.yaml") {
  return parse_experiment(yaml, source_name, overrides, schema());
}

// The message of the ConfigError that parsing raises, or a marker that none was raised.
std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {},
                     std::string_view source_name = "exp.yaml") {
  try {
    parse(yaml, overrides, source_name);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "<no error>";
}

// Everything an Experiment holds but its config_text, as text: NaN compares equal to
// itself here, unlike in a ParamValue.
std::string summary(const Experiment& experiment) {
  std::string text = experiment.name + " " + experiment.kernel + " " + experiment.driver + " " +
                     std::to_string(experiment.seed) + " " + experiment.output + " x" +
                     std::to_string(experiment.replicates) + "\n";
  for (const auto& key : experiment.swept_keys) text += key + " ";
  for (const auto& point : experiment.points) {
    text += "\n";
    for (const auto& value : point.swept_values) text += format_value(value) + " ";
    text += "|";
    for (const auto& [name, value] : point.params.values())
      text += " " + name + "=" + format_value(value);
    text += " |";
    for (const auto& [name, value] : point.driver.values())
      text += " " + name + "=" + format_value(value);
  }
  return text;
}

std::vector<std::int64_t> integers(const Experiment& experiment, std::size_t key) {
  std::vector<std::int64_t> values;
  for (const auto& point : experiment.points) {
    values.push_back(std::get<std::int64_t>(point.swept_values.at(key)));
  }
  return values;
}

const std::string onemax_ga =
    "experiment: trial\n"
    "kernel: onemax\n"
    "driver: ga\n";

const std::string collatz_exhaustive =
    "experiment: walk\n"
    "kernel: collatz\n"
    "driver: exhaustive\n";

// --- defaults and values ---------------------------------------------------------------

TEST(ConfigDefaults, MissingKeysGetTheirDefaults) {
  const Experiment experiment = parse(onemax_ga);
  EXPECT_EQ(experiment.name, "trial");
  EXPECT_EQ(experiment.kernel, "onemax");
  EXPECT_EQ(experiment.driver, "ga");
  EXPECT_EQ(experiment.seed, 0u);
  EXPECT_EQ(experiment.output, "results/trial.h5");
  EXPECT_EQ(experiment.replicates, 1);
  EXPECT_TRUE(experiment.swept_keys.empty());
  ASSERT_EQ(experiment.points.size(), 1u);
  EXPECT_EQ(experiment.task_count(), 1u);
  const Point& point = experiment.points[0];
  EXPECT_TRUE(point.swept_values.empty());
  EXPECT_EQ(point.params.integer("length"), 64);
  EXPECT_EQ(point.params.real("noise"), 0.0);
  EXPECT_EQ(point.params.values().size(), 2u);
  EXPECT_EQ(point.driver.integer("population"), 64);
  EXPECT_EQ(point.driver.real("stop_fitness"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(point.driver.values().size(), GaSpec::settings().size());
}

TEST(ConfigDefaults, FileValuesReplaceDefaults) {
  const Experiment experiment = parse(onemax_ga +
                                      "params: {length: 12, noise: 0.25}\n"
                                      "ga:\n"
                                      "  population: 10\n"
                                      "  stop_fitness: 12.5\n"
                                      "seed: 9223372036854775807\n"
                                      "output: out/run.h5\n");
  const Point& point = experiment.points.at(0);
  EXPECT_EQ(point.params.integer("length"), 12);
  EXPECT_EQ(point.params.real("noise"), 0.25);
  EXPECT_EQ(point.driver.integer("population"), 10);
  EXPECT_EQ(point.driver.real("stop_fitness"), 12.5);
  EXPECT_EQ(point.driver.integer("generations"), 50);
  EXPECT_EQ(experiment.seed, 9223372036854775807u);
  EXPECT_EQ(experiment.output, "out/run.h5");
}

TEST(ConfigDefaults, DriverWithoutSettingsHasAnEmptySet) {
  const Experiment experiment = parse(
      "experiment: walk\nkernel: collatz\ndriver: sweep\nparams: {mode: peak, verbose: TRUE}\n");
  const Point& point = experiment.points.at(0);
  EXPECT_TRUE(point.driver.values().empty());
  EXPECT_EQ(point.params.choice("mode"), "peak");
  EXPECT_TRUE(point.params.boolean("verbose"));
  EXPECT_EQ(point.params.integer("limit"), 1000);
}

TEST(ConfigValues, IntegersAcceptExactIntegralFloatNotation) {
  const Experiment experiment = parse(collatz_exhaustive +
                                      "params: {start: 1.5e3, limit: 2e7}\n"
                                      "exhaustive: {begin: +12, end: -1, chunk: 100.0}\n");
  const Point& point = experiment.points.at(0);
  EXPECT_EQ(point.params.integer("start"), 1500);
  EXPECT_EQ(point.params.integer("limit"), 20'000'000);
  EXPECT_EQ(point.driver.integer("begin"), 12);
  EXPECT_EQ(point.driver.integer("end"), -1);
  EXPECT_EQ(point.driver.integer("chunk"), 100);
  EXPECT_EQ(parse(collatz_exhaustive + "exhaustive: {end: 9223372036854775807}\n")
                .points.at(0)
                .driver.integer("end"),
            std::numeric_limits<std::int64_t>::max());
}

TEST(ConfigValues, IntegersRejectFractionsAndOverflow) {
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {start: 2.5}\n"),
            "exp.yaml:4:17: params.start: expected an int, got '2.5'");
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {start: 25e-1}\n"),
            "exp.yaml:4:17: params.start: expected an int, got '25e-1'");
  EXPECT_EQ(error_of(collatz_exhaustive + "exhaustive: {end: 9223372036854775808}\n"),
            "exp.yaml:4:19: exhaustive.end: 9223372036854775808 is out of range "
            "[-1, 9223372036854775807]");
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {start: '12'}\n"),
            "exp.yaml:4:17: params.start: expected an int, got '12' (a quoted string)");
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {start: 0x10}\n"),
            "exp.yaml:4:17: params.start: expected an int, got '0x10'");
}

TEST(ConfigValues, RealsAcceptYamlSpellings) {
  const Experiment experiment =
      parse(onemax_ga +
            "params: {noise: .5}\n"
            "ga: {stop_fitness: -.inf, crossover_rate: 1, mutation_rate: 1e-3}\n");
  const Point& point = experiment.points.at(0);
  EXPECT_EQ(point.params.real("noise"), 0.5);
  EXPECT_EQ(point.driver.real("stop_fitness"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(point.driver.real("crossover_rate"), 1.0);
  EXPECT_EQ(point.driver.real("mutation_rate"), 1e-3);
  EXPECT_TRUE(std::isnan(
      parse(onemax_ga + "ga: {stop_fitness: .nan}\n").points.at(0).driver.real("stop_fitness")));
}

TEST(ConfigValues, RealsOutsideTheirRangeAreRejected) {
  EXPECT_EQ(error_of(onemax_ga + "params:\n  noise: 1.5\n"),
            "exp.yaml:5:10: params.noise: 1.5 is out of range [0.0, 1.0]");
  EXPECT_EQ(error_of(onemax_ga + "params:\n  noise: .nan\n"),
            "exp.yaml:5:10: params.noise: .nan is out of range [0.0, 1.0]");
  EXPECT_EQ(error_of(onemax_ga + "params:\n  noise: high\n"),
            "exp.yaml:5:10: params.noise: expected a real, got 'high'");
}

TEST(ConfigValues, BooleansAreYamlCoreOnly) {
  EXPECT_FALSE(parse(collatz_exhaustive + "params: {verbose: False}\n")
                   .points.at(0)
                   .params.boolean("verbose"));
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {verbose: yes}\n"),
            "exp.yaml:4:19: params.verbose: expected a bool (true or false), got 'yes'");
}

// An explicit tag decides a scalar's type, as YAML's core schema defines it: its text must be
// one of that type's, and the key takes it as it takes an untagged value of that type.
TEST(ConfigValues, ExplicitTagsDecideTheType) {
  EXPECT_EQ(error_of(onemax_ga, {"params.length=!!bool 5"}),
            "--set params.length=!!bool 5: params.length: '5' is not a valid !!bool (true or "
            "false)");
  EXPECT_EQ(error_of(onemax_ga + "params: {length: !!bool 5}\n"),
            "exp.yaml:4:18: params.length: '5' is not a valid !!bool (true or false)");
  EXPECT_EQ(error_of(onemax_ga + "params: {length: !!bool true}\n"),
            "exp.yaml:4:18: params.length: expected an int, got 'true' (tagged !!bool: a bool)");
  EXPECT_EQ(error_of(onemax_ga, {"params.length=!!str \"5\""}),
            "--set params.length=!!str \"5\": params.length: expected an int, got '5' (tagged "
            "!!str: a string)");
  EXPECT_EQ(error_of(onemax_ga + "params: {length: !!int 1e1}\n"),
            "exp.yaml:4:18: params.length: '1e1' is not a valid !!int (decimal digits with an "
            "optional sign)");
  EXPECT_EQ(error_of(onemax_ga + "params: {noise: !!float high}\n"),
            "exp.yaml:4:17: params.noise: 'high' is not a valid !!float (a number, .inf or .nan)");
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {verbose: !!int 1}\n"),
            "exp.yaml:4:19: params.verbose: expected a bool (true or false), got '1' (tagged "
            "!!int: an int)");
  EXPECT_EQ(error_of(collatz_exhaustive + "params: {mode: !!null steps}\n"),
            "exp.yaml:4:16: params.mode: 'steps' is not a valid !!null (null, ~ or nothing)");
  // YAML 1.1's other types are not the core schema's: a config does not read them.
  EXPECT_EQ(error_of(onemax_ga + "params: {length: !!binary MTY=}\n"),
            "exp.yaml:4:18: params.length: unknown YAML tag '!!binary'; a config uses none but "
            "YAML's core schema's (!!str, !!int, !!float, !!bool, !!null, !!seq, !!map)");

  const std::string tagged = onemax_ga +
                             "params: {length: !!int 16, noise: !!int 1}\n"
                             "ga: {population: !!float 20.0, elitism: !!int +2}\n";
  const Experiment experiment = parse(tagged);
  const Point& point = experiment.points.at(0);
  EXPECT_EQ(point.params.integer("length"), 16);
  EXPECT_EQ(point.params.real("noise"), 1.0);
  EXPECT_EQ(point.driver.integer("population"), 20);
  EXPECT_EQ(point.driver.integer("elitism"), 2);
  EXPECT_TRUE(parse(collatz_exhaustive, {"params.verbose=!!bool TRUE"})
                  .points.at(0)
                  .params.boolean("verbose"));
  EXPECT_EQ(summary(parse(experiment.config_text)), summary(experiment));
  // Untagged, 5 is an int.
  EXPECT_EQ(parse(onemax_ga, {"params.length=5"}).points.at(0).params.integer("length"), 5);
}

// --- error locations and messages ------------------------------------------------------

TEST(ConfigErrors, UnknownKeySuggestsTheClosestOne) {
  EXPECT_EQ(error_of(onemax_ga + "ga:\n"
                                 "  population: 10\n"
                                 "  populaton: 10\n"),
            "exp.yaml:6:3: unknown key 'populaton' in section 'ga'; did you mean 'population'?");
}

TEST(ConfigErrors, UnknownKeyFarFromAnyListsTheValidKeys) {
  EXPECT_EQ(error_of(onemax_ga + "params:\n  temperature: 3\n"),
            "exp.yaml:5:3: unknown key 'temperature' in section 'params'; valid keys: length, "
            "noise");
}

TEST(ConfigErrors, UnknownTopLevelKey) {
  EXPECT_EQ(error_of(onemax_ga + "sede: 4\n"),
            "exp.yaml:4:1: unknown key 'sede' at the top level; did you mean 'seed'?");
}

TEST(ConfigErrors, WrongTypeNamesKeyValueAndExpectedType) {
  EXPECT_EQ(error_of(onemax_ga + "ga:\n  population: abc\n"),
            "exp.yaml:5:15: ga.population: expected an int, got 'abc'");
  EXPECT_EQ(error_of(onemax_ga + "ga:\n  population: [1, 2]\n"),
            "exp.yaml:5:15: ga.population: expected an int, got a list");
  EXPECT_EQ(error_of(onemax_ga + "ga:\n  population:\n"),
            "exp.yaml:5:3: ga.population: expected an int, got null");
  EXPECT_EQ(error_of(onemax_ga + "ga: 5\n"), "exp.yaml:4:5: ga: expected a map, got '5'");
}

TEST(ConfigErrors, OutOfRange) {
  EXPECT_EQ(error_of(onemax_ga + "ga:\n  population: 0\n"),
            "exp.yaml:5:15: ga.population: 0 is out of range [2, 10000000]");
  EXPECT_EQ(error_of(onemax_ga + "ga:\n  population: 2e7\n"),
            "exp.yaml:5:15: ga.population: 20000000 is out of range [2, 10000000]");
}

TEST(ConfigErrors, ChoiceListsTheAllowedChoices) {
  EXPECT_EQ(error_of(collatz_exhaustive + "params:\n  mode: fast\n"),
            "exp.yaml:5:9: params.mode: 'fast' is not one of: steps, peak, both");
  EXPECT_EQ(error_of(collatz_exhaustive + "params:\n  mode: [steps]\n"),
            "exp.yaml:5:9: params.mode: expected one of: steps, peak, both, got a list");
}

TEST(ConfigErrors, MissingKernelListsTheKnownKernels) {
  EXPECT_EQ(error_of("experiment: trial\ndriver: ga\n"),
            "exp.yaml:1:1: missing required key 'kernel'; known kernels: bestiary, collatz, "
            "onemax");
  EXPECT_EQ(error_of(""),
            "exp.yaml:1:1: missing required key 'experiment' (the experiment's name)");
  EXPECT_EQ(error_of("", {"experiment=trial"}),
            "exp.yaml:1:1: missing required key 'kernel'; known kernels: bestiary, collatz, "
            "onemax");
  EXPECT_EQ(error_of("# a comment\n\nexperiment: trial\ndriver: ga\n"),
            "exp.yaml:3:1: missing required key 'kernel'; known kernels: bestiary, collatz, "
            "onemax");
  EXPECT_EQ(error_of("experiment: trial\nkernel: onemax\n"),
            "exp.yaml:1:1: missing required key 'driver'; kernel 'onemax' supports: ga");
}

TEST(ConfigErrors, UnknownKernelSuggestsTheClosestName) {
  EXPECT_EQ(error_of("experiment: trial\nkernel: onemx\ndriver: ga\n"),
            "exp.yaml:2:9: unknown kernel 'onemx'; did you mean 'onemax'?");
}

TEST(ConfigErrors, DriverTheKernelDoesNotSupport) {
  EXPECT_EQ(error_of("experiment: trial\nkernel: onemax\ndriver: exhaustive\n"),
            "exp.yaml:3:9: kernel 'onemax' does not support driver 'exhaustive'; it supports: ga");
  EXPECT_EQ(error_of("experiment: trial\nkernel: onemax\ndriver: gaa\n"),
            "exp.yaml:3:9: unknown driver 'gaa'; did you mean 'ga'?");
}

TEST(ConfigErrors, SectionOfAnotherDriver) {
  EXPECT_EQ(error_of(collatz_exhaustive + "ga:\n  population: 10\n"),
            "exp.yaml:4:1: section 'ga' does not apply to driver 'exhaustive'");
}

TEST(ConfigErrors, InvalidExperimentName) {
  EXPECT_EQ(error_of("experiment: my run\nkernel: onemax\ndriver: ga\n"),
            "exp.yaml:1:13: experiment: 'my run' is not a valid name (use letters, digits, "
            "'-', '_', '.')");
}

TEST(ConfigErrors, DuplicateKeyReportsTheSecondOccurrence) {
  EXPECT_EQ(error_of(onemax_ga + "ga:\n"
                                 "  population: 10\n"
                                 "  population: 20\n"),
            "exp.yaml:6:3: duplicate key 'population' (first at exp.yaml:5:3)");
  EXPECT_EQ(error_of(onemax_ga + "seed: 1\nseed: 2\n"),
            "exp.yaml:5:1: duplicate key 'seed' (first at exp.yaml:4:1)");
}

TEST(ConfigErrors, YamlSyntaxErrorBecomesConfigError) {
  const std::string message = error_of(onemax_ga + "params: {length: [1, 2}\n");
  EXPECT_EQ(message.rfind("exp.yaml:4:", 0), 0u) << message;
  EXPECT_NE(message.find("illegal flow end"), std::string::npos) << message;
  EXPECT_EQ(error_of("experiment: [trial\n").rfind("exp.yaml:", 0), 0u);
}

TEST(ConfigErrors, TabInTheIndentationIsNamedWhereItIs) {
  // yaml-cpp fails further on ("illegal map value"); the message points at the tab.
  const std::string message = error_of(onemax_ga + "ga:\n  tournament: 2\n\tpopulation: 10\n");
  EXPECT_EQ(
      message.rfind("exp.yaml:6:1: a tab in the indentation; YAML indents with spaces only (", 0),
      0u)
      << message;
  // A tab inside a flow value is no indentation: yaml-cpp's own message stays.
  EXPECT_EQ(error_of(onemax_ga + "params: {length: [1,\t2}\n"), "exp.yaml:4:23: illegal flow end");
}

TEST(ConfigErrors, MoreThanOneDocument) {
  EXPECT_EQ(error_of(onemax_ga + "---\nseed: 3\n"),
            "exp.yaml:5:1: expected one YAML document, found a second one");
}

// yaml-cpp 0.7's LoadAll reads a lone ',' as endless empty documents (fuzz/README.md): the
// config must be refused, not hang.
TEST(ConfigErrors, LoneCommaIsAnEmptyConfig) {
  EXPECT_EQ(error_of(","),
            "exp.yaml:1:1: missing required key 'experiment' (the experiment's name)");
}

// what() is a C string: a raw NUL in a message would end it there, dropping the place and the
// problem. Every value the config quotes shows its control characters escaped instead.
TEST(ConfigErrors, ControlCharactersInValuesAreShownEscaped) {
  using namespace std::string_literals;
  EXPECT_EQ(error_of("experiment: \"a\\0b\"\nkernel: onemax\ndriver: ga\n"),
            "exp.yaml:1:13: experiment: 'a\\0b' is not a valid name (use letters, digits, "
            "'-', '_', '.')");
  EXPECT_EQ(error_of("experiment: \"a\0b\"\nkernel: onemax\ndriver: ga\n"s),
            "exp.yaml:1:13: experiment: 'a\\0b' is not a valid name (use letters, digits, "
            "'-', '_', '.')");
  EXPECT_EQ(error_of(onemax_ga + "\"se\\0ed\": 1\n"),
            "exp.yaml:4:1: unknown key 'se\\0ed' at the top level; did you mean 'seed'?");
  EXPECT_EQ(error_of(collatz_exhaustive, {"params.mode=\"st\\x01eps\\t\\\\\""}),
            "--set params.mode=\"st\\x01eps\\t\\\\\": params.mode: 'st\\x01eps\\t\\\\' is not "
            "one of: steps, peak, both");
  EXPECT_EQ(error_of(onemax_ga + "ga: {population: \"1\\n2\"}\n"),
            "exp.yaml:4:18: ga.population: expected an int, got '1\\n2' (a quoted string)");
  EXPECT_EQ(error_of(onemax_ga + "\"a\\0\": 1\n\"a\\0\": 2\n"),
            "exp.yaml:5:1: duplicate key 'a\\0' (first at exp.yaml:4:1)");
}

TEST(ConfigErrors, DocumentThatIsNotAMap) {
  EXPECT_EQ(error_of("- a\n- b\n"), "exp.yaml:1:1: the config must be a map of keys, got a list");
}

// Nine anchors in under 1 KB, each a list of nine aliases of the one before: 9^9 values
// expanded, the "billion laughs". Only `levels` of them when given.
std::string billion_laughs(const std::string& key = "sweep:\n  grid:\n    params.length:",
                           int levels = 9) {
  std::string text = onemax_ga + key + "\n      - &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (int level = 1; level < levels; ++level) {
    const auto anchor = static_cast<char>('a' + level);
    const std::string alias = std::string("*") + static_cast<char>(anchor - 1);
    text += std::string("      - &") + anchor + " [" + alias;
    for (int i = 1; i < 9; ++i) text += ", " + alias;
    text += "]\n";
  }
  return text;
}

// Aliases are counted, not expanded: the config is refused at once, naming the alias at which
// they pass the bound. &a holds 10 nodes, &b 91, ... &f 597871; the aliases of &b to &f add
// 672588, and the first *f in &g passes 1048576.
TEST(ConfigErrors, AliasesThatExpandPastTheBoundAreRefused) {
  const std::string laughs = billion_laughs();
  ASSERT_LT(laughs.size(), 1024u);
  const std::string refusal =
      ": aliases expand the config past 1048576 nodes here: alias *f stands for 597871 (nested "
      "aliases multiply, as in a 'billion laughs')";
  EXPECT_EQ(error_of(laughs), "exp.yaml:13:13" + refusal);
  // Whatever the key: the count comes before the config is read.
  EXPECT_EQ(error_of(billion_laughs("params:\n  species:")), "exp.yaml:12:13" + refusal);
  EXPECT_EQ(error_of(billion_laughs("unknown:")), "exp.yaml:11:13" + refusal);
  // Fewer levels stay within the bound, and the config is read as usual.
  EXPECT_EQ(error_of(billion_laughs("unknown:", 4)),
            "exp.yaml:4:1: unknown key 'unknown' at the top level; valid keys: experiment, "
            "kernel, driver, params, sweep, seed, output, checkpoint, on_error, exhaustive, ga");
}

// An alias inside the node its anchor marks makes yaml-cpp's tree a cycle: endless, however
// it were walked.
TEST(ConfigErrors, AnAliasInsideItsOwnAnchorIsRefused) {
  EXPECT_EQ(error_of(onemax_ga + "params: &a {length: *a}\n"),
            "exp.yaml:4:21: alias *a stands inside the node its anchor &a marks: the config "
            "would be endless");
  EXPECT_EQ(error_of(onemax_ga, {"sweep.grid.params.length=&l [1, [2, *l]]"}),
            "--set sweep.grid.params.length=&l [1, [2, *l]]: alias *l stands inside the node its "
            "anchor &l marks: the config would be endless");
}

// The bound holds exactly, each anchor measured once however often it is aliased: &a is 3
// nodes, &b 1 + 3 + 3 = 7 (its aliases add 6), and two aliases of &b add 14 more: 20.
TEST(ConfigErrors, AliasExpansionCountsEachAliasAsItsAnchor) {
  const std::string text = "a: &a [1, 2]\nb: &b [*a, *a]\nc: [*b, *b]\n";
  EXPECT_NO_THROW(check_alias_expansion(text, "f.yaml", 20));
  EXPECT_EQ(testing::error_message<ConfigError>([&] { check_alias_expansion(text, "f.yaml", 19); }),
            "f.yaml:3:9: aliases expand the config past 19 nodes here: alias *b stands for 7 "
            "(nested aliases multiply, as in a 'billion laughs')");
  EXPECT_EQ(testing::error_message<ConfigError>([&] { check_alias_expansion(text, "f.yaml", 5); }),
            "f.yaml:2:12: aliases expand the config past 5 nodes here: alias *a stands for 3 "
            "(nested aliases multiply, as in a 'billion laughs')");
  EXPECT_NO_THROW(check_alias_expansion("a: [1, 2]\n", "f.yaml", 0));
}

// --- sweeps ----------------------------------------------------------------------------

TEST(ConfigSweep, GridIsTheRowMajorProductInFileOrder) {
  const Experiment experiment = parse(onemax_ga +
                                      "sweep:\n"
                                      "  grid:\n"
                                      "    params.length: [8, 16]\n"
                                      "    ga.population: [10, 20, 30]\n"
                                      "  replicates: 2\n");
  EXPECT_EQ(experiment.swept_keys, (std::vector<std::string>{"params.length", "ga.population"}));
  ASSERT_EQ(experiment.points.size(), 6u);
  EXPECT_EQ(experiment.replicates, 2);
  EXPECT_EQ(experiment.task_count(), 12u);
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{8, 8, 8, 16, 16, 16}));
  EXPECT_EQ(integers(experiment, 1), (std::vector<std::int64_t>{10, 20, 30, 10, 20, 30}));
  for (const auto& point : experiment.points) {
    EXPECT_EQ(point.params.integer("length"), std::get<std::int64_t>(point.swept_values[0]));
    EXPECT_EQ(point.driver.integer("population"), std::get<std::int64_t>(point.swept_values[1]));
    EXPECT_EQ(point.driver.integer("generations"), 50);
  }
}

TEST(ConfigSweep, SweptValueWinsOverTheSectionValue) {
  const Experiment experiment = parse(onemax_ga +
                                      "params: {length: 5, noise: 0.5}\n"
                                      "sweep: {grid: {params.length: [7, 9]}}\n");
  ASSERT_EQ(experiment.points.size(), 2u);
  EXPECT_EQ(experiment.points[0].params.integer("length"), 7);
  EXPECT_EQ(experiment.points[1].params.integer("length"), 9);
  EXPECT_EQ(experiment.points[1].params.real("noise"), 0.5);
}

TEST(ConfigSweep, ZipListsFormOneAxis) {
  const Experiment experiment = parse(onemax_ga +
                                      "sweep:\n"
                                      "  zip:\n"
                                      "    params.length: [8, 16, 32]\n"
                                      "    params.noise: [0.1, 0.2, 0.3]\n");
  ASSERT_EQ(experiment.points.size(), 3u);
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{8, 16, 32}));
  EXPECT_EQ(experiment.points[0].params.real("noise"), 0.1);
  EXPECT_EQ(experiment.points[1].params.real("noise"), 0.2);
  EXPECT_EQ(experiment.points[2].params.real("noise"), 0.3);
  EXPECT_EQ(experiment.points[2].params.integer("length"), 32);
}

TEST(ConfigSweep, GridAxesComeBeforeTheZipAxis) {
  const Experiment experiment = parse(onemax_ga +
                                      "sweep:\n"
                                      "  zip:\n"
                                      "    params.length: [8, 16]\n"
                                      "    params.noise: [0.5, 0.25]\n"
                                      "  grid:\n"
                                      "    ga.population: [10, 20]\n");
  EXPECT_EQ(experiment.swept_keys,
            (std::vector<std::string>{"ga.population", "params.length", "params.noise"}));
  ASSERT_EQ(experiment.points.size(), 4u);
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{10, 10, 20, 20}));
  EXPECT_EQ(integers(experiment, 1), (std::vector<std::int64_t>{8, 16, 8, 16}));
  EXPECT_EQ(std::get<double>(experiment.points[1].swept_values[2]), 0.25);
  EXPECT_EQ(experiment.points[2].params.real("noise"), 0.5);
}

TEST(ConfigSweep, SweepDriverTakesTheSweepSectionAsItsGrid) {
  const Experiment experiment = parse(
      "experiment: walk\nkernel: collatz\ndriver: sweep\n"
      "sweep: {grid: {params.start: [1, 2, 3]}}\n");
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_TRUE(experiment.points.at(2).driver.values().empty());
}

TEST(ConfigSweep, EmptyListIsAnError) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid:\n    params.length: []\n"),
            "exp.yaml:6:20: sweep.grid.params.length: the list is empty");
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid:\n    params.length: 8\n"),
            "exp.yaml:6:20: sweep.grid.params.length: expected a list or a "
            "{range|linspace|logspace: [...]} map, got '8'");
}

TEST(ConfigSweep, SequencesStandForTheirLists) {
  const Experiment experiment = parse(onemax_ga +
                                      "sweep:\n"
                                      "  grid:\n"
                                      "    params.length: {range: [8, 20, 4]}\n"
                                      "  zip:\n"
                                      "    params.noise: {linspace: [0, 0.5, 2]}\n"
                                      "    ga.population: {logspace: [1, 2, 2]}\n");
  EXPECT_EQ(experiment.swept_keys,
            (std::vector<std::string>{"params.length", "params.noise", "ga.population"}));
  ASSERT_EQ(experiment.points.size(), 6u);
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{8, 8, 12, 12, 16, 16}));
  EXPECT_EQ(integers(experiment, 2), (std::vector<std::int64_t>{10, 100, 10, 100, 10, 100}));
  EXPECT_EQ(experiment.points[1].params.real("noise"), 0.5);
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid:\n    ga.population: {range: [1, 4, 1]}\n"),
            "exp.yaml:6:20: sweep.grid.ga.population: 1 is out of range [2, 10000000]");
}

TEST(ConfigSweep, SampleIsOneMoreAxisAfterGridAndZip) {
  const std::string config = onemax_ga +
                             "seed: 5\n"
                             "sweep:\n"
                             "  grid:\n"
                             "    params.length: [8, 16]\n"
                             "  sample:\n"
                             "    method: lhs\n"
                             "    n: 4\n"
                             "    space:\n"
                             "      params.noise: {uniform: [0.2, 0.6]}\n"
                             "      ga.population: {int: [10, 13]}\n"
                             "  replicates: 2\n";
  const Experiment experiment = parse(config);
  EXPECT_EQ(experiment.swept_keys,
            (std::vector<std::string>{"params.length", "params.noise", "ga.population"}));
  ASSERT_EQ(experiment.points.size(), 8u);
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{8, 8, 8, 8, 16, 16, 16, 16}));
  // Every grid point gets the same four samples; four strata of [10, 13]: each value once.
  std::vector<std::int64_t> populations = integers(experiment, 2);
  EXPECT_EQ(std::vector(populations.begin(), populations.begin() + 4),
            std::vector(populations.begin() + 4, populations.end()));
  std::sort(populations.begin(), populations.begin() + 4);
  EXPECT_EQ(std::vector(populations.begin(), populations.begin() + 4),
            (std::vector<std::int64_t>{10, 11, 12, 13}));
  std::vector<int> strata(4);
  for (std::size_t k = 0; k < 4; ++k) {
    const double noise = experiment.points[k].params.real("noise");
    EXPECT_EQ(noise, experiment.points[k + 4].params.real("noise"));
    ++strata.at(static_cast<std::size_t>((noise - 0.2) / 0.1));
  }
  EXPECT_EQ(strata, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(summary(parse(config)), summary(experiment));
  EXPECT_NE(summary(parse(config, {"seed=6"})), summary(experiment));
}

TEST(ConfigSweep, SampleErrorsNameThePlace) {
  const std::string sample = onemax_ga + "sweep:\n  sample:\n";
  EXPECT_EQ(error_of(sample + "    space: {params.noise: {uniform: [0, 1]}}\n"),
            "exp.yaml:5:3: sweep.sample: missing key 'n'");
  EXPECT_EQ(error_of(sample +
                     "    method: sobl\n    n: 2\n    space: {params.noise: {uniform: [0, 1]}}\n"),
            "exp.yaml:6:13: sweep.sample.method: 'sobl' is not one of: random, sobol, lhs");
  EXPECT_EQ(error_of(sample + "    n: 2\n    space: {params.nois: {uniform: [0, 1]}}\n"),
            "exp.yaml:7:13: unknown key 'params.nois' in section 'sweep.sample.space'; did you "
            "mean 'params.noise'?");
  EXPECT_EQ(error_of(sample + "    n: 2\n    sapce: {}\n"),
            "exp.yaml:7:5: unknown key 'sapce' in section 'sweep.sample'; did you mean 'space'?");
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid: {params.noise: [0.1]}\n  sample:\n    n: 2\n"
                                 "    space: {params.noise: {uniform: [0, 1]}}\n"),
            "exp.yaml:8:13: 'params.noise' is in both sweep.grid and sweep.sample.space");
  // The size is checked before a million samples are drawn.
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid: {params.length: [8, 16]}\n  sample:\n"
                                 "    n: 1000000\n    space: {params.noise: {uniform: [0, 1]}}\n"),
            "exp.yaml:4:1: the sweep has more than 1000000 points");
}

TEST(ConfigSweep, ListElementsAreValidatedLikeTheirKey) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid:\n    ga.population: [10, 1]\n"),
            "exp.yaml:6:25: sweep.grid.ga.population[1]: 1 is out of range [2, 10000000]");
}

TEST(ConfigSweep, ZipListsOfUnequalLength) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n"
                                 "  zip:\n"
                                 "    params.length: [8, 16]\n"
                                 "    params.noise: [0.1, 0.2, 0.3]\n"),
            "exp.yaml:7:5: sweep.zip lists must have equal lengths: params.length has 2, "
            "params.noise has 3");
}

TEST(ConfigSweep, KeyInBothGridAndZip) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n"
                                 "  grid: {params.length: [8]}\n"
                                 "  zip:\n"
                                 "    params.length: [8, 16]\n"),
            "exp.yaml:7:5: 'params.length' is in both sweep.grid and sweep.zip");
}

TEST(ConfigSweep, ReplicatesMustBePositive) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  replicates: 0\n"),
            "exp.yaml:5:15: sweep.replicates: 0 is out of range [1, 9223372036854775807]");
}

TEST(ConfigSweep, UnknownSweptKeySuggestsTheClosestPath) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid:\n    params.lenght: [8]\n"),
            "exp.yaml:6:5: unknown key 'params.lenght' in section 'sweep.grid'; did you mean "
            "'params.length'?");
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  gird: {}\n"),
            "exp.yaml:5:3: unknown key 'gird' in section 'sweep'; did you mean 'grid'?");
}

TEST(ConfigSweep, SweptKeyOfAnotherDriver) {
  EXPECT_EQ(error_of(onemax_ga + "sweep:\n  grid:\n    exhaustive.chunk: [8]\n"),
            "exp.yaml:6:5: sweep key 'exhaustive.chunk': section 'exhaustive' does not apply "
            "to driver 'ga'");
}

TEST(ConfigSweep, TooManyPointsIsAnError) {
  const std::string list =
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, "
      "21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, "
      "39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, "
      "57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, "
      "75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, "
      "93, 94, 95, 96, 97, 98, 99, 100, 101]";
  const std::string message =
      error_of(collatz_exhaustive + "sweep:\n  grid:\n" + "    params.start: " + list + "\n" +
               "    params.limit: " + list + "\n" + "    exhaustive.chunk: " + list + "\n");
  EXPECT_EQ(message, "exp.yaml:4:1: the sweep has more than 1000000 points");
}

// --- overrides -------------------------------------------------------------------------

TEST(ConfigOverrides, ScalarOverridesReplaceFileValues) {
  const Experiment experiment = parse(
      onemax_ga + "params: {length: 12}\n",
      {"params.length=7", "experiment=other", "seed=5", "ga.population=30", "ga.population=40"});
  EXPECT_EQ(experiment.name, "other");
  EXPECT_EQ(experiment.output, "results/other.h5");
  EXPECT_EQ(experiment.seed, 5u);
  EXPECT_EQ(experiment.points.at(0).params.integer("length"), 7);
  EXPECT_EQ(experiment.points.at(0).driver.integer("population"), 40);
}

TEST(ConfigOverrides, ListIntoSweepGridKeepsTheDottedKey) {
  const Experiment experiment =
      parse(onemax_ga, {"sweep.grid.params.length=[8,16]", "sweep.grid.ga.population=[10, 20]",
                        "sweep.replicates=3"});
  EXPECT_EQ(experiment.swept_keys, (std::vector<std::string>{"params.length", "ga.population"}));
  EXPECT_EQ(integers(experiment, 0), (std::vector<std::int64_t>{8, 8, 16, 16}));
  EXPECT_EQ(integers(experiment, 1), (std::vector<std::int64_t>{10, 20, 10, 20}));
  EXPECT_EQ(experiment.task_count(), 12u);
}

TEST(ConfigOverrides, MapValueReplacesTheWholeSection) {
  const Experiment experiment = parse(onemax_ga + "ga:\n  population: 10\n  tournament: 4\n",
                                      {"ga={generations: 5, elitism: 2}"});
  const Point& point = experiment.points.at(0);
  EXPECT_EQ(point.driver.integer("generations"), 5);
  EXPECT_EQ(point.driver.integer("elitism"), 2);
  EXPECT_EQ(point.driver.integer("population"), 64);
  EXPECT_EQ(point.driver.integer("tournament"), 3);
  EXPECT_EQ(error_of(onemax_ga, {"ga={generations: 0}"}),
            "--set ga={generations: 0}: ga.generations: 0 is out of range [1, 10000000]");
}

TEST(ConfigOverrides, UnknownKeyPointsAtTheOverride) {
  EXPECT_EQ(error_of(onemax_ga, {"ga.populaton=5"}),
            "--set ga.populaton=5: unknown key 'populaton' in section 'ga'; did you mean "
            "'population'?");
  EXPECT_EQ(error_of(collatz_exhaustive, {"ga.population=5"}),
            "--set ga.population=5: section 'ga' does not apply to driver 'exhaustive'");
}

TEST(ConfigOverrides, BadValuePointsAtTheOverrideNotTheFile) {
  EXPECT_EQ(error_of(onemax_ga + "params:\n  length: 12\n", {"params.length=abc"}),
            "--set params.length=abc: params.length: expected an int, got 'abc'");
  EXPECT_EQ(error_of(onemax_ga, {"sweep.grid.params.length=[8, x]"}),
            "--set sweep.grid.params.length=[8, x]: sweep.grid.params.length[1]: expected an "
            "int, got 'x'");
  EXPECT_EQ(error_of(onemax_ga, {"sweep.replicates=0"}),
            "--set sweep.replicates=0: sweep.replicates: 0 is out of range [1, "
            "9223372036854775807]");
}

TEST(ConfigOverrides, FileErrorsKeepTheirFileLocation) {
  EXPECT_EQ(error_of(onemax_ga + "ga:\n  population: 1\n", {"ga.generations=5"}),
            "exp.yaml:5:15: ga.population: 1 is out of range [2, 10000000]");
}

TEST(ConfigOverrides, MalformedOverrides) {
  EXPECT_EQ(error_of(onemax_ga, {"params.length"}),
            "--set params.length: malformed override, expected KEY.PATH=VALUE");
  EXPECT_EQ(error_of(onemax_ga, {"params..length=3"}),
            "--set params..length=3: malformed key path 'params..length', expected names joined "
            "by '.'");
  EXPECT_EQ(error_of(onemax_ga + "params: {length: 12}\n", {"params.length.bits=3"}),
            "--set params.length.bits=3: 'params.length' is not a map but '12'");
  const std::string message = error_of(onemax_ga, {"sweep.grid.params.length=[8"});
  EXPECT_EQ(message.rfind("--set sweep.grid.params.length=[8: invalid YAML: ", 0), 0u) << message;
  EXPECT_EQ(error_of(onemax_ga, {"params={length: 1, length: 2}"}),
            "--set params={length: 1, length: 2}: duplicate key 'length'");
}

// --- round trips -----------------------------------------------------------------------

const std::string full_config = onemax_ga +
                                "params: {noise: 0.1}\n"
                                "ga:\n"
                                "  population: 12\n"
                                "  stop_fitness: .inf\n"
                                "seed: 77\n"
                                "sweep:\n"
                                "  grid:\n"
                                "    ga.mutation_rate: [0.1, 1e-3, 0.3333333333333333]\n"
                                "  zip:\n"
                                "    params.length: [8, 2e3]\n"
                                "    ga.generations: [5, 6]\n"
                                "  replicates: 2\n";

TEST(ConfigRoundTrip, ConfigTextParsesBackToTheSameExperiment) {
  const Experiment experiment =
      parse(full_config, {"params.noise=0.7", "sweep.grid.ga.tournament=[2, 4]"});
  EXPECT_NE(experiment.config_text.find("0.7"), std::string::npos) << experiment.config_text;
  const Experiment again = parse(experiment.config_text);
  EXPECT_EQ(summary(again), summary(experiment));
  EXPECT_EQ(experiment.points.size(), 12u);
}

TEST(ConfigRoundTrip, EffectiveYamlHasEveryKeyAndParsesBack) {
  const Experiment experiment = parse(full_config, {"params.noise=0.7"});
  const std::string effective = effective_yaml(experiment, schema());
  for (const char* expected :
       {"experiment: trial", "kernel: onemax", "driver: ga", "seed: 77", "output: results/trial.h5",
        "length: 64", "noise: 0.7", "population: 12", "stop_fitness: .inf", "ranks_per_task: 0",
        "replicates: 2", "ga.mutation_rate: [0.1, 0.001, 0.3333333333333333]",
        "params.length: [8, 2000]"}) {
    EXPECT_NE(effective.find(expected), std::string::npos) << expected << " in\n" << effective;
  }
  const Experiment again = parse(effective);
  EXPECT_EQ(summary(again), summary(experiment));
  EXPECT_EQ(effective_yaml(again, schema()), effective);
}

TEST(ConfigRoundTrip, EffectiveYamlKeepsTheSampleAndParsesBack) {
  const Experiment experiment = parse(onemax_ga +
                                      "sweep:\n"
                                      "  grid: {params.length: {range: [8, 17, 8]}}\n"
                                      "  sample:\n"
                                      "    method: sobol\n"
                                      "    n: 3\n"
                                      "    space:\n"
                                      "      params.noise: {loguniform: [0.01, 1]}\n"
                                      "      ga.mutation_rate: {choice: [0.1, 0.2]}\n");
  const std::string effective = effective_yaml(experiment, schema());
  for (const char* expected :
       {"params.length: [8, 16]", "method: sobol", "n: 3",
        "params.noise: {loguniform: [0.01, 1.0]}", "ga.mutation_rate: {choice: [0.1, 0.2]}"}) {
    EXPECT_NE(effective.find(expected), std::string::npos) << expected << " in\n" << effective;
  }
  EXPECT_EQ(summary(parse(effective)), summary(experiment));
}

TEST(ConfigRoundTrip, EffectiveYamlOfADriverWithoutSettings) {
  const Experiment experiment = parse(
      "experiment: walk\nkernel: collatz\ndriver: sweep\n"
      "params: {mode: both, start: 3}\n");
  const std::string effective = effective_yaml(experiment, schema());
  EXPECT_NE(effective.find("mode: both"), std::string::npos) << effective;
  EXPECT_NE(effective.find("verbose: false"), std::string::npos) << effective;
  EXPECT_EQ(effective.find("exhaustive"), std::string::npos) << effective;
  EXPECT_EQ(summary(parse(effective)), summary(experiment));
}

TEST(ConfigRoundTrip, RealsSurviveExactly) {
  const Experiment experiment =
      parse(onemax_ga + "params: {noise: 0.1}\nga: {stop_fitness: -.inf}\n");
  const Experiment again = parse(effective_yaml(experiment, schema()));
  EXPECT_EQ(again.points.at(0).params.real("noise"), 0.1);
  EXPECT_EQ(again.points.at(0).driver.real("stop_fitness"),
            -std::numeric_limits<double>::infinity());
}

// --- text and table parameters ---------------------------------------------------------

const std::string bestiary_sweep =
    "experiment: raid\n"
    "kernel: bestiary\n"
    "driver: sweep\n";

const std::string goblins_yaml =
    "- name: goblin\n"
    "  hp: 3\n"
    "  motives: {fear: 0.5}\n"
    "- name: hobgoblin\n"
    "  hp: 5\n";

const std::string troll_yaml =
    "name: troll\n"
    "hp: 12\n";

std::vector<std::string> names(const DataNode& rows) {
  std::vector<std::string> result;
  for (const auto& row : rows.items()) result.push_back(row.at("name").text());
  return result;
}

const DataNode& species(const Experiment& experiment) {
  return experiment.points.at(0).params.table("species");
}

TEST(ConfigText, AnyNonEmptyScalar) {
  EXPECT_EQ(parse(bestiary_sweep).points.at(0).params.text("hero"), "knight");
  EXPECT_EQ(parse(bestiary_sweep + "params: {hero: 12}\n").points.at(0).params.text("hero"), "12");
  EXPECT_EQ(parse(bestiary_sweep + "params: {hero: 'null'}\n").points.at(0).params.text("hero"),
            "null");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {hero: [rogue]}\n"),
            "exp.yaml:4:16: params.hero: expected a non-empty text, got a list");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {hero: ''}\n"),
            "exp.yaml:4:16: params.hero: expected a non-empty text, got '' (a quoted string)");
  EXPECT_EQ(error_of(bestiary_sweep + "params:\n  hero:\n"),
            "exp.yaml:5:3: params.hero: expected a non-empty text, got null");
}

TEST(ConfigText, CanBeSwept) {
  const Experiment experiment =
      parse(bestiary_sweep + "sweep: {grid: {params.hero: [knight, rogue, 'true']}}\n");
  EXPECT_EQ(experiment.swept_keys, std::vector<std::string>{"params.hero"});
  ASSERT_EQ(experiment.points.size(), 3u);
  EXPECT_EQ(std::get<std::string>(experiment.points[1].swept_values.at(0)), "rogue");
  EXPECT_EQ(experiment.points[2].params.text("hero"), "true");
  EXPECT_EQ(error_of(bestiary_sweep + "sweep: {grid: {params.hero: [rogue, [a]]}}\n"),
            "exp.yaml:4:37: sweep.grid.params.hero[1]: expected a non-empty text, got a list");
  const std::string effective = effective_yaml(experiment, schema());
  EXPECT_NE(effective.find("params.hero: [knight, rogue, true]"), std::string::npos) << effective;
  EXPECT_EQ(summary(parse(effective)), summary(experiment));
}

// Each test in a fresh current directory, where it writes the table files it names.
class ConfigTables : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    directory_ = std::filesystem::path(::testing::TempDir()) / ("config_test." + test);
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_ / "elsewhere");
    previous_ = std::filesystem::current_path();
    std::filesystem::current_path(directory_);
    write("goblins.yaml", goblins_yaml);
    write("troll.yaml", troll_yaml);
  }

  void TearDown() override {
    std::filesystem::current_path(previous_);
    std::filesystem::remove_all(directory_);
  }

  static void write(const std::filesystem::path& file, const std::string& text) {
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }

 private:
  std::filesystem::path directory_;
  std::filesystem::path previous_;
};

TEST_F(ConfigTables, DefaultIsAnEmptyList) {
  EXPECT_EQ(species(parse(bestiary_sweep)), DataNode::list({}));
}

TEST_F(ConfigTables, InlineListOfMaps) {
  const Experiment experiment = parse(bestiary_sweep +
                                      "params:\n"
                                      "  species:\n"
                                      "    - {name: goblin, hp: 3}\n"
                                      "    - name: orc\n"
                                      "      motives: {fear: 0.25}\n");
  const DataNode& rows = species(experiment);
  EXPECT_EQ(names(rows), (std::vector<std::string>{"goblin", "orc"}));
  EXPECT_EQ(rows.items()[0].at("hp").integer(0, 10), 3);
  const DataNode& fear = rows.items()[1].at("motives").at("fear");
  EXPECT_EQ(fear.where(), "exp.yaml:8:23");
  EXPECT_EQ(fear.path(), "params.species[1].motives.fear");
  EXPECT_EQ(testing::error_message<KernelError>([&] { (void)fear.real(0, 0.1); }),
            "exp.yaml:8:23: params.species[1].motives.fear: 0.25 is out of range [0.0, 0.1]");
  EXPECT_EQ(rows.where(), "exp.yaml:6:5");
  EXPECT_EQ(rows.path(), "params.species");
}

TEST_F(ConfigTables, InlineMapIsACatalogue) {
  const Experiment experiment =
      parse(bestiary_sweep + "params: {species: {goblin: {hp: 3}, orc: {hp: 7}}}\n");
  const DataNode& catalogue = species(experiment);
  ASSERT_EQ(catalogue.kind(), DataNode::Kind::map);
  EXPECT_EQ(catalogue.at("orc").at("hp").path(), "params.species.orc.hp");
  EXPECT_EQ(catalogue.at("orc").at("hp").integer(0, 10), 7);
}

TEST_F(ConfigTables, FileNamesAreRelativeToTheConfigFile) {
  write("configs/goblins.yaml", goblins_yaml + "- name: redcap\n");
  const Experiment experiment =
      parse(bestiary_sweep + "params: {species: goblins.yaml}\n", {}, "configs/exp.yaml");
  const DataNode& rows = species(experiment);
  EXPECT_EQ(names(rows), (std::vector<std::string>{"goblin", "hobgoblin", "redcap"}));
  EXPECT_EQ(rows.where(), "configs/goblins.yaml:1:1");
  EXPECT_EQ(rows.items()[1].where(), "configs/goblins.yaml:4:3");
  EXPECT_EQ(rows.items()[1].at("hp").where(), "configs/goblins.yaml:5:7");
  EXPECT_EQ(rows.items()[1].at("hp").path(), "params.species[1].hp");
}

TEST_F(ConfigTables, FileHoldingAMapIsTheTable) {
  const Experiment experiment = parse(bestiary_sweep + "params: {species: troll.yaml}\n");
  const DataNode& table = species(experiment);
  ASSERT_EQ(table.kind(), DataNode::Kind::map);
  EXPECT_EQ(table.at("hp").integer(0, 20), 12);
  EXPECT_EQ(table.at("hp").where(), "troll.yaml:2:5");
  EXPECT_EQ(table.at("hp").path(), "params.species.hp");
}

TEST_F(ConfigTables, ListMixesInlineRowsAndFiles) {
  const Experiment experiment = parse(bestiary_sweep +
                                      "params:\n"
                                      "  species:\n"
                                      "    - goblins.yaml\n"
                                      "    - {name: orc}\n"
                                      "    - troll.yaml\n");
  const DataNode& rows = species(experiment);
  EXPECT_EQ(names(rows), (std::vector<std::string>{"goblin", "hobgoblin", "orc", "troll"}));
  EXPECT_EQ(rows.items()[1].at("hp").where(), "goblins.yaml:5:7");
  EXPECT_EQ(rows.items()[2].at("name").where(), "exp.yaml:7:14");
  EXPECT_EQ(rows.items()[2].at("name").path(), "params.species[2].name");
  EXPECT_EQ(rows.items()[3].at("hp").where(), "troll.yaml:2:5");
  EXPECT_EQ(rows.items()[3].at("hp").path(), "params.species[3].hp");
}

TEST_F(ConfigTables, OverrideFileNamesAreRelativeToTheCurrentDirectory) {
  const Experiment experiment =
      parse(bestiary_sweep, {"params.species=goblins.yaml"}, "configs/exp.yaml");
  EXPECT_EQ(names(species(experiment)), (std::vector<std::string>{"goblin", "hobgoblin"}));
  const std::string assignment = "params.species=[troll.yaml, {name: orc}]";
  const Experiment listed = parse(bestiary_sweep, {assignment});
  const DataNode& rows = species(listed);
  EXPECT_EQ(rows.items()[0].at("hp").where(), "troll.yaml:2:5");
  EXPECT_EQ(rows.items()[1].at("name").where(), "--set " + assignment);
}

TEST_F(ConfigTables, MissingFileNamesTheConfigLocationAndTheFile) {
  EXPECT_EQ(error_of(bestiary_sweep + "params:\n  species: [goblins.yaml, species/gobln.yaml]\n"),
            "exp.yaml:5:27: params.species[1]: table file 'species/gobln.yaml' does not exist");
  EXPECT_EQ(error_of(bestiary_sweep, {"params.species=gobln.yaml"}),
            "--set params.species=gobln.yaml: params.species: table file 'gobln.yaml' does not "
            "exist");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: ../trol.yaml}\n", {}, "configs/exp.yaml"),
            "configs/exp.yaml:4:19: params.species: table file 'trol.yaml' does not exist");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: elsewhere}\n"),
            "exp.yaml:4:19: params.species: table file 'elsewhere' is a directory, not a regular "
            "file");
}

// The C library reads a file name up to its first NUL: "troll.yaml\0x" must not open troll.yaml.
TEST_F(ConfigTables, ControlCharactersInFileNamesAndKeysAreShownEscaped) {
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: \"troll.yaml\\0x\"}\n"),
            "exp.yaml:4:19: params.species: table file 'troll.yaml\\0x' holds a NUL byte, which "
            "no file name can");
  const Experiment experiment =
      parse(bestiary_sweep + "params: {species: {\"gob\\0lin\": {hp: 3}}}\n");
  EXPECT_EQ(species(experiment).members().at(0).second.at("hp").path(),
            "params.species.gob\\0lin.hp");
}

TEST_F(ConfigTables, SyntaxErrorInATableFileNamesThatFile) {
  write("species/bad.yaml", "- name: goblin\n- {name: orc\n");
  const std::string message =
      error_of(bestiary_sweep + "params: {species: [troll.yaml, species/bad.yaml]}\n");
  EXPECT_EQ(message.rfind("species/bad.yaml:3:1: ", 0), 0u) << message;
  write("dup.yaml", "name: troll\nname: ogre\n");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: dup.yaml}\n"),
            "dup.yaml:2:1: duplicate key 'name' (first at dup.yaml:1:1)");
}

TEST_F(ConfigTables, ShapesThatAreNotTables) {
  EXPECT_EQ(error_of(bestiary_sweep + "params:\n  species:\n"),
            "exp.yaml:5:3: params.species: expected a map, a list of maps or a file name, got "
            "null");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: [{name: a}, [b]]}\n"),
            "exp.yaml:4:31: params.species[1]: expected a map or a file name, got a list");
  EXPECT_EQ(error_of(bestiary_sweep + "params:\n  species:\n    - name:\n"),
            "exp.yaml:6:7: params.species[0].name: expected a value, got null");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: {[a]: 1}}\n"),
            "exp.yaml:4:20: params.species: expected a key name, got a list");
  write("name.yaml", "goblin\n");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: name.yaml}\n"),
            "name.yaml:1:1: params.species: expected a map or a list of maps, got 'goblin'");
  write("empty.yaml", "");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: [troll.yaml, empty.yaml]}\n"),
            "empty.yaml:1:1: params.species[1]: expected a map or a list of maps, got null");
  write("list.yaml", "- name: goblin\n- orc\n");
  EXPECT_EQ(error_of(bestiary_sweep + "params: {species: [troll.yaml, list.yaml]}\n"),
            "list.yaml:2:3: params.species[2]: expected a map, got 'orc'");
}

TEST_F(ConfigTables, CannotBeSwept) {
  EXPECT_EQ(error_of(bestiary_sweep + "sweep:\n  grid:\n    params.species: [troll.yaml]\n"),
            "exp.yaml:6:5: params.species is a table and cannot be swept; sweep a parameter "
            "that selects from it");
  EXPECT_EQ(error_of(bestiary_sweep + "sweep:\n  sample:\n    n: 2\n    space:\n"
                                      "      params.species: {choice: [troll.yaml]}\n"),
            "exp.yaml:8:7: params.species is a table and cannot be sampled; sample a parameter "
            "that selects from it");
  EXPECT_EQ(error_of(bestiary_sweep, {"sweep.zip.params.species=[[]]"}),
            "--set sweep.zip.params.species=[[]]: params.species is a table and cannot be "
            "swept; sweep a parameter that selects from it");
}

TEST_F(ConfigTables, ConfigTextHoldsTheRowsNotTheFileNames) {
  write("configs/goblins.yaml", goblins_yaml);
  const std::string config = bestiary_sweep + "params: {species: [goblins.yaml, ../troll.yaml]}\n";
  const Experiment experiment = parse(config, {}, "configs/exp.yaml");
  EXPECT_EQ(experiment.config_text.find(".yaml"), std::string::npos) << experiment.config_text;
  EXPECT_NE(experiment.config_text.find("hobgoblin"), std::string::npos);

  std::filesystem::current_path("elsewhere");
  const Experiment again = parse(experiment.config_text);
  EXPECT_EQ(species(again), species(experiment));
  EXPECT_EQ(summary(again), summary(experiment));
  EXPECT_EQ(again.config_text, experiment.config_text);
  std::filesystem::current_path("..");

  write("troll.yaml", "name: troll\nhp: 13\n");
  const Experiment edited = parse(config, {}, "configs/exp.yaml");
  EXPECT_NE(edited.config_text, experiment.config_text);
  EXPECT_NE(species(edited), species(experiment));
}

TEST_F(ConfigTables, EffectiveYamlWritesTablesAsYaml) {
  write("odd.yaml", "name: 'null'\nnote: \"two\\nlines\"\nempty: ''\nlevels: [1, 2]\n");
  const Experiment experiment = parse(bestiary_sweep +
                                      "params:\n"
                                      "  hero: 'null'\n"
                                      "  species: [goblins.yaml, odd.yaml]\n"
                                      "sweep: {grid: {params.waves: [1, 2]}}\n");
  const std::string effective = effective_yaml(experiment, schema());
  for (const char* expected : {"hero: \"null\"", "  species:\n    - name: goblin\n      hp: 3\n",
                               "      motives:\n        fear: 0.5\n", "name: \"null\""}) {
    EXPECT_NE(effective.find(expected), std::string::npos) << expected << " in\n" << effective;
  }
  std::filesystem::current_path("elsewhere");
  const Experiment again = parse(effective);
  EXPECT_EQ(species(again), species(experiment));
  EXPECT_EQ(species(again).items()[2].at("note").text(), "two\nlines");
  EXPECT_EQ(again.points.at(0).params.text("hero"), "null");
  EXPECT_EQ(summary(again), summary(experiment));
  EXPECT_EQ(effective_yaml(again, schema()), effective);
}

}  // namespace
}  // namespace levelforge::config
