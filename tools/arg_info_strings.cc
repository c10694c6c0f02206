#include "tools/arg_info_strings.h"

#include <cstring>
#include <map>
#include <spirv/unified1/spirv.hpp11>

#include "tools/text_util.h"

namespace spvsim::tools {
namespace {

// The metadata node number after `key` on a define line ("!kernel_arg_type !6" -> "6").
std::string nodeAfter(std::string_view line, std::string_view key) {
  const std::string needle = std::string(key) + " !";
  size_t at = line.find(needle);
  if (at == std::string_view::npos) return "";
  at += needle.size();
  size_t end = at;
  while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
  return std::string(line.substr(at, end - at));
}

// The kernel's name on a "define ... spir_kernel void @name(" line.
std::string kernelName(std::string_view line) {
  const size_t at = line.find('@');
  if (at == std::string_view::npos) return "";
  size_t start = at + 1, end = line.find('(', start);
  if (start < line.size() && line[start] == '"') {  // @"quoted name"
    ++start;
    end = line.find('"', start);
  }
  return end == std::string_view::npos ? "" : std::string(line.substr(start, end - start));
}

// The strings of a metadata node: !{!"int*", !"float"} -> "int*,float,".
std::string nodeStrings(std::string_view node) {
  std::string out;
  for (size_t at = node.find("!\""); at != std::string_view::npos; at = node.find("!\"", at)) {
    const size_t end = node.find('"', at + 2);
    if (end == std::string_view::npos) break;
    out += std::string(node.substr(at + 2, end - at - 2)) + ",";
    at = end + 1;
  }
  return out;
}

struct KernelNodes {
  std::string name, types, qualifiers;  // node numbers
};

bool precedesDebugStrings(spv::Op op) {
  switch (op) {
    case spv::Op::OpCapability:
    case spv::Op::OpExtension:
    case spv::Op::OpExtInstImport:
    case spv::Op::OpMemoryModel:
    case spv::Op::OpEntryPoint:
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::vector<std::string> kernelArgStrings(std::string_view llvmIr) {
  std::vector<KernelNodes> kernels;
  std::map<std::string, std::string> nodes;  // "6" -> "int*,float,"
  for (std::string_view line : split(llvmIr, '\n')) {
    if (line.rfind("define ", 0) == 0 && line.find(" spir_kernel ") != std::string_view::npos)
      kernels.push_back({kernelName(line), nodeAfter(line, "!kernel_arg_type"),
                         nodeAfter(line, "!kernel_arg_type_qual")});
    else if (line.size() > 1 && line[0] == '!' && std::isdigit(static_cast<unsigned char>(line[1])))
      if (const size_t eq = line.find(" = "); eq != std::string_view::npos)
        nodes[std::string(line.substr(1, eq - 1))] = nodeStrings(line.substr(eq + 3));
  }
  std::vector<std::string> out;
  for (const KernelNodes& k : kernels) {
    if (k.name.empty()) continue;
    if (auto t = nodes.find(k.types); t != nodes.end())
      out.push_back("kernel_arg_type." + k.name + "." + t->second);
    if (auto q = nodes.find(k.qualifiers); q != nodes.end())
      out.push_back("kernel_arg_type_qual." + k.name + "." + q->second);
  }
  return out;
}

std::vector<uint32_t> withOpStrings(std::vector<uint32_t> words,
                                    const std::vector<std::string>& strings) {
  if (words.size() < 5 || strings.empty()) return words;
  size_t insertAt = words.size();
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0) return words;  // malformed: leave it to the validator
    if (!precedesDebugStrings(static_cast<spv::Op>(words[at] & 0xffff))) {
      insertAt = at;
      break;
    }
    at += count;
  }
  std::vector<uint32_t> added;
  for (const std::string& s : strings) {
    std::vector<uint32_t> text(s.size() / 4 + 1, 0);
    std::memcpy(text.data(), s.data(), s.size());
    added.push_back(static_cast<uint32_t>(text.size() + 2) << 16 |
                    static_cast<uint32_t>(spv::Op::OpString));
    added.push_back(words[3]++);  // a fresh id: the bound grows by one
    added.insert(added.end(), text.begin(), text.end());
  }
  words.insert(words.begin() + insertAt, added.begin(), added.end());
  return words;
}

}  // namespace spvsim::tools
