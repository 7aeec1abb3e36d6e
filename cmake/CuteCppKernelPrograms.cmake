# SPDX-License-Identifier: Apache-2.0
# The kernels' own programs (not installed): their GPU checks (tests/gpu/<family>/) and their
# benchmarks (bench/<family>/, the programs that write the H200 records). Each leaves a manifest
# that scripts/gpu-check, scripts/build-report and scripts/run read:
#   <build>/tests/gpu/manifest/<name>.json  {name, family, binary, archs, sass, sass_kernels}
#   <build>/bench/manifest/<name>.json      {name, family, binary}
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/CuteCppTargets.cmake)

# cute_cpp_kernel_checks builds every check program; cute_cpp_benchmarks every benchmark.
add_custom_target(cute_cpp_kernel_checks)
add_custom_target(cute_cpp_benchmarks)
# The manifests are written anew at each configure: none is left behind for a program removed.
file(REMOVE_RECURSE ${PROJECT_BINARY_DIR}/tests/gpu/manifest ${PROJECT_BINARY_DIR}/bench/manifest)

# Targets among `wanted` (default: all of CUTE_CPP_ARCHS) that CUTE_CPP_ARCHS holds.
function(_cute_cpp_program_archs wanted out)
  set(archs "")
  foreach(arch IN LISTS CUTE_CPP_ARCHS)
    if(NOT wanted OR arch IN_LIST wanted)
      list(APPEND archs ${arch})
    endif()
  endforeach()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

# A JSON list of strings from a CMake list (backslashes escaped).
function(_cute_cpp_json_strings list out)
  set(items "")
  foreach(item IN LISTS list)
    string(REPLACE "\\" "\\\\" escaped "${item}")
    list(APPEND items "\"${escaped}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# The SASS checks of a program's kernels (tests <prefix>.<name>.sass.sm<arch>, label sass, with the
# tests on): each regex of `sass` in every kernel whose demangled name matches `sass_kernels`, no
# local memory anywhere; and the JSON forms of both lists for the program's manifest.
function(_cute_cpp_program_sass name prefix archs sass sass_kernels sass_json_out kernels_json_out)
  if(NOT sass_kernels)
    set(sass_kernels ".")
  endif()
  set(annotations "")
  foreach(regex IN LISTS sass)
    string(APPEND annotations "// expect-sass: {{\"${regex}\"}}\n")
  endforeach()
  string(APPEND annotations "// reject-sass: {{\"[ \\t](LDL|STL)[. ]\"}}\n")
  set(annotation_file ${CMAKE_CURRENT_BINARY_DIR}/${name}.sass-expect)
  file(WRITE ${annotation_file} "${annotations}")
  if(CUTE_CPP_BUILD_TESTS)
    foreach(arch IN LISTS archs)
      add_test(NAME ${prefix}.${name}.sass.sm${arch}
               COMMAND ${CMAKE_COMMAND} -DCUOBJDUMP=${CUTE_CPP_CUOBJDUMP} -DARCH=${arch}
                       -DANNOTATIONS=${annotation_file} -DBINARY=$<TARGET_FILE:${name}>
                       -P ${PROJECT_SOURCE_DIR}/cmake/sass_check.cmake)
      set_tests_properties(${prefix}.${name}.sass.sm${arch} PROPERTIES LABELS sass)
    endforeach()
  endif()
  _cute_cpp_json_strings("${sass}" sass_json)
  string(REPLACE "\\" "\\\\" kernels_json "${sass_kernels}")
  set(${sass_json_out} "${sass_json}" PARENT_SCOPE)
  set(${kernels_json_out} "${kernels_json}" PARENT_SCOPE)
endfunction()

# The program both kinds share: built for the targets among `targets` (default: every one) that
# CUTE_CPP_ARCHS holds, into <build>/<folder>, a dependency of `group`; `archs_out` gets those
# targets, empty (and nothing built) where there is none.
function(_cute_cpp_kernel_program name what group folder targets sources link archs_out)
  _cute_cpp_program_archs("${targets}" archs)
  set(${archs_out} "${archs}" PARENT_SCOPE)
  if(NOT archs)
    message(STATUS "cute-cpp: ${what} ${name} needs ${targets}; not built for ${CUTE_CPP_ARCHS}")
    return()
  endif()
  add_executable(${name})
  add_dependencies(${group} ${name})
  # Its sources for those targets alone (and its CUTE_CPP_TARGETS says so): a program of sm_90a
  # kernels built for sm_100a and sm_120a as well cost CI a third more compile time for nothing.
  set(CUTE_CPP_ARCHS "${archs}")
  cute_cpp_add_kernels(${name} ${sources})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE cute_cpp::kernels ${link})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/${folder})
