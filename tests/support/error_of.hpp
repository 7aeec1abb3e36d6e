// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a call throws: the text of its std::invalid_argument, or "no error".
#include <stdexcept>
#include <string>

namespace cute_cpp::test {

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace cute_cpp::test
