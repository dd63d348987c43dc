#include "kernels/testing/collatz.hpp"
#include "kernels/testing/faulty.hpp"
#include "kernels/testing/onemax.hpp"
#include "kernels/testing/sphere.hpp"
#include "kernels/testing/zdt.hpp"
#include "runner/engine/register_kernel.hpp"

LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::OneMax);
LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Collatz);
LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Faulty);
LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Sphere);
LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Zdt);
