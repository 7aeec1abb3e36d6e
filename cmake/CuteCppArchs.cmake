# SPDX-License-Identifier: Apache-2.0
# The target gate: CUTE_CPP_ARCHS may hold only 90a, 100a and 120a, and each selected target
# maps to exactly one --generate-code flag (never -arch=sm_XXa, which adds a plain compute pass).
include_guard(GLOBAL)

set(CUTE_CPP_SUPPORTED_ARCHS 90a 100a 120a)

# Spells a user's entry as a target name for messages: "80" -> "sm_80", "sm_90" -> "sm_90".
function(_cute_cpp_target_name entry out)
  if(entry MATCHES "^(sm_|compute_)?([0-9]+[a-z]?)$")
    set(${out} "sm_${CMAKE_MATCH_2}" PARENT_SCOPE)
  else()
    set(${out} "'${entry}'" PARENT_SCOPE)
  endif()
endfunction()

# Normalises a list of entries ("90a", "sm_90a") to the canonical "90a" form, or stops
# configuration naming the first rejected target and listing the supported ones.
function(cute_cpp_validate_archs input out)
  set(result "")
  if(input STREQUAL "")
    message(FATAL_ERROR "cute-cpp [target.unsupported]: CUTE_CPP_ARCHS is empty; "
                        "supported targets: sm_90a (90a), sm_100a (100a), sm_120a (120a)")
  endif()
  foreach(entry IN LISTS input)
    string(STRIP "${entry}" entry)
    string(REGEX REPLACE "^sm_" "" canonical "${entry}")
    if(NOT canonical IN_LIST CUTE_CPP_SUPPORTED_ARCHS)
      _cute_cpp_target_name("${entry}" name)
      message(FATAL_ERROR "cute-cpp [target.unsupported]: CUTE_CPP_ARCHS names ${name}, which "
                          "cute-cpp does not support; supported targets: sm_90a (90a), "
                          "sm_100a (100a), sm_120a (120a)")
    endif()
    list(APPEND result "${canonical}")
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The default: the GPU seen at configure time if it is a supported target, else all three.
function(cute_cpp_default_archs out)
  set(result ${CUTE_CPP_SUPPORTED_ARCHS})
  find_program(_cute_cpp_nvidia_smi nvidia-smi)
  if(_cute_cpp_nvidia_smi)
    execute_process(COMMAND ${_cute_cpp_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND caps MATCHES "^([0-9]+)\\.([0-9])")
      set(found "${CMAKE_MATCH_1}${CMAKE_MATCH_2}a")
      if(found IN_LIST CUTE_CPP_SUPPORTED_ARCHS)
        set(result ${found})
      endif()
    endif()
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The nvcc flags that build one target; the only place that spells them.
function(cute_cpp_arch_flags arch out)
  set(${out} "--generate-code=arch=compute_${arch},code=sm_${arch}" PARENT_SCOPE)
endfunction()

# The target a file is dedicated to by its name (x_sm90.cu -> 90a), or "" for a generic file.
function(cute_cpp_file_arch src out)
  get_filename_component(stem "${src}" NAME_WE)
  if(stem MATCHES "_sm(90|100|120)$")
    set(${out} "${CMAKE_MATCH_1}a" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
