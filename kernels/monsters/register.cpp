#include "kernels/monsters/monsters.hpp"
#include "runner/engine/register_kernel.hpp"

LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::Monsters);
