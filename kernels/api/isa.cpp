#include "kernels/api/isa.hpp"

namespace levelforge {

bool isa_supported(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();  // in case this runs from a static initializer, before libgcc's
  switch (isa) {
    case Isa::portable: return true;
    case Isa::avx2: return __builtin_cpu_supports("avx2") != 0;
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512dq") != 0 &&
             __builtin_cpu_supports("avx512bw") != 0 && __builtin_cpu_supports("avx512vl") != 0;
  }
  return false;
#else
  return isa == Isa::portable;
#endif
}

Isa best_isa() {
  for (const Isa isa : {Isa::avx512, Isa::avx2})
    if (isa_supported(isa)) return isa;
  return Isa::portable;
}

bool avx512_ifma_supported() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return isa_supported(Isa::avx512) && __builtin_cpu_supports("avx512ifma") != 0;
#else
  return false;
#endif
}

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx512: return "avx512";
    case Isa::avx2: return "avx2";
    case Isa::portable: break;
  }
  return "portable";
}

}  // namespace levelforge
