// The one exception type of spvsim: a diagnostic kind from src/DESIGN.md plus a message.
// Thrown for bad input (modules, arguments), never on the execution hot path.
#pragma once

#include <stdexcept>
#include <string>

namespace spvsim {

class Error : public std::runtime_error {
 public:
  Error(std::string kind, const std::string& message)
      : std::runtime_error(message), kind_(std::move(kind)) {}
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_;
};

}  // namespace spvsim
