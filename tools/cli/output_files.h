// The files spvsim's commands write besides stdout (--json, --profile*,
// compile -o): checked before anything runs, written whole at the end (README.md
// "Output files").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/cli/options.h"

namespace spvsim::tools {

// An output file and the option that named it ("--json", "-o").
struct OutputFile {
  std::string_view option;
  std::string path;
};

// The report files a launching command (run, check) writes: --json, --profile,
// --profile-json, --profile-text, --junit and --results (appended to), those given.
std::vector<OutputFile> reportFiles(const RunOptions& options);

// The files the command reads: the kernel or .sim file, a .sim file's program, a capture
// bundle's files, --arg file(PATH) initializers and --expect; check --merge's results files.
// A .cl file's #includes are not among them.
std::vector<std::string> inputFiles(const RunOptions& options);

// Refuses, before anything runs, an output that would replace one of `inputs` (the same
// file: device and inode) or another output (Error "usage"), or whose folder or file
// cannot be written (Error "input"). No report is written about the refusal, so a
// refused path is left as it was.
void checkOutputs(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs);

// Writes `contents` as the whole of `path` (files::writeFileWhole) with SIGINT, SIGTERM
// and SIGHUP held until the new file is in place: an interrupt leaves the old file or the
// new one, and no temporary file. Throws Error(DiagnosticKind::Input) naming `what`.
void writeOutput(std::string_view what, const std::string& path, std::string_view contents);

// Throws Error(DiagnosticKind::Input) when `out` (the command's standard output) failed,
// e.g. a full disk under `> FILE`: results that were not written are an error exit.
void checkStandardOutput(std::ostream& out);

}  // namespace spvsim::tools
