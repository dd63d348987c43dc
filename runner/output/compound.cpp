#include "runner/output/compound.hpp"

namespace levelforge {

h5::Datatype compound_type(const RecordLayout& layout) {
  h5::Datatype::CompoundBuilder builder(layout.row_size());
  const auto& fields = layout.fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    switch (fields[i].type) {
      case FieldType::int64:
        builder.add(fields[i].name, layout.offset(i), h5::Datatype::int64());
        break;
      case FieldType::float64:
        builder.add(fields[i].name, layout.offset(i), h5::Datatype::float64());
        break;
      case FieldType::text:
        builder.add(fields[i].name, layout.offset(i),
                    h5::Datatype::fixed_string(fields[i].text_size));
        break;
    }
  }
  return builder.build();
}

}  // namespace levelforge
