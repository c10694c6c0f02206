// Files written whole or not at all (src/DESIGN.md "Outputs"): every report, profile,
// compiled module and capture bundle spvsim writes goes through here, so that an error,
// a full disk or a signal leaves the previous file as it was.
#pragma once

#include <string>
#include <string_view>

namespace spvsim::files {

// Writes `contents` as the whole of `path`, or leaves `path` as it was: the bytes go to a
// new temporary file beside it ("PATH.tmp.PID.RANDOM"), which replaces `path` by rename
// once every write and the close succeeded, and is removed otherwise. A symbolic link is
// followed (its target is replaced); a path that is not a regular file (/dev/stdout, a
// FIFO, /dev/null) is written in place, as no rename can replace it. Throws
// Error(DiagnosticKind::Input) "cannot write 'PATH': REASON".
void writeFileWhole(const std::string& path, std::string_view contents);

// Creates (or truncates) `path` and writes `contents`, checking every write and the
// close: for files inside a folder that is itself renamed into place when complete.
// Throws like writeFileWhole (the file may be left partial).
void writeFile(const std::string& path, std::string_view contents);

// Why `path` cannot be written by writeFileWhole, checked before a long run so that it
// fails first: "" when it can (probably: a full disk shows only when writing).
std::string unwritableReason(const std::string& path);

// Whether `a` and `b` name one existing regular file (the same device and inode), under
// whatever names, links or relative paths.
bool sameRegularFile(const std::string& a, const std::string& b);

// A name for a temporary sibling of `path`, "PATH.tmp.PID.RANDOM" (or, with a non-empty
// `prefix`, that prefix before the file name: "DIR/.tmp-NAME.PID.RANDOM"), unique to this
// process and call.
std::string temporarySibling(const std::string& path, std::string_view prefix = "");

// Renames `from` to `to` unless `to` exists (for folders: even an empty one). Returns
// false when `to` exists; throws Error(DiagnosticKind::Input) for any other failure.
bool renameNoReplace(const std::string& from, const std::string& to);

}  // namespace spvsim::files
