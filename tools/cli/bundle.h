// Capture bundles (written by the ICD with SPVSIM_CAPTURE, runtime/capture.h) as an input
// of `spvsim run|debug|check`: BUNDLE is the bundle's folder or its launch.txt. The
// manifest and its reader are src/formats/bundle_manifest.h's (the format, shared with
// the writer); this turns a read bundle into the command line's arguments and `spvsim
// check`'s expectations.
#pragma once

#include <vector>

#include "spirv/kernel_signature.h"
#include "src/formats/bundle_manifest.h"
#include "tools/cli/arg_value.h"
#include "tools/cli/check_expect.h"

namespace spvsim::tools {

using formats::Bundle;
using formats::BundleArg;
using formats::BundleBuffer;
using formats::BundleGlobal;
using formats::BundleHeader;
using formats::isBundlePath;
using formats::readBundle;
using formats::readBundleBytes;

// The launch's arguments for the kernel's parameters: buffers hold the "before" contents
// (ArgValue::storageArg where several share one allocation). An argument the ICD could not
// capture throws Error(DiagnosticKind::Unsupported) naming it; buffers are counted in
// `memory` before they are read.
std::vector<ArgValue> bundleArguments(const Bundle& bundle,
                                      const std::vector<spirv::ParamSignature>& params,
                                      ArgMemory& memory);

// Each buffer and image argument's "after" contents, as `spvsim check`'s reference.
std::vector<ExpectedArg> bundleExpectations(const Bundle& bundle,
                                            const std::vector<ArgValue>& args);

}  // namespace spvsim::tools
