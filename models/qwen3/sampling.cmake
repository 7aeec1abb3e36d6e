# SPDX-License-Identifier: Apache-2.0
# models/qwen3/sampling.cmake, included by models/CMakeLists.txt: on-device token sampling for the
# Qwen3 decoder (greedy; temperature, top-k, top-p), a static library of plain CUDA kernels built for
# every target in CUTE_CPP_ARCHS, and its GPU test gpu_qwen3_sampling_test. The test's binary goes
# to <build>/tests/gpu beside the other GPU tests, where scripts/gpu-check finds them.
if("90a" IN_LIST CUTE_CPP_ARCHS)
  add_library(cute_cpp_qwen3_sampling STATIC)
  cute_cpp_add_kernels(cute_cpp_qwen3_sampling ${CMAKE_CURRENT_LIST_DIR}/sampling.cu)
  target_include_directories(cute_cpp_qwen3_sampling PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(cute_cpp_qwen3_sampling PUBLIC cute_cpp::cute_cpp)  # sampling.hpp includes cute_cpp/config.hpp

  if(CUTE_CPP_BUILD_TESTS)
    cute_cpp_add_gpu_test(gpu_qwen3_sampling_test ${CMAKE_CURRENT_LIST_DIR}/sampling_test.cu)
    target_link_libraries(gpu_qwen3_sampling_test PRIVATE cute_cpp_qwen3_sampling)
    set_target_properties(gpu_qwen3_sampling_test PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/gpu)
  endif()
endif()
