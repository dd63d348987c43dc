#include "runner/output/table_reader.hpp"

#include "runner/output/compound.hpp"

namespace levelforge {

std::size_t TableData::field(const std::string& name) const {
  const auto& fields = layout.fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return i;
  }
  throw h5::IoError("table has no column '" + name + "'");
}

namespace {

// The layout of a table's rows, built from the dataset's own compound type.
RecordLayout table_layout(const h5::Dataset& dataset) {
  const auto type = dataset.datatype();
  if (type.type_class() != h5::TypeClass::compound) {
    throw h5::IoError("dataset '" + dataset.path() + "' in " + dataset.file_path() +
                      " is not a table (compound dataset)");
  }
  std::vector<FieldSpec> fields;
  const auto names = type.member_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto member_type = type.member_type(i);
    switch (member_type.type_class()) {
      case h5::TypeClass::integer: fields.push_back(int_field(names[i], "")); break;
      case h5::TypeClass::floating: fields.push_back(real_field(names[i], "")); break;
      case h5::TypeClass::string:
        fields.push_back(text_field(names[i], member_type.size(), ""));
        break;
      default:
        throw h5::IoError("dataset '" + dataset.path() + "' in " + dataset.file_path() +
                          ": column '" + names[i] + "' has an unsupported type");
    }
  }
  return RecordLayout(std::move(fields));
}

}  // namespace

TableData read_table(const h5::Dataset& dataset) {
  TableData table{table_layout(dataset), dataset.dims(), {}};
  dataset.require_whole_read_size(table.layout.row_size());
  table.rows.resize(static_cast<std::size_t>(dataset.element_count()) * table.layout.row_size());
  if (!table.rows.empty()) dataset.read_all(compound_type(table.layout), table.rows.data());
  return table;
}

TableData read_table_row(const h5::Dataset& dataset, std::size_t index) {
  TableData table{table_layout(dataset), {1}, {}};
  const auto dims = dataset.dims();
  if (index >= dataset.element_count()) {
    throw h5::IoError("dataset '" + dataset.path() + "' in " + dataset.file_path() + " has " +
                      std::to_string(dataset.element_count()) + " rows, no row " +
                      std::to_string(index));
  }
  // The row-major coordinates of element `index`: the last dimension varies fastest.
  h5::Block block{std::vector<hsize_t>(dims.size()), std::vector<hsize_t>(dims.size(), 1)};
  auto rest = static_cast<hsize_t>(index);
  for (std::size_t d = dims.size(); d-- > 0;) {
    block.start[d] = rest % dims[d];
    rest /= dims[d];
  }
  table.rows.resize(table.layout.row_size());
  dataset.read(compound_type(table.layout), {block}, table.rows.data());
  return table;
}

}  // namespace levelforge
