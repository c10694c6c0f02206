// Fuzz target: the DAP adapter's input without sessions (tools/fuzz/dap_input.h).
#include "tools/fuzz/dap_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return spvsim::fuzz::dapInput(data, size, /*sessions=*/false);
}
