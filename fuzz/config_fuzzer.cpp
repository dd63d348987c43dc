// Fuzzes what `levelforge run` does with a config before it runs anything
// (runner/cli/experiment_input.cpp, load_experiment): parse the YAML, check it against the kernel
// registry's schema, expand the sweep, and check every point runnable. The input is the
// config text; table files it names are looked up relative to the working directory and
// usually do not exist. A ConfigError is the expected answer to bad input; any other
// exception escapes and is reported by libFuzzer as a crash.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runner/config/experiment.hpp"
#include "runner/drivers/run.hpp"
#include "runner/engine/kernel_registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace config = levelforge::config;
  static const config::Schema schema = levelforge::config_schema();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto experiment = config::parse_experiment(text, "<fuzz>", {}, schema);
    (void)levelforge::check_runnable(levelforge::bind_run(experiment));
    // `levelforge validate` prints this; it must take any experiment the parser accepts.
    (void)config::effective_yaml(experiment, schema);
  } catch (const config::ConfigError&) {
  }
  return 0;
}
