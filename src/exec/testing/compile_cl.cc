#include "src/exec/testing/compile_cl.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace spvsim::testing {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<uint32_t> compileOpenCL(const std::string& source, const std::string& extraFlags) {
  char dir[] = "/tmp/spvsim-test-XXXXXX";
  if (!mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
  std::string d = dir;
  std::ofstream(d + "/k.cl") << source;
  std::string cmd =
      "clang-15 -cl-std=CL3.0 -target spir64 -Xclang -no-opaque-pointers "
      "-cl-no-stdinc -Xclang -finclude-default-header -O2 " +
      extraFlags + " -emit-llvm -c " + d + "/k.cl -o " + d + "/k.bc 2>" + d +
      "/log && llvm-spirv-15 --spirv-ext=+all " + d + "/k.bc -o " + d + "/k.spv 2>>" + d + "/log";
  int rc = std::system(cmd.c_str());
  if (rc != 0) {
    std::string log = readFile(d + "/log");
    std::system(("rm -rf " + d).c_str());
    throw std::runtime_error("compilation failed:\n" + log);
  }
  std::string bytes = readFile(d + "/k.spv");
  std::system(("rm -rf " + d).c_str());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

}  // namespace spvsim::testing
