// `levelforge show KERNEL FILE DATASET`: one puzzle stored in a text field of a result table,
// drawn by its kernel, and solved with --solve.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/puzzle_options.hpp"
#include "runner/config/suggest.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/output/table_reader.hpp"

namespace levelforge::cli {

namespace {

// `show KERNEL FILE DATASET`: the puzzle in text field `field` (empty: the kernel's
// stored_field) of row `row` (counted over all the table's elements, row-major) drawn on rank
// 0, and reported as by `solve` with `solve`. A kernel's PuzzleInfo::show_command names the
// same command for that kernel.
struct ShowArguments {
  std::string kernel;
  std::string file;
  std::string dataset;
  std::size_t row = 0;
  std::string field;
  bool solve = false;
  std::vector<OptionSetting> options;
};

// Every table under `group` with a text column `field`, as absolute paths: what to offer
// when the dataset asked for is not there.
void find_tables(const h5::Group& group, const std::string& prefix, const std::string& field,
                 std::vector<std::string>& found) {
  for (const auto& name : group.children()) {
    std::string path = prefix;
    path.append("/").append(name);
    const auto kind = group.kind_of(name);
    if (kind == h5::ObjectKind::group) {
      find_tables(group.open_group(name), path, field, found);
      continue;
    }
    if (kind != h5::ObjectKind::dataset) continue;
    const auto type = group.open_dataset(name).datatype();
    if (type.type_class() != h5::TypeClass::compound) continue;
    const auto members = type.member_names();
    if (std::find(members.begin(), members.end(), field) != members.end()) found.push_back(path);
  }
}

// The text in `field` of row `row` of `dataset`; UsageError naming all three otherwise.
std::string read_text_field(const ShowArguments& arguments, const PuzzleInfo& info) {
  const auto where = [&] { return fmt::format("{}: {}", arguments.file, arguments.dataset); };
  try {
    auto file = open_result(arguments.file);
    const auto root = file.root();
    const auto kind = root.kind_of(arguments.dataset);
    if (kind != h5::ObjectKind::dataset) {
      std::vector<std::string> tables;
      find_tables(root, "", arguments.field, tables);
      const std::string problem = kind == h5::ObjectKind::group     ? "is a group, not a dataset"
                                  : kind == h5::ObjectKind::missing ? "no such dataset"
                                                                    : "not a dataset";
      throw UsageError(fmt::format(
          "{}: {}; {}", where(), problem,
          tables.empty() ? fmt::format("the file has no table with a '{}' field", arguments.field)
                         : fmt::format("tables with a '{}' field: {}", arguments.field,
                                       config::join(tables))));
    }
    const auto dataset = root.open_dataset(arguments.dataset);
    const auto rows = dataset.element_count();
    if (dataset.datatype().type_class() != h5::TypeClass::compound)
      throw UsageError(where() + ": not a table (compound dataset)");
    if (arguments.row >= rows) {
      throw UsageError(fmt::format("{} row {}: no such row; the table has {} row{}", where(),
                                   arguments.row, rows, rows == 1 ? "" : "s"));
    }
    const auto table = read_table_row(dataset, arguments.row);
    const auto& fields = table.layout.fields();
    const auto field = std::find_if(fields.begin(), fields.end(),
                                    [&](const FieldSpec& f) { return f.name == arguments.field; });
    if (field == fields.end()) {
      std::vector<std::string> names;
      names.reserve(fields.size());
      for (const auto& f : fields) names.push_back(f.name);
      throw UsageError(fmt::format("{}: no field '{}'{}", where(), arguments.field,
                                   config::closest_hint(arguments.field, names, "its fields are")));
    }
    const auto value = table.row(0)[static_cast<std::size_t>(field - fields.begin())];
    const auto* text = std::get_if<std::string>(&value);
    if (text == nullptr) {
      throw UsageError(fmt::format("{}: field '{}' is a number, not a {} string", where(),
                                   arguments.field, info.stored_form));
    }
    return *text;
  } catch (const VerifyError& error) {
    throw UsageError(error.what());
  } catch (const h5::IoError& error) {
    // The file is the user's input: a bad one is a usage error, not a failed run.
    throw UsageError(error.what());
  }
}

int show_command(ShowArguments arguments) {
  const KernelEntry& kernel = find_puzzle_kernel("show", arguments.kernel);
  const PuzzleInfo& info = kernel.puzzle->info;
  const ParamSet options = read_puzzle_options("show", kernel, arguments.options);
  if (arguments.field.empty()) arguments.field = info.stored_field;
  const std::string stored = read_text_field(arguments, info);
  const std::string place = fmt::format("{}: {} row {}, field '{}'", arguments.file,
                                        arguments.dataset, arguments.row, arguments.field);
  if (stored.empty())
    throw UsageError(fmt::format("{}: empty (no {} stored in this row)", place, info.noun));
  const auto refused = [&](const PuzzleInputError& error) {
    return UsageError(fmt::format("{}: not a {}: {}", place, info.stored_form, error.what()));
  };
  std::string out;
  try {
    out = kernel.puzzle->draw(stored, info.stored_source, place);
  } catch (const PuzzleInputError& error) {
    throw refused(error);
  }
  if (arguments.solve) {
    // The stored text was read above: an error now is the solvers'.
    out.append("\n").append(solve_puzzle(kernel, stored, place, options).text());
  }
  fmt::print("{}", out);
  return exit_ok;
}

// CLI11 reads "-1" into a size_t as a huge number, and its range check prints 1.8e308.
CLI::Validator row_number() {
  return {[](const std::string& text) {
            const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
              return std::isdigit(static_cast<unsigned char>(ch)) != 0;
            });
            std::size_t row = 0;
            const auto* end = text.data() + text.size();
            std::string problem;
            if (!digits) {
              problem.append("expected a row number (0, 1, 2, ...), found '").append(text) += '\'';
            } else if (std::from_chars(text.data(), end, row).ec != std::errc{}) {
              problem.append("row ").append(text).append(" is past the end of any table");
            }
            return problem;
          },
          "ROW"};
}

