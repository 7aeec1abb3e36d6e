// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// create_tensor_map_tiled<T, SmemLayout>: encodes a TensorMap for a global tensor of rank 2 to 5
// through the driver's cuTensorMapEncodeTiled (found with cudaGetDriverEntryPointByVersion, so no
// link against libcuda). The box and swizzle come from the shared layout type; bad arguments are
// std::invalid_argument with the rule id. CuTeDSL: cpasync.make_tiled_tma_atom (host half).
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/tensor_map_cache.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cute_cpp::host {

namespace detail {

template <class T>
constexpr CUtensorMapDataType tma_data_type() {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  else if constexpr (std::is_same_v<T, __half>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  else if constexpr (std::is_same_v<T, float>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  else if constexpr (std::is_same_v<T, double>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return CU_TENSOR_MAP_DATA_TYPE_INT32;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  else if constexpr (sizeof(T) == 1) return CU_TENSOR_MAP_DATA_TYPE_UINT8;  // int8, uint8, fp8: bytes
  else static_assert(sizeof(T) == 0, "cute-cpp [tma.element-type]: no TMA data type for this element type");
}

constexpr CUtensorMapSwizzle tma_swizzle(int bytes) {
  return bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
         : bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
         : bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                       : CU_TENSOR_MAP_SWIZZLE_NONE;
}

/// cuMemGetAddressRange from the driver, looked up once; null when the driver has none.
inline PFN_cuMemGetAddressRange_v3020 address_range_entry_point() {
  static PFN_cuMemGetAddressRange_v3020 const entry = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &status) !=
            cudaSuccess ||
        status != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      fn = nullptr;
    }
    return reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(fn);
  }();
  return entry;
}

inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_entry_point() {
  static PFN_cuTensorMapEncodeTiled_v12000 entry = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult status{};
    cuda_check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &status),
               "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (status != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("cute-cpp [tma.encode]: the driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return entry;
}

}  // namespace detail

/// The argument checks of create_tensor_map_tiled, without the driver: throws
/// std::invalid_argument naming the rule. dims[0] is the contiguous extent; byte_strides[i] is
/// the stride of dimension i + 1.
template <class T, class SmemLayout, std::size_t Rank>
void check_tensor_map_arguments(void const* ptr, std::array<std::uint64_t, Rank> const& dims,
                                std::array<std::uint64_t, Rank - 1> const& byte_strides) {
  using tile = SmemTile<T, SmemLayout>;
  static_assert(Rank >= 2 && Rank <= 5, "cute-cpp [tma.rank]: TMA tensors have rank 2 to 5");
  auto const address = reinterpret_cast<std::uintptr_t>(ptr);
  if (address % 16 != 0)
    argument_error("tma.global.address", "the tensor's address must be 16-byte aligned (got address % 16 = " +
                                             std::to_string(address % 16) + ")");
  for (std::size_t i = 0; i < Rank; ++i) {
    if (dims[i] == 0 || dims[i] > (std::uint64_t{1} << 32))
      argument_error("tma.global.extent",
                     "extent " + std::to_string(i) + " must be in 1..2^32 (got " + std::to_string(dims[i]) + ")");
  }
  for (std::size_t i = 0; i + 1 < Rank; ++i) {
    if (byte_strides[i] % 16 != 0)
      argument_error("tma.global.stride", "every stride must be a multiple of 16 bytes (stride " +
                                              std::to_string(i + 1) + " is " + std::to_string(byte_strides[i]) +
                                              " bytes); for a 2-byte type the leading dimension must be "
                                              "a multiple of 8 elements");
    if (byte_strides[i] >= (std::uint64_t{1} << 40))
      argument_error("tma.global.stride", "every stride must be below 2^40 bytes");
  }
  if (byte_strides[0] < dims[0] * sizeof(T))
    argument_error("tma.global.stride", "the leading dimension (" + std::to_string(byte_strides[0] / sizeof(T)) +
                                            ") is smaller than the contiguous extent (" + std::to_string(dims[0]) +
                                            ")");
  (void)tile::bytes;
}

