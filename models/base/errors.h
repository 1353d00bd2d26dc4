// Error types shared by every dse library.
//
// Contract: library code never prints and never exits; it throws. `UserError` (and subclasses)
// means the input was wrong — `main` prints the message and exits 2. Anything else that escapes is
// an internal error — exit 1. Messages of user errors start with the place that is wrong
// ("FILE:LINE:COL: key.path: ..." or "FILE: ...") so that a user can go straight to it.
#pragma once

#include <stdexcept>
#include <string>

namespace dse {

class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace dse
