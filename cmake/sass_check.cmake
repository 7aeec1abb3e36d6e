# SPDX-License-Identifier: Apache-2.0
# cmake -P script: checks a target's SASS for the instructions a file's annotations name.
#   -DCUOBJDUMP=<cuobjdump> -DARCH=90a -DANNOTATIONS=<file with // expect-sass / reject-sass lines>
#   and either -DBINARY=<object or executable> or -DSOURCE=<.cu> -DNVCC=<nvcc> -DINCLUDE=<dir> -DOBJECT=<out.o>
#   [-DKERNELS_INCLUDE=<dir>] (where <cute_cpp/kernels/...> resolves: a case that instantiates a kernel)
if(NOT CUOBJDUMP OR NOT EXISTS "${CUOBJDUMP}")
  message(FATAL_ERROR "cute-cpp [build.cuobjdump]: cuobjdump not found; run scripts/setup "
                      "(it installs nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm from PyPI)")
endif()
if(SOURCE)
  set(kernels_include "")
  if(KERNELS_INCLUDE)
    set(kernels_include -I${KERNELS_INCLUDE})
  endif()
  execute_process(COMMAND ${NVCC} -std=c++20 -x cu -I${INCLUDE} -I${INCLUDE}/.. ${kernels_include}
                          --generate-code=arch=compute_${ARCH},code=sm_${ARCH} -c ${SOURCE} -o ${OBJECT}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compiling ${SOURCE} for sm_${ARCH} failed:\n${err}")
  endif()
  set(BINARY ${OBJECT})
endif()
get_filename_component(tools "${CUOBJDUMP}" DIRECTORY)
set(ENV{PATH} "${tools}:$ENV{PATH}")  # cuobjdump runs nvdisasm from PATH
execute_process(COMMAND ${CUOBJDUMP} -arch sm_${ARCH} -sass ${BINARY}
                OUTPUT_VARIABLE sass ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT sass MATCHES "Function")
  message(FATAL_ERROR "cuobjdump -arch sm_${ARCH} -sass ${BINARY} gave no SASS (${rc}): ${err}")
endif()
file(READ "${ANNOTATIONS}" text)
string(REGEX MATCHALL "// (expect|reject)-sass: {{\"[^\"]+\"}}" lines "${text}")
if(NOT lines)
  message(FATAL_ERROR "${ANNOTATIONS}: no // expect-sass: {{\"regex\"}} annotation")
endif()
set(failures "")
foreach(line IN LISTS lines)
  string(REGEX MATCH "// (expect|reject)-sass: {{\"([^\"]+)\"}}" _ "${line}")
  set(kind ${CMAKE_MATCH_1})
  set(regex "${CMAKE_MATCH_2}")
  if(kind STREQUAL "expect" AND NOT sass MATCHES "${regex}")
    string(APPEND failures "  missing on sm_${ARCH}: ${regex}\n")
  elseif(kind STREQUAL "reject" AND sass MATCHES "${regex}")
    string(APPEND failures "  present on sm_${ARCH} but must not be: ${regex} (${CMAKE_MATCH_0})\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "cute-cpp [build.sass]: ${BINARY}:\n${failures}")
endif()
message(STATUS "sm_${ARCH}: SASS of ${BINARY} matches ${ANNOTATIONS}")
