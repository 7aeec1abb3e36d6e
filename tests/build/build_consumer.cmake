# SPDX-License-Identifier: Apache-2.0
# Configures and builds the consumer project against an installed cute-cpp (cmake -P).
file(REMOVE_RECURSE ${BINARY})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_PREFIX_PATH=${PREFIX}
                        "-DCUTE_CPP_ARCHS=90a;100a;120a" COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "consumer built against ${PREFIX}")
# The exported library from C: no GPU is needed for the bad call it makes.
execute_process(COMMAND ${BINARY}/use_from_c COMMAND_ERROR_IS_FATAL ANY)
# The installed kernels: the README's snippets, and the GEMM's C entry point where it was built.
execute_process(COMMAND ${BINARY}/use_kernels COMMAND_ERROR_IS_FATAL ANY)
if(EXISTS ${BINARY}/gemm_from_c)
  execute_process(COMMAND ${BINARY}/gemm_from_c COMMAND_ERROR_IS_FATAL ANY)
endif()
