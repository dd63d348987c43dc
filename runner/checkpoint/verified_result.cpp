#include "runner/checkpoint/verified_result.hpp"

#include <fmt/format.h>

#include "runner/engine/kernel_registry.hpp"
#include "runner/output/provenance.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge {

h5::File open_result(const std::string& path) {
  auto file = [&] {
    try {
      return h5::File::open_sealed(path);
    } catch (const h5::IoError& error) {
      throw VerifyError(error.what());
    }
  }();
  const auto root = file.root();
  try {
    if (!root.has_attribute("format") ||
        root.read_string_attribute("format") != std::string(result_format)) {
      throw VerifyError(path +
                        " is an HDF5 file written by levelforge but not a result file "
                        "(no format attribute '" +
                        std::string(result_format) + "')");
    }
    const auto version =
        root.has_attribute("format_version") ? root.read_int_attribute("format_version") : -1;
    if (version != result_format_version) {
      throw VerifyError(fmt::format(
          "{}: result format version {}, but this levelforge ({}) reads format version {}; use "
          "the levelforge that wrote it ({})",
          path, version < 0 ? std::string("(none)") : std::to_string(version), build_version(),
          result_format_version,
          root.has_attribute("levelforge_version")
              ? root.read_string_attribute("levelforge_version")
              : std::string("unknown")));
    }
  } catch (const h5::IoError& error) {
    throw VerifyError(path + ": its root attributes cannot be read (" + error.what() + ")");
  }
  return file;
}

ResultHeader read_result_header(const h5::File& file) {
  const auto root = file.root();
  ResultHeader header;
  header.path = file.path();
  try {
    header.complete = root.has_attribute("complete") && root.read_int_attribute("complete") == 1;
    if (root.has_attribute("sessions")) header.sessions = root.read_int_attribute("sessions");
    if (root.has_attribute("shard_count")) {
      header.shard = ShardSpec{static_cast<std::uint64_t>(root.read_int_attribute("shard_index")),
                               static_cast<std::uint64_t>(root.read_int_attribute("shard_count"))};
    }
    header.config = root.read_string_attribute("config");
    const auto experiment =
        config::parse_experiment(header.config, header.path + ": config", {}, config_schema());
    header.identity = run_identity(experiment, header.shard.value_or(ShardSpec{}));
    // The identity names this binary's build; the file's own counts.
    header.identity[version_key] = root.read_string_attribute("levelforge_version");
    header.identity[commit_key] = commit_identity(
        root.read_string_attribute("git_commit"),
        root.has_attribute("git_changes") ? root.read_string_attribute("git_changes") : "");
    header.identity.erase(kernel_code_key);
    if (root.has_attribute("kernel_sources") && root.has_attribute("kernel_version")) {
      header.identity[kernel_code_key] = KernelCode{root.read_string_attribute("kernel_version"),
                                                    {},
                                                    false,
                                                    root.read_string_attribute("kernel_sources")}
                                             .identity();
    }
    if (root.has_attribute("builds")) {
      header.builds = SessionBuilds::parse(root.read_strings_attribute("builds"));
    } else {
      for (std::int64_t session = 0; session < header.sessions; ++session)
        header.builds.add(session, describe_build(header.identity));
    }
  } catch (const h5::IoError& error) {
    throw VerifyError(header.path + ": its provenance cannot be read (" + error.what() + ")");
  } catch (const config::ConfigError& error) {
    throw VerifyError(std::string("the config stored in ") + error.what());
  }
  return header;
}

ResultMatch match_result(const std::string& path, const RunIdentity& identity, std::string& why) {
  try {
    const auto header = read_result_header(open_result(path));
    if (!header.complete) {
      why = path + " is a levelforge result that did not complete (complete = 0)";
      return ResultMatch::other;
    }
    const auto lines = identity_differences(experiment_part(header.identity),
                                            experiment_part(identity), "in it", "in this run");
    if (!lines.empty()) {
      why = path + " is the complete result of a different run:\n" +
            fmt::format("{}", fmt::join(lines, "\n"));
      return ResultMatch::other;
    }
    const auto builds = identity_differences(build_part(header.identity), build_part(identity),
                                             "in it", "in this build");
    if (builds.empty()) return ResultMatch::this_run;
    why = path + " is the complete result of this experiment made by another build:\n" +
          fmt::format("{}", fmt::join(builds, "\n"));
    return ResultMatch::this_experiment;
  } catch (const VerifyError& error) {
    why = error.what();
  }
  return ResultMatch::other;
}

}  // namespace levelforge
