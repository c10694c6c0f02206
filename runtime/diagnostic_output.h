// Where the ICD's kernel diagnostics go (SPVSIM_DIAGNOSTICS: stderr, none, or a file they
// are appended to), for the launches of the ICD and for the OpenCL layer's reports
// (runtime/layer/), so that one setting gathers both.
#pragma once

#include <cstdint>
#include <string>

namespace spvsim::rt {

// Writes whole lines (`text` ends with a newline) where SPVSIM_DIAGNOSTICS says; lines of
// concurrent writers never interleave.
void writeDiagnosticText(const std::string& text);

// Diagnostics of launches reported so far in this process (the layer's summary).
void countDiagnostics(uint64_t n);
uint64_t diagnosticsReported();

}  // namespace spvsim::rt
