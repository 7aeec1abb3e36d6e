# SPDX-License-Identifier: Apache-2.0
# cmake -P script: runs tools/gen_ctm.py into OUT and compares each file it writes with the
# committed copy in COMMITTED. -DPYTHON= -DGENERATOR= -DCOMMITTED= -DOUT=
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${PYTHON} ${GENERATOR} ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/gen_ctm.py failed (${rc}): ${err}")
endif()
file(GLOB generated RELATIVE "${OUT}" "${OUT}/*.hpp")
if(NOT generated)
  message(FATAL_ERROR "tools/gen_ctm.py wrote nothing into ${OUT}")
endif()
set(stale "")
foreach(name IN LISTS generated)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUT}/${name}" "${COMMITTED}/${name}"
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    list(APPEND stale "${name}")
  endif()
endforeach()
if(stale)
  message(FATAL_ERROR "cute-cpp [ctm.generated]: include/ctm/generated is stale or hand-edited: ${stale}; "
                      "run python3 tools/gen_ctm.py and commit the result")
endif()
list(LENGTH generated n)
message(STATUS "include/ctm/generated: ${n} files match tools/gen_ctm.py")
