#pragma once
// The instruction sets a kernel's SIMD paths are compiled for. One binary carries every
// path (function attributes, no -march), and picks at run time the best this CPU offers:
// a cluster's login node, where it is built, is often not its compute nodes.

#include <string_view>

namespace levelforge {

enum class Isa { portable, avx2, avx512 };

// Whether this CPU (and build) runs `isa`. avx512 means AVX-512 F, DQ, BW and VL (every
// AVX-512 Xeon since Skylake).
[[nodiscard]] bool isa_supported(Isa isa);
// The best supported: avx512, else avx2, else portable.
[[nodiscard]] Isa best_isa();
[[nodiscard]] std::string_view isa_name(Isa isa);
// Whether this CPU has AVX-512 IFMA (52-bit integer multiply-adds: Ice Lake Xeons and
// later, AMD Zen 4), which an avx512 path may use beside its base set.
[[nodiscard]] bool avx512_ifma_supported();

}  // namespace levelforge
