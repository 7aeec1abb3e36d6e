# SPDX-License-Identifier: Apache-2.0
# Compiles SRC with nvcc and fails when it takes more than BUDGET seconds; prints the time.
# Arguments: NVCC, FLAGS (;-list), INCLUDES (;-list of -I flags), SRC, OUT, BUDGET.
cmake_minimum_required(VERSION 3.25)
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${NVCC} -std=c++20 -x cu ${INCLUDES} ${FLAGS} -c ${SRC} -o ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP t1 "%s")
math(EXPR seconds "${t1} - ${t0}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "layout compile budget: the translation unit did not compile:\n${out}${err}")
endif()
message("layout compile budget: 500 static compositions and divides compiled in ${seconds} s with nvcc (budget ${BUDGET} s)")
if(seconds GREATER BUDGET)
  message(FATAL_ERROR "layout compile budget exceeded: ${seconds} s > ${BUDGET} s")
endif()
