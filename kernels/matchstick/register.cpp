#include "kernels/matchstick/matchstick.hpp"
#include "runner/engine/register_kernel.hpp"

LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Matchstick);
