# SPDX-License-Identifier: Apache-2.0
# cute_cpp_add_kernels: the one way kernels are built, so every user gets the same target rules.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/CuteCppArchs.cmake)

set(CUTE_CPP_CUDA_COMMON_FLAGS -lineinfo -Xptxas=--warn-on-spills)

# NOTE: nvcc 13.0 with clang as its host compiler (-ccbin clang++) gives the members before a
# designated initializer's first designator 0 instead of their default member initializers, in
# constant expressions and in device code: GemmConfig{.block_n = 128} gets block_m = 0, and
# Tcgen05InstrDesc{.m = 128} a zero kind and types. Kernels are not built with such a pair;
# clang++ can still build the C++ targets (CMAKE_CXX_COMPILER) beside nvcc with g++.
function(_cute_cpp_check_cuda_host_compiler)
  set(key "${CMAKE_CUDA_COMPILER};${CMAKE_CUDA_COMPILER_VERSION};${CMAKE_CUDA_HOST_COMPILER}")
  if("$CACHE{_CUTE_CPP_CUDA_HOST_OK}" STREQUAL "${key}")
    return()
  endif()
  set(dir "${CMAKE_BINARY_DIR}/CMakeFiles/cute_cpp_host_probe")
  file(WRITE "${dir}/probe.cu" "struct S { int a = 1; int b = 2; };\nconstexpr S s{.b = 3};\n"
                               "static_assert(s.a == 1 && s.b == 3, \"S{.b = 3}.a must be 1\");\n")
  set(ccbin)
  if(CMAKE_CUDA_HOST_COMPILER)
    set(ccbin "-ccbin=${CMAKE_CUDA_HOST_COMPILER}")
  endif()
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" ${ccbin} -std=c++20 -c probe.cu -o probe.o
                  WORKING_DIRECTORY "${dir}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cute-cpp: nvcc ${CMAKE_CUDA_COMPILER_VERSION} with the host compiler "
            "'${CMAKE_CUDA_HOST_COMPILER}' drops the default member initializers before a designated "
            "initializer's first designator (S{.b = 3}.a is 0, in device code too), which breaks "
            "GemmConfig{...} plans and tcgen05 descriptors: build CUDA with g++ as the host compiler "
            "(leave CMAKE_CUDA_HOST_COMPILER unset). CMAKE_CXX_COMPILER may still be clang++.\n"
            "The probe ${dir}/probe.cu:\n${out}")
  endif()
  set(_CUTE_CPP_CUDA_HOST_OK "${key}" CACHE INTERNAL "nvcc and its host compiler keep default member initializers")
endfunction()

# cute_cpp_add_kernels(<target> <sources>...)
# Adds CUDA sources to <target> with one --generate-code flag per selected target:
# - a file named *_sm90.cu / *_sm100.cu / *_sm120.cu is built for that target alone, and left
#   out when that target is not in CUTE_CPP_ARCHS;
# - any other .cu file is built for every target in CUTE_CPP_ARCHS.
# The target gets CUTE_CPP_TARGETS="90a;100a" (what the binary carries, for the run-time check)
# and CUTE_CPP_HAS_SM90 / _SM100 / _SM120 for each target it carries.
function(cute_cpp_add_kernels target)
  if(NOT CUTE_CPP_ARCHS)
    message(FATAL_ERROR "cute-cpp: cute_cpp_add_kernels(${target}) needs CUTE_CPP_ARCHS; "
                        "find_package(cute_cpp) or the cute-cpp project sets it")
  endif()
  _cute_cpp_check_cuda_host_compiler()
  set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES OFF)
  foreach(src IN LISTS ARGN)
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${CMAKE_CURRENT_SOURCE_DIR}/${src}")
    endif()
    cute_cpp_file_arch("${src}" dedicated)
    if(dedicated)
      if(NOT dedicated IN_LIST CUTE_CPP_ARCHS)
        continue()
      endif()
      set(archs ${dedicated})
    else()
      set(archs ${CUTE_CPP_ARCHS})
    endif()
    set(flags ${CUTE_CPP_CUDA_COMMON_FLAGS})
    foreach(arch IN LISTS archs)
      cute_cpp_arch_flags(${arch} f)
      list(APPEND flags ${f})
    endforeach()
    target_sources(${target} PRIVATE "${src}")
    set_source_files_properties("${src}" TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${flags}")
  endforeach()
  string(REPLACE ";" "," targets_csv "${CUTE_CPP_ARCHS}")
  target_compile_definitions(${target} PRIVATE CUTE_CPP_TARGETS="${targets_csv}")
  foreach(arch IN LISTS CUTE_CPP_ARCHS)
    string(REGEX REPLACE "a$" "" num "${arch}")
    target_compile_definitions(${target} PRIVATE CUTE_CPP_HAS_SM${num}=1)
  endforeach()
  target_link_libraries(${target} PRIVATE cute_cpp::cute_cpp)
endfunction()
