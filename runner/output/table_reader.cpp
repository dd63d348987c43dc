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

TableData read_table(const h5::Dataset& dataset) {
  const auto type = dataset.datatype();
  if (type.type_class() != H5T_COMPOUND) {
    throw h5::IoError("dataset '" + dataset.path() + "' in " + dataset.file_path() +
                      " is not a table (compound dataset)");
  }
  std::vector<FieldSpec> fields;
  const auto names = type.member_names();
  for (unsigned i = 0; i < names.size(); ++i) {
    const hid_t member = H5Tget_member_type(type.id(), i);
    if (member < 0) {
      throw h5::IoError("dataset '" + dataset.path() + "' in " + dataset.file_path() +
                        ": cannot read the type of column '" + names[i] + "'");
    }
    const h5::Datatype member_type{h5::Handle(member)};
    switch (member_type.type_class()) {
      case H5T_INTEGER: fields.push_back(int_field(names[i], "")); break;
      case H5T_FLOAT: fields.push_back(real_field(names[i], "")); break;
      case H5T_STRING: fields.push_back(text_field(names[i], member_type.size(), "")); break;
      default:
        throw h5::IoError("dataset '" + dataset.path() + "' in " + dataset.file_path() +
                          ": column '" + names[i] + "' has an unsupported type");
    }
  }
  TableData table{RecordLayout(std::move(fields)), dataset.dims(), {}};
  table.rows.resize(static_cast<std::size_t>(dataset.element_count()) * table.layout.row_size());
  if (!table.rows.empty()) dataset.read_all(compound_type(table.layout), table.rows.data());
  return table;
}

}  // namespace levelforge
