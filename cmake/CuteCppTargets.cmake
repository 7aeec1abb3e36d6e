# SPDX-License-Identifier: Apache-2.0
# cute_cpp_add_kernels: the one way kernels are built, so every user gets the same target rules.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/CuteCppArchs.cmake)

set(CUTE_CPP_CUDA_COMMON_FLAGS -lineinfo -Xptxas=--warn-on-spills)

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
