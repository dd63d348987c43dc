// The one line that puts the kernel into the executable levelforge_add_executable links.
#include "runner/engine/register_kernel.hpp"
#include "sliding_tiles.hpp"

LEVELFORGE_REGISTER_KERNEL(tiles::SlidingTiles);
