// Copies of a program's source files kept apart from the paths its module's line
// information names. A capture bundle holds the OpenCL C an application compiled from
// memory, which clang names "<stdin>" (in the working folder of the process that compiled
// it), and the headers clCompileProgram embedded, which clang names by the temporary
// include folder the compile driver wrote them to (gone since). The debugger (`list`,
// breakpoints, the DAP's source paths) and the profile's source view read the copies in
// place of those paths.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spvsim::files {

struct SourceCopy {
  std::string name;     // "<stdin>", or a header's include name ("inc/util.h")
  std::string shownAs;  // how the file is shown: the program's file name ("app.cl"), or
                        // the header's last path component ("util.h")
  std::string path;     // the copy
};

class SourceCopies {
 public:
  // The program compiled from memory, shown as `shownAs`.
  void addProgram(std::string shownAs, std::string path);
  // A header `#include "name"` found.
  void addHeader(std::string name, std::string path);

  // The copy a module's file path stands for, or null: the program's for a path whose
  // last component is "<stdin>"; else the header whose include name is the path's last
  // components (lexically normalised; the longest name where several are).
  const SourceCopy* find(std::string_view modulePath) const;
  // The copy a user names: by how it is shown ("app.cl", "util.h") or by its include name
  // ("inc/util.h"); null when none is.
  const SourceCopy* named(std::string_view name) const;
  // The program's copy (added by addProgram), or null.
  const SourceCopy* program() const;
  bool empty() const { return copies_.empty(); }

 private:
  std::vector<SourceCopy> copies_;
};

}  // namespace spvsim::files
