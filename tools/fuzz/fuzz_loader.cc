// Fuzz target: the module loader on arbitrary words. spirv::normalizeModule (the repairs
// run before validation) and spirv::loadModule (normalize, validate, decode, capability
// checks). Any spvsim::Error is an accepted refusal; a crash, a sanitizer report or any
// other exception is a finding.
//
// Input: a SPIR-V binary (little-endian words; a trailing partial word is dropped).
// Seeds: the .spv and assembled .spvasm files of testdata and SPIR-V compiled from
// testdata's OpenCL C (tools/fuzz/make_seeds.py).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "spirv/module.h"
#include "spirv/normalize.h"
#include "tools/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spvsim;
  const std::vector<uint32_t> words = fuzz::toWords(data, size);

  // The repairs alone: they must never fail on words they cannot parse.
  spirv::NormalizedModule normalized = spirv::normalizeModule(words);
  (void)spirv::withEntryPointInterfaces(words);

  try {
    spirv::Module module = spirv::loadModule(words);
    // Touch what front ends read from every loaded module.
    size_t n = module.repairs.size();
    for (const spirv::EntryPoint& ep : module.entryPoints) {
      n += ep.signature.params.size() + ep.modes.size();
      (void)module.findEntryPoint(ep.name);
    }
    (void)n;
    // The loaded words are repaired and valid: they must load again, with nothing left to
    // repair (spirv/normalize.h: a clean module comes back unchanged).
    spirv::Module again;
    try {
      again = spirv::loadModule(module.words);
    } catch (const Error& e) {
      std::fprintf(stderr, "reloading the loaded module: %s\n", e.what());
      FUZZ_CHECK(false, "a loaded module loads again");
    }
    FUZZ_CHECK(again.repairs.empty(), "a repaired module needs no further repair");
    FUZZ_CHECK(again.words == module.words, "loading a loaded module changes nothing");
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}
