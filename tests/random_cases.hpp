#pragma once
// How many random cases a property test draws, and which cases an exhaustive one visits. The
// sanitizer build (LEVELFORGE_SANITIZE, 5-10 times slower) takes a tenth of them: it checks
// memory and undefined behaviour on the same code paths, while the plain build holds the
// results equal on every case.

namespace levelforge::testing {

#ifdef LEVELFORGE_SANITIZED
inline constexpr int random_case_divisor = 10;
#else
inline constexpr int random_case_divisor = 1;
#endif

constexpr int random_cases(int cases) {
  return (cases + random_case_divisor - 1) / random_case_divisor;
}

// Whether an exhaustive loop visits its case number `index`: every case in the plain build,
// every tenth in the sanitizer build.
constexpr bool sampled_case(int index) { return index % random_case_divisor == 0; }

}  // namespace levelforge::testing