endfunction()

# cute_cpp_add_kernel_check(<name> FAMILY <family> SOURCES <.cu>... [LINK <targets>...]
#                           [SASS <regex>...] [SASS_KERNELS <regex>] [TARGETS <arch>...])
# A self-checking GPU program of a kernel family, in <build>/tests/gpu/<family>/: ctest runs it
# (label gpu, on the H200 only), compute-sanitizer runs it with --small. It links the family's
# kernels, so its binary carries them: each SASS regex must appear in every kernel whose demangled
# name matches SASS_KERNELS (default: every kernel), and no kernel may use local memory (a test per
# target, label sass; the build report reads the same manifest). TARGETS: the targets the family's
# kernels exist for (default: every one); the program is left out when CUTE_CPP_ARCHS has none.
function(cute_cpp_add_kernel_check name)
  cmake_parse_arguments(arg "" "FAMILY;SASS_KERNELS" "SOURCES;LINK;SASS;TARGETS" ${ARGN})
  _cute_cpp_kernel_program(${name} check cute_cpp_kernel_checks tests/gpu/${arg_FAMILY} "${arg_TARGETS}"
                           "${arg_SOURCES}" "${arg_LINK}" archs)
  if(NOT archs)
    return()
  endif()
  _cute_cpp_program_sass(${name} kernel_check "${archs}" "${arg_SASS}" "${arg_SASS_KERNELS}" sass_json kernels_json)
  _cute_cpp_json_strings("${archs}" archs_json)
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/tests/gpu/manifest/${name}.json CONTENT
"{\"name\": \"${name}\", \"family\": \"${arg_FAMILY}\", \"binary\": \"$<TARGET_FILE:${name}>\", \"archs\": ${archs_json}, \"sass\": ${sass_json}, \"sass_kernels\": \"${kernels_json}\"}\n")

  if(CUTE_CPP_BUILD_TESTS)
    add_test(NAME kernel_check.${name} COMMAND ${name})
    set_tests_properties(kernel_check.${name} PROPERTIES LABELS gpu)
  endif()
endfunction()

# cute_cpp_add_kernel_bench(<name> FAMILY <family> SOURCES <.cu>... [LINK <targets>...] [TARGETS <arch>...]
#                           [SASS <regex>... [SASS_KERNELS <regex>]])
# A kernel family's benchmark, in <build>/bench/<family>/: `<name> --json FILE` times the family's
# kernels beside their references and writes the records scripts/gpu-check keeps. With SASS, the
# kernels it instantiates itself (candidate plans a sweep times) are SASS-checked as a check's are.
function(cute_cpp_add_kernel_bench name)
  cmake_parse_arguments(arg "" "FAMILY;SASS_KERNELS" "SOURCES;LINK;TARGETS;SASS" ${ARGN})
  _cute_cpp_kernel_program(${name} benchmark cute_cpp_benchmarks bench/${arg_FAMILY} "${arg_TARGETS}"
                           "${arg_SOURCES}" "${arg_LINK}" archs)
  if(NOT archs)
    return()
  endif()
  if(arg_SASS)
    _cute_cpp_program_sass(${name} kernel_bench "${archs}" "${arg_SASS}" "${arg_SASS_KERNELS}" sass_json kernels_json)
  endif()
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/bench/manifest/${name}.json CONTENT
"{\"name\": \"${name}\", \"family\": \"${arg_FAMILY}\", \"binary\": \"$<TARGET_FILE:${name}>\"}\n")
endfunction()
