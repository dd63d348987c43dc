// `levelforge maze FILE DATASET`: one tilt maze stored in a result table, drawn as text.

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "kernels/tiltmaze/maze_text.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/cli/tiltmaze_report.hpp"
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
    try {
      find_tables(group.open_group(name), path, field, found);
      continue;
    } catch (const h5::IoError&) {
    }
    try {
      const auto type = group.open_dataset(name).datatype();
      if (type.type_class() != H5T_COMPOUND) continue;
      const auto members = type.member_names();
      if (std::find(members.begin(), members.end(), field) != members.end()) found.push_back(path);
    } catch (const h5::IoError&) {
    }
  }
}

// The text in `field` of row `row` of `dataset`; UsageError naming all three otherwise.
std::string read_maze_field(const MazeArguments& arguments) {
  const auto where = [&] { return fmt::format("{}: {}", arguments.file, arguments.dataset); };
  try {
    auto file = open_result(arguments.file);
    const auto root = file.root();
    bool is_group = false;
    if (root.has(arguments.dataset)) {
      try {
        (void)root.open_group(arguments.dataset);  // throws unless a group
        is_group = true;
      } catch (const h5::IoError&) {
      }
    }
    if (!root.has(arguments.dataset) || is_group) {
      std::vector<std::string> tables;
      find_tables(root, "", arguments.field, tables);
      const std::string problem = is_group ? "is a group, not a dataset" : "no such dataset";
      throw UsageError(fmt::format(
          "{}: {}; {}", where(), problem,
          tables.empty() ? fmt::format("the file has no table with a '{}' field", arguments.field)
                         : fmt::format("tables with a '{}' field: {}", arguments.field,
                                       config::join(tables))));
    }
    const auto dataset = root.open_dataset(arguments.dataset);
    const auto rows = dataset.element_count();
    if (dataset.datatype().type_class() != H5T_COMPOUND)
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
      throw UsageError(fmt::format("{}: field '{}' is a number, not a compact maze string", where(),
                                   arguments.field));
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

int maze_command(const MazeArguments& arguments) {
  const std::string compact = read_maze_field(arguments);
  const std::string place = fmt::format("{}: {} row {}, field '{}'", arguments.file,
                                        arguments.dataset, arguments.row, arguments.field);
  if (compact.empty()) throw UsageError(place + ": empty (no maze stored in this row)");
  tiltmaze::Maze maze;
  try {
    maze = tiltmaze::from_compact(compact);
  } catch (const tiltmaze::MazeFormatError& error) {
    throw UsageError(place + ": not a compact tilt maze: " + error.what());
  }
  std::optional<MazeAnalysis> analysis;
  if (arguments.solve) analysis = analyze_maze(maze, parse_collect(arguments.collect), place);

  // The header lines are comments, so the output without --solve is a maze file `solve`
  // reads back.
  std::string out = fmt::format("# {}: {}x{}, start {}, {} target{}\n# compact: {}\n", place,
                                maze.width, maze.height, cell_text(maze, maze.start),
                                maze.targets.size(), maze.targets.size() == 1 ? "" : "s", compact);
  tiltmaze::Maze drawn = maze;
  const auto on_start = std::find(drawn.targets.begin(), drawn.targets.end(), maze.start);
  if (on_start != drawn.targets.end()) {
    // A cell of the drawing holds one character. The start's target is collected at time 0
    // in both modes, so the drawing without it has the same solutions.
    drawn.targets.erase(on_start);
    out += fmt::format(
        "# note: the start {} is also a target, which the drawing cannot show: it is drawn as "
        "'S' (the target is collected at the start, so the solutions are the same)\n",
        cell_text(maze, maze.start));
  }
  out += tiltmaze::format_maze(drawn);
  if (analysis) out.append("\n").append(report_text(maze, *analysis));
  fmt::print("{}", out);
  return exit_ok;
}

}  // namespace levelforge::cli
