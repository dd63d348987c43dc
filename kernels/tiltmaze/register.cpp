#include "kernels/tiltmaze/tiltmaze.hpp"
#include "runner/engine/register_kernel.hpp"

LEVELFORGE_REGISTER_KERNEL(levelforge::kernels::TiltMaze);
