#pragma once
// The registered kernels. Adding a kernel: write it under kernels/NAME/ and list it here.

#include "kernels/match3/match3.hpp"
#include "kernels/matchstick/matchstick.hpp"
#include "kernels/monsters/monsters.hpp"
#include "kernels/spawn/spawn.hpp"
#include "kernels/testing/collatz.hpp"
#include "kernels/testing/faulty.hpp"
#include "kernels/testing/onemax.hpp"
#include "kernels/tiltmaze/tiltmaze.hpp"

namespace levelforge::kernels {

template <class... Ks>
struct KernelList {};

using Registered =
    KernelList<Match3, TiltMaze, Matchstick, Monsters, Spawn, OneMax, Collatz, Faulty>;

}  // namespace levelforge::kernels
