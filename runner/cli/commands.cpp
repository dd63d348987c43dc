#include "runner/cli/commands.hpp"

namespace levelforge::cli {

const Command* CommandList::parsed() const {
  for (const auto& command : commands_) {
    if (command.app->parsed()) return &command;
  }
  return nullptr;
}

CLI::Validator non_empty_path() {
  return {[](const std::string& text) {
            return text.empty() ? std::string("an empty path; give a file's name") : std::string();
          },
          "PATH"};
}

}  // namespace levelforge::cli
