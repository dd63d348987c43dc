// `levelforge show KERNEL FILE DATASET`: one puzzle stored in a text field of a result table,
// drawn by its kernel, and solved with --solve.

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/puzzle_options.hpp"
#include "runner/config/suggest.hpp"
#include "runner/output/table_reader.hpp"

namespace levelforge::cli {

namespace {

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

}  // namespace

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

}  // namespace levelforge::cli
