// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a call throws: the text of its std::invalid_argument, or "no error"; and whether a call is
// refused with a named rule, as the GPU checks print it.
#include <cstdio>
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

/// Whether `call` throws std::invalid_argument naming [rule]; prints `refuses <what>: yes`, the
/// message of another error, or NO.
template <class F>
bool refuses(char const* what, char const* rule, F call) {
  std::string const error = error_of(call);
  bool const named = error.find(std::string("[") + rule + "]") != std::string::npos;
  std::printf("refuses %s: %s\n", what, named ? "yes" : error == "no error" ? "NO" : error.c_str());
  return named;
}

}  // namespace cute_cpp::test
