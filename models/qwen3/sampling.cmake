# SPDX-License-Identifier: Apache-2.0
# models/qwen3/sampling.cmake, included by models/CMakeLists.txt: on-device token sampling for the
# Qwen3 decoder (greedy; temperature, top-k, top-p), a static library of plain CUDA kernels built for
# every target in CUTE_CPP_ARCHS (its GPU test: tests/gpu/qwen3_sampling_test.cu).
if("90a" IN_LIST CUTE_CPP_ARCHS)
  add_library(cute_cpp_qwen3_sampling STATIC)
  cute_cpp_add_kernels(cute_cpp_qwen3_sampling ${CMAKE_CURRENT_LIST_DIR}/sampling.cu)
  target_include_directories(cute_cpp_qwen3_sampling PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(cute_cpp_qwen3_sampling PUBLIC cute_cpp::cute_cpp)  # sampling.hpp includes cute_cpp/config.hpp
endif()
