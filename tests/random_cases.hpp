#pragma once
// How many random cases a property test draws. The sanitizer build (LEVELFORGE_SANITIZE, 5-10
// times slower) draws a tenth of them: it checks memory and undefined behaviour on the same
// code paths, while the plain build holds the results equal on every case.

namespace levelforge::testing {

#ifdef LEVELFORGE_SANITIZED
inline constexpr int random_case_divisor = 10;
#else
inline constexpr int random_case_divisor = 1;
#endif

constexpr int random_cases(int cases) {
  return (cases + random_case_divisor - 1) / random_case_divisor;
}

}  // namespace levelforge::testing
