# SPDX-License-Identifier: Apache-2.0
# Builds every program of the examples ladder (examples/<name>/ with its own CMakeLists.txt that
# finds the package) against an installed cute-cpp, as a user's project is built, for sm_90a,
# and runs it: without a GPU each says so and exits 0 (cmake -P; SOURCE: examples/, BINARY, PREFIX).
file(GLOB projects LIST_DIRECTORIES false ${SOURCE}/*/CMakeLists.txt)
set(built 0)
foreach(project IN LISTS projects)
  file(READ ${project} text)
  if(NOT text MATCHES "find_package\\(cute_cpp")
    continue()
  endif()
  get_filename_component(dir ${project} DIRECTORY)
  get_filename_component(name ${dir} NAME)
  file(REMOVE_RECURSE ${BINARY}/${name})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir} -B ${BINARY}/${name} -DCMAKE_PREFIX_PATH=${PREFIX}
                          -DCUTE_CPP_ARCHS=90a COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY}/${name} COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${BINARY}/${name}/${name} COMMAND_ERROR_IS_FATAL ANY)
  math(EXPR built "${built} + 1")
endforeach()
if(built LESS 6)
  message(FATAL_ERROR "cute-cpp: the examples ladder has ${built} programs built against the install; 6 expected")
endif()
message(STATUS "the examples ladder: ${built} programs built against ${PREFIX}")
