// A launch profile (src/profile/profiler.h) as the reports show it: per SPIR-V
// instruction, per source line, and as JSON (`--profile-json`) or a self-contained HTML
// page (`--profile`). README.md "Profiles" documents the JSON fields.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/profile/profiler.h"

namespace spvsim::profile {

struct Counts {
  uint64_t executions = 0, laneExecutions = 0, splits = 0;
};

struct InstructionRow {
  InstructionInfo info;
  Counts counts;
};

struct LineRow {
  std::string file;
  uint32_t line = 0;
  Counts counts;
  uint32_t instructions = 0;  // SPIR-V instructions of the line that were lowered
};

// lane executions / (executions * sub-group size); 0 when never executed.
double utilisation(const Counts& c, uint32_t subGroupSize);

// Every SPIR-V instruction the launch's code came from, in module order.
std::vector<InstructionRow> instructionRows(const LaunchProfile& p);
// The same added up per source line (instructions with line info), by file then line.
std::vector<LineRow> lineRows(const std::vector<InstructionRow>& rows);

const char* phaseName(SubGroupPhase phase);

// The launches' profiles as one JSON document: {"launches": [...]}.
std::string profileJson(const std::vector<const LaunchProfile*>& launches);

// The HTML page. `readSource` gives a source file's text by the name its line info
// uses, or "" where it cannot be read (the page then lists only the lines that ran).
using SourceReader = std::function<std::string(const std::string& file)>;
std::string profileHtml(const std::vector<const LaunchProfile*>& launches, SourceReader readSource);

// Text for HTML element content and attribute values.
std::string escapeHtml(const std::string& s);
// A JSON string literal.
std::string jsonString(const std::string& s);

}  // namespace spvsim::profile
