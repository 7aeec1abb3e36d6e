# SPDX-License-Identifier: Apache-2.0
# Compiles SRC with nvcc and records how long it took: CPU time (user + system of nvcc and its
# children) and wall time, beside the goal, in TIMES (JSON) for scripts/build-report. Fails only
# when SRC does not compile: the time is a figure for the build report, never a test result.
# Arguments: NVCC, FLAGS (;-list), INCLUDES (;-list of -I flags), SRC, OUT, GOAL (seconds of CPU
# time), WHAT (what SRC holds), TEST (this test's name), TIMES (the JSON file to write).
cmake_minimum_required(VERSION 3.25)
list(JOIN FLAGS " " flags)
list(JOIN INCLUDES " " includes)
string(TIMESTAMP t0 "%s")
execute_process(
  COMMAND bash -c "TIMEFORMAT='%3R %3U %3S'; { time ${NVCC} -std=c++20 -x cu ${includes} ${flags} -c ${SRC} -o ${OUT} 2>&1 ; } 2>&1"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
string(STRIP "${out}" out)
string(REGEX MATCH "([0-9]+)\\.([0-9]+) ([0-9]+)\\.([0-9]+) ([0-9]+)\\.([0-9]+)$" _ "${out}")
if(NOT rc EQUAL 0 OR "${CMAKE_MATCH_0}" STREQUAL "")
  message(FATAL_ERROR "${WHAT}: the translation unit did not compile:\n${out}")
endif()
# Milliseconds, from the seconds.milliseconds bash prints (CMake's math is integer only).
math(EXPR wall_ms "${CMAKE_MATCH_1} * 1000 + 1${CMAKE_MATCH_2} - 1000")
math(EXPR cpu_ms "(${CMAKE_MATCH_3} + ${CMAKE_MATCH_5}) * 1000 + 1${CMAKE_MATCH_4} + 1${CMAKE_MATCH_6} - 2000")
file(WRITE ${TIMES}
     "{\"what\": \"${WHAT}\", \"test\": \"${TEST}\", \"cpu_ms\": ${cpu_ms}, \"wall_ms\": ${wall_ms}, \"goal_s\": ${GOAL}}\n")
message("${WHAT}: ${cpu_ms} ms of CPU time, ${wall_ms} ms wall (goal: ${GOAL} s of CPU time; "
        "a figure for scripts/build-report, not a test result)")
