# SPDX-License-Identifier: Apache-2.0
# Compiles SRC with nvcc and fails when it takes more than BUDGET seconds of CPU time (user +
# system of nvcc and its children, so a loaded machine does not fail it); prints the times.
# Arguments: NVCC, FLAGS (;-list), INCLUDES (;-list of -I flags), SRC, OUT, BUDGET.
cmake_minimum_required(VERSION 3.25)
list(JOIN FLAGS " " flags)
list(JOIN INCLUDES " " includes)
string(TIMESTAMP t0 "%s")
execute_process(
  COMMAND bash -c "TIMEFORMAT='%3U %3S'; { time ${NVCC} -std=c++20 -x cu ${includes} ${flags} -c ${SRC} -o ${OUT} 2>&1 ; } 2>&1"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
string(TIMESTAMP t1 "%s")
math(EXPR wall "${t1} - ${t0}")
string(STRIP "${out}" out)
string(REGEX MATCH "([0-9]+)\\.[0-9]+ ([0-9]+)\\.[0-9]+$" _ "${out}")
if(NOT rc EQUAL 0 OR NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "layout compile budget: the translation unit did not compile:\n${out}")
endif()
math(EXPR cpu "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
message("layout compile budget: 500 static compositions and divides compiled with nvcc in ${cpu} s of CPU time (${wall} s wall; budget ${BUDGET} s)")
if(cpu GREATER BUDGET)
  message(FATAL_ERROR "layout compile budget exceeded: ${cpu} s > ${BUDGET} s")
endif()
