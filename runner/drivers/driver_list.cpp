#include "runner/drivers/driver_list.hpp"

#include <algorithm>

#include "runner/drivers/driver.hpp"

namespace levelforge {

namespace {

template <class... Specs>
std::array<const Driver*, sizeof...(Specs)> drivers_of(DriverList<Specs...> /*list*/) {
  return {&Specs::driver()...};
}

}  // namespace

std::span<const Driver* const> drivers() {
  static const auto all = drivers_of(Drivers{});
  return all;
}

const Driver* find_driver(std::string_view name) {
  const auto all = drivers();
  const auto found = std::find_if(all.begin(), all.end(),
                                  [&](const Driver* driver) { return driver->name() == name; });
  return found == all.end() ? nullptr : *found;
}

}  // namespace levelforge
