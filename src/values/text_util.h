// Small string helpers shared by the command-line parsers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::values {

std::string_view trim(std::string_view s);

// Splits at every `sep`, trimming each piece; "" gives one empty piece.
std::vector<std::string_view> split(std::string_view s, char sep);

// A whole decimal (or 0x-hex) unsigned number, or false.
bool parseUnsigned(std::string_view s, uint64_t& out);

bool endsWith(std::string_view s, std::string_view suffix);

// `text` without a leading UTF-8 byte order mark, which editors on Windows write first:
// for the text formats spvsim reads (.sim, capture manifests, .spvasm) it is not content.
std::string_view withoutUtf8Bom(std::string_view text);

// Reads a whole regular file, bytes as they are (also data files, so no BOM is taken off;
// files::readInputFile: a FIFO, a device or a directory is refused); throws
// Error(DiagnosticKind::Input) naming the path and what failed.
std::string readTextFile(const std::string& path);

}  // namespace spvsim::values
