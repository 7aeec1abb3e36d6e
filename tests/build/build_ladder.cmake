# SPDX-License-Identifier: Apache-2.0
# Builds every program of the examples ladder (examples/<name>/ with its own CMakeLists.txt that
# finds the package) against an installed cute-cpp, as a user's project is built, for sm_90a (or
# the target its `# ladder-archs:` line names), and runs it: without a GPU (or another GPU than its
# target) each says so and exits 0 (cmake -P; SOURCE: examples/, BINARY, PREFIX).
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
  # A program for another target says so: `# ladder-archs: 100a` in its CMakeLists.txt.
  set(archs 90a)
  if(text MATCHES "# ladder-archs: ([0-9a-z]+)")
    set(archs ${CMAKE_MATCH_1})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir} -B ${BINARY}/${name} -DCMAKE_PREFIX_PATH=${PREFIX}
                          -DCUTE_CPP_ARCHS=${archs} COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY}/${name} COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${BINARY}/${name}/${name} COMMAND_ERROR_IS_FATAL ANY)
  math(EXPR built "${built} + 1")
endforeach()
if(built LESS 7)
  message(FATAL_ERROR "cute-cpp: the examples ladder has ${built} programs built against the install; 7 expected")
endif()
message(STATUS "the examples ladder: ${built} programs built against ${PREFIX}")
