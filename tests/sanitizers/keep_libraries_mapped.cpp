// Linked into every executable of the sanitizer build only (cmake/warnings.cmake).
//
// Open MPI 4.1 loads its components (mca_*.so) and PMIx its plugins with dlopen and
// unloads them at MPI_Finalize. LeakSanitizer reports at exit, when those modules are
// gone: their allocations show as "<unknown module>" and no suppression can name them.
// Keeping every library mapped until exit lets tests/sanitizers/lsan_suppressions.txt
// match Open MPI's frames while our own leaks are still reported. Open MPI 5 has
// mca_base_component_disable_dlclose for this; 4.1 (Debian 12) does not.
#include <dlfcn.h>

int dlclose(void* /*handle*/) noexcept { return 0; }
