# SPDX-License-Identifier: Apache-2.0
# cute_cpp_add_example: one self-checking example program, its build-report manifest, and (with
# tests on) a SASS check per target: the intended instructions present, no local memory.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/CuteCppTargets.cmake)

# cute_cpp_examples builds every example and nothing else (scripts/run).
add_custom_target(cute_cpp_examples)
# The manifests are written anew at each configure, so a program that left examples/ (for
# tests/gpu or bench) leaves no manifest behind for scripts/gpu-check to run.
file(REMOVE_RECURSE ${PROJECT_BINARY_DIR}/examples/manifest)

# cute_cpp_add_example(<name> SOURCES <.cu>... SASS <regex>... [SASS_KERNELS <regex>] [TARGETS <arch>...])
# Each SASS regex must appear in the SASS of every kernel whose demangled name matches
# SASS_KERNELS (default: every kernel) in the build report, and in the binary for the test.
# TARGETS (default: every target in CUTE_CPP_ARCHS) are the targets the example's kernels exist
# for; the example is left out when CUTE_CPP_ARCHS has none of them.
function(cute_cpp_add_example name)
  cmake_parse_arguments(arg "" "SASS_KERNELS" "SOURCES;SASS;TARGETS" ${ARGN})
  set(archs ${CUTE_CPP_ARCHS})
  if(arg_TARGETS)
    set(archs "")
    foreach(arch IN LISTS arg_TARGETS)
      if(arch IN_LIST CUTE_CPP_ARCHS)
        list(APPEND archs ${arch})
      endif()
    endforeach()
    if(NOT archs)
      message(STATUS "cute-cpp: example ${name} needs ${arg_TARGETS}; not built for ${CUTE_CPP_ARCHS}")
      return()
    endif()
  endif()
  if(NOT arg_SASS_KERNELS)
    set(arg_SASS_KERNELS ".")
  endif()
  string(REPLACE "\\" "\\\\" kernels_json "${arg_SASS_KERNELS}")
  if(CUTE_CPP_EXAMPLE_PROGRAMS)
    add_executable(${name})
    add_dependencies(cute_cpp_examples ${name})
  else()
    add_executable(${name} EXCLUDE_FROM_ALL)
  endif()
  cute_cpp_add_kernels(${name} ${arg_SOURCES})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE cute_cpp::kernels)

  set(annotations "")
  set(expect_json "")
  foreach(regex IN LISTS arg_SASS)
    string(APPEND annotations "// expect-sass: {{\"${regex}\"}}\n")
    string(REPLACE "\\" "\\\\" escaped "${regex}")
    list(APPEND expect_json "\"${escaped}\"")
  endforeach()
  string(APPEND annotations "// reject-sass: {{\"[ \\t](LDL|STL)[. ]\"}}\n")
  set(annotation_file ${CMAKE_CURRENT_BINARY_DIR}/${name}.sass-expect)
  file(WRITE ${annotation_file} "${annotations}")

  list(JOIN expect_json ", " expect_json)
  list(TRANSFORM archs PREPEND "\"" OUTPUT_VARIABLE archs_json)
  list(TRANSFORM archs_json APPEND "\"")
  list(JOIN archs_json ", " archs_json)
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/examples/manifest/${name}.json CONTENT
"{\"name\": \"${name}\", \"binary\": \"$<TARGET_FILE:${name}>\", \"archs\": [${archs_json}], \"sass\": [${expect_json}], \"sass_kernels\": \"${kernels_json}\"}\n")

  if(CUTE_CPP_BUILD_TESTS)
    foreach(arch IN LISTS archs)
      add_test(NAME example.${name}.sass.sm${arch}
               COMMAND ${CMAKE_COMMAND} -DCUOBJDUMP=${CUTE_CPP_CUOBJDUMP} -DARCH=${arch}
                       -DANNOTATIONS=${annotation_file} -DBINARY=$<TARGET_FILE:${name}>
                       -P ${PROJECT_SOURCE_DIR}/cmake/sass_check.cmake)
      set_tests_properties(example.${name}.sass.sm${arch} PROPERTIES LABELS sass)
    endforeach()
    add_test(NAME example.${name}.check COMMAND ${name} --no-bench)
    set_tests_properties(example.${name}.check PROPERTIES LABELS gpu)
  endif()
endfunction()
