#include "kernels/api/puzzle.hpp"

#include <utility>

#include <nlohmann/json.hpp>

namespace levelforge {

Report::Report() : json_(std::make_unique<Json>(Json::object())) {}
Report::~Report() = default;
Report::Report(Report&&) noexcept = default;
Report& Report::operator=(Report&&) noexcept = default;

void Report::set(const std::string& key, Json value) { (*json_)[key] = std::move(value); }

std::string Report::json_line() const {
  return json_->dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace levelforge
