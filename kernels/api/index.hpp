#pragma once
// A non-negative int as a container index: the one place for the conversion that
// -Wsign-conversion asks of every subscript with an int.

#include <cstddef>

namespace levelforge {

constexpr std::size_t to_index(int index) { return static_cast<std::size_t>(index); }

}  // namespace levelforge
