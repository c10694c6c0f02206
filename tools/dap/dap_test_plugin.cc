// A shared object that records being loaded: dap_test.py names it in build options that
// would load it into clang (-Xclang -load, -fplugin=) and checks that it never is, i.e.
// that the marker file named by SPVSIM_DAP_TEST_MARKER stays absent.
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void recordLoad() {
  const char* marker = std::getenv("SPVSIM_DAP_TEST_MARKER");
  if (!marker) return;
  if (std::FILE* f = std::fopen(marker, "a")) {
    std::fputs("loaded\n", f);
    std::fclose(f);
  }
}

}  // namespace
