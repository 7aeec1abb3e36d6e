// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// libFuzzer target: the TMA tensor-map argument checks (host) on arbitrary addresses, extents and
// strides of a rank-4 bf16 tensor. Each set is accepted or an error naming the rule; no overflow
// or other undefined behaviour on the way (UBSan).
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/smem/smem_tile.hpp>

#include <cuda_bf16.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::uint64_t words[8] = {};
  std::memcpy(words, data, size < sizeof words ? size : sizeof words);
  // Extents near the limits are as interesting as small ones: the top byte picks a scale.
  auto const value = [&](int i) { return words[i] >> (words[i] >> 58); };
  std::array<std::uint64_t, 4> const dims = {value(1), value(2), value(3), value(4)};
  std::array<std::uint64_t, 3> const strides = {value(5), value(6), value(7)};
  auto const* ptr = reinterpret_cast<void const*>(static_cast<std::uintptr_t>(words[0]));
  try {
    cute_cpp::host::check_tensor_map_arguments<__nv_bfloat16, cute_cpp::SmemKMajor<__nv_bfloat16, 16, 64>, 4>(
        ptr, dims, strides);
  } catch (std::invalid_argument const&) {
  }
  return 0;
}
