#include "kernels/match3/match3.hpp"
#include "runner/engine/register_kernel.hpp"

LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Match3);
