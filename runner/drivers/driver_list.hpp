#pragma once
// The one list of drivers. A driver is a folder under runner/drivers/ holding its spec
// (DRIVER_spec.hpp: name, unit, settings and the binding of a kernel), its Driver and its
// inspect summary; naming its spec below makes it known to the kernels (describe<K> binds each
// kernel to every driver it offers), to configs and to `levelforge kernels`, in this order.

#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/api/params.hpp"
#include "runner/drivers/exhaustive/exhaustive_spec.hpp"
#include "runner/drivers/ga/ga_spec.hpp"
#include "runner/drivers/qd/qd_spec.hpp"
#include "runner/drivers/sweep/sweep_spec.hpp"

namespace levelforge {

template <class... Specs>
struct DriverList {};

using Drivers = DriverList<GaSpec, QdSpec, SweepSpec, ExhaustiveSpec>;

// What the MPI-free side of the runner knows of a driver: its name in configs, the unit of
// work it schedules, checkpoints, shards and fails, what progress counts, its config section.
struct DriverSpec {
  std::string_view name;
  std::string_view unit;       // "task", "chunk"
  std::string_view work_unit;  // "evals", "runs", "indices"
  std::vector<ParamSpec> (*settings)();
};

template <class... Specs>
constexpr std::array<DriverSpec, sizeof...(Specs)> specs_of(DriverList<Specs...> /*list*/) {
  return {DriverSpec{Specs::name, Specs::unit, Specs::work_unit, &Specs::settings}...};
}

// Every driver, in the list's order.
inline constexpr auto driver_specs = specs_of(Drivers{});

// nullptr when no driver has that name.
constexpr const DriverSpec* find_driver_spec(std::string_view name) {
  for (const auto& spec : driver_specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

class Driver;

// The drivers themselves, in the list's order (driver_list.cpp, with the MPI side of the
// runner).
std::span<const Driver* const> drivers();
// nullptr when no driver has that name.
const Driver* find_driver(std::string_view name);

}  // namespace levelforge
