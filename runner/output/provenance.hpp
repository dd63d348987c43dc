#pragma once

#include <string>
#include <string_view>

namespace levelforge {

// Generated at build time (cmake/write_provenance.cmake).
std::string_view build_version();
std::string_view build_commit();
// The hash of the uncommitted changes a "-dirty" commit was built with; empty for a clean one.
std::string_view build_changes();

// Now, as ISO 8601 UTC with seconds: 2026-11-29T12:07:40Z.
std::string utc_now();

}  // namespace levelforge