/// Debug builds (no NDEBUG): the tensor's last element must lie in the same device allocation as
/// its first, so a descriptor never reaches past the buffer it was built for
/// ([tma.global.allocation]). Memory the driver does not know (host memory, no GPU) is skipped.
template <class T, std::size_t Rank>
void check_tensor_in_allocation(T const* ptr, std::array<std::uint64_t, Rank> const& dims,
                                std::array<std::uint64_t, Rank - 1> const& byte_strides) {
#if defined(NDEBUG)
  (void)ptr;
  (void)dims;
  (void)byte_strides;
#else
  PFN_cuMemGetAddressRange_v3020 const address_range = detail::address_range_entry_point();
  if (address_range == nullptr) return;
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (address_range(&base, &size, reinterpret_cast<CUdeviceptr>(ptr)) != CUDA_SUCCESS) return;
  std::uint64_t last = (dims[0] - 1) * sizeof(T);
  for (std::size_t i = 1; i < Rank; ++i) last += (dims[i] - 1) * byte_strides[i - 1];
  std::uint64_t const end = reinterpret_cast<std::uint64_t>(ptr) + last + sizeof(T);
  if (end > base + size)
    argument_error("tma.global.allocation", "the tensor ends " + std::to_string(end - (base + size)) +
                                                " bytes past the device allocation its pointer lies in (" +
                                                std::to_string(size) + " bytes)");
#endif
}

/// Encodes a TensorMap for a rank-R global tensor of T at `ptr`, dims[0] contiguous. The calling
/// thread's last descriptors of these types are cached (TensorMapCache): the same arguments again
/// encode nothing.
template <class T, class SmemLayout, std::size_t Rank>
TensorMap<T, SmemLayout> create_tensor_map_tiled(T const* ptr, std::array<std::uint64_t, Rank> const& dims,
                                                 std::array<std::uint64_t, Rank - 1> const& byte_strides) {
  using tile = SmemTile<T, SmemLayout>;
  check_tensor_map_arguments<T, SmemLayout, Rank>(ptr, dims, byte_strides);
  check_tensor_in_allocation<T, Rank>(ptr, dims, byte_strides);
  TensorMap<T, SmemLayout> out;
  static_assert(sizeof(out.opaque) == sizeof(CUtensorMap));
  TensorMapKey key{ptr, std::uint32_t(Rank), {}, {}};
  std::copy(dims.begin(), dims.end(), key.dims.begin());
  std::copy(byte_strides.begin(), byte_strides.end(), key.byte_strides.begin());
  thread_local TensorMapCache<sizeof(CUtensorMap)> cache;
  cache.find_or_encode(key, out.opaque, [&](std::byte(&bytes)[sizeof(CUtensorMap)]) {
    std::array<cuuint32_t, Rank> box{};
    std::array<cuuint32_t, Rank> element_strides{};
    box.fill(1);
    element_strides.fill(1);
    box[0] = tile::box_inner;
    box[1] = tile::box_outer;
    CUtensorMap map{};
    CUresult const result = detail::encode_tiled_entry_point()(
        &map, detail::tma_data_type<T>(), Rank, const_cast<T*>(ptr), dims.data(), byte_strides.data(), box.data(),
        element_strides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE, detail::tma_swizzle(tile::swizzle_bytes),
        // NOTE: L2 fetches 128 bytes per miss: faster than 256-byte or no promotion for the GEMM's
        // K-major tiles of 128-byte rows (kernels/gemm/README.md).
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
      throw std::runtime_error("cute-cpp [tma.encode]: cuTensorMapEncodeTiled failed with CUresult " +
                               std::to_string(static_cast<int>(result)));
    std::memcpy(bytes, &map, sizeof map);
  });
  return out;
}

/// The 2-D form: a rows x cols matrix whose rows are `ld` elements apart (cols contiguous).
template <class T, class SmemLayout>
TensorMap<T, SmemLayout> create_tensor_map_tiled(T const* ptr, std::uint64_t rows, std::uint64_t cols,
                                                 std::uint64_t ld) {
  return create_tensor_map_tiled<T, SmemLayout, 2>(ptr, {cols, rows}, {ld * sizeof(T)});
}

}  // namespace cute_cpp::host