// `show` (kernel: nullptr) or a kernel's own name for it, with the kernel fixed.
void add_show_command(CommandList& commands, const std::string& name,
                      const std::string& description, const KernelEntry* kernel) {
  struct Show {
    ShowArguments arguments;
    std::optional<PuzzleOptions> options;  // CLI11 keeps pointers into it
  };
  auto show = std::make_shared<Show>();
  auto* command = commands.app().add_subcommand(name, description);
  if (kernel == nullptr) {
    command->add_option("kernel", show->arguments.kernel, "the puzzle's kernel")->required();
  } else {
    show->arguments.kernel = kernel->name;
  }
  command->add_option("file", show->arguments.file, "HDF5 result file")->required();
  command->add_option("dataset", show->arguments.dataset, "a table, e.g. /sweep/records")
      ->required();
  command
      ->add_option("--row", show->arguments.row,
                   "the row, counted from 0 over all the table's elements (default 0)")
      ->check(row_number());
  command->add_option("--field", show->arguments.field,
                      kernel == nullptr
                          ? "the text field holding the puzzle (default: the kernel's)"
                          : "the text field holding the " + kernel->puzzle->info.noun +
                                " (default " + kernel->puzzle->info.stored_field + ")");
  command->add_flag("--solve", show->arguments.solve, "also print the solve report");
  show->options.emplace(*command, kernel);
  commands.add(command, Ranks::first, [show](const Invocation&) {
    show->arguments.options = show->options->given_options();
    return show_command(show->arguments);
  });
}

}  // namespace

void add_show_commands(CommandList& commands) {
  add_show_command(commands, "show", "draw a puzzle stored in a result table, optionally solve it",
                   nullptr);
  for (const auto& entry : registered_kernels()) {
    if (!entry.puzzle || entry.puzzle->info.show_command.empty()) continue;
    add_show_command(commands, entry.puzzle->info.show_command,
                     "draw a " + entry.puzzle->info.noun + " stored in a result table (`show " +
                         entry.name + "`), optionally solve it",
                     &entry);
  }
}

}  // namespace levelforge::cli
