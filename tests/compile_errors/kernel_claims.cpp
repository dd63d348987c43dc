// Compiled by CTest (tests/CMakeLists.txt) once as it is, which must succeed, and once per
// LEVELFORGE_CASE, which must fail with the message of capabilities_hold (kernels/api/
// concepts.hpp): a kernel's claims and its concepts cannot drift apart unnoticed.

#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/testing/onemax.hpp"

namespace {

using levelforge::Capability;
using levelforge::kernels::OneMax;

#if !defined(LEVELFORGE_CASE)
// The claims OneMax makes: it compiles.
struct Claimed : OneMax {
  using OneMax::OneMax;
};
#elif LEVELFORGE_CASE == 1
// Claims validate, but validate() lacks its Rng: the concept is not met.
struct Claimed : OneMax {
  static constexpr levelforge::Capabilities capabilities{
      Capability::ga, Capability::validate, Capability::sweep, Capability::memory_estimate};
  using OneMax::OneMax;
  static std::vector<levelforge::FieldSpec> validation_fields() { return {}; }
  [[nodiscard]] levelforge::Record validate(const Genome& /*genome*/) const { return {}; }
};
#elif LEVELFORGE_CASE == 2
// Runs sweeps but does not say so.
struct Claimed : OneMax {
  static constexpr levelforge::Capabilities capabilities{Capability::ga,
                                                         Capability::memory_estimate};
  using OneMax::OneMax;
};
#endif

static_assert(levelforge::capabilities_hold<Claimed>());

}  // namespace
