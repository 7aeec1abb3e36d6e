# SPDX-License-Identifier: Apache-2.0
# Test helpers for the cute-cpp tree (not installed). Labels: cpu, compile, compile_fail, sass, gpu.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/CuteCppTargets.cmake)
include(GoogleTest)

# cuobjdump (with nvdisasm beside it) reads SASS; scripts/setup installs both from PyPI.
find_program(CUTE_CPP_CUOBJDUMP cuobjdump
             HINTS ${PROJECT_SOURCE_DIR}/.tools/py/nvidia/cu13/bin ${CUDAToolkit_BIN_DIR})

# nvcc invoked directly by compile and compile-fail cases, so they run in parallel under ctest.
set(CUTE_CPP_NVCC_TEST_COMMAND ${CMAKE_CUDA_COMPILER} -std=c++20 -x cu
    -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_BINARY_DIR}/kernels-include -I${PROJECT_SOURCE_DIR})

# The CPU tests are -Wall -Wextra clean with g++ and clang; CUTE_CPP_WERROR (scripts/test's clang
# pass) makes a warning an error.
option(CUTE_CPP_WERROR "CPU tests: warnings are errors" OFF)
# The CPU tests' own translation units build at CUTE_CPP_CPU_TEST_OPT whatever the build type: they
# check values, not speed, and -O3 cost twice -O1's compile time (three times -O0's) for nothing a
# test reads. The libraries they link keep the build type's flags. scripts/test's clang pass, under
# the sanitizers, sets -O0 (a third of -O1's compile time there) and builds the libraries at -O1.
set(CUTE_CPP_CPU_TEST_OPT -O1 CACHE STRING "optimization flag of the CPU tests' own sources")
function(cute_cpp_cpu_test_options target)
  # NOTE: g++ alone does not know CUDA's `#pragma unroll`, which the host-and-device headers
  # (tensor/, copy/) carry for nvcc; -Wunknown-pragmas would flag every such loop. g++ 12 at -O2
  # reports "literal" + std::string as a -Wrestrict overlap, a false positive (GCC bug 105329).
  set(gnu $<CXX_COMPILER_ID:GNU>)
  set(gnu12 $<AND:${gnu},$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${CUTE_CPP_CPU_TEST_OPT}>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra $<${gnu}:-Wno-unknown-pragmas> $<${gnu12}:-Wno-restrict>>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${CUTE_CPP_WERROR}>>:-Werror>)
endfunction()
# cute_cpp_cpu_test_computes(<target>): a CPU test whose checks compute for long (a numerics model
# over many cases) builds at -O1 at least: at -O0 under the sanitizers one such test took minutes.
function(cute_cpp_cpu_test_computes target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O1>)
endfunction()

# cute_cpp_cpu_tests builds every program the CPU tests compile with the host compiler, and label
# cxx marks the tests that run them: scripts/test's clang pass builds that target and runs
# `ctest -L '^cxx$'`, with no CUDA example or nvcc case.
if(NOT TARGET cute_cpp_cpu_tests)
  add_custom_target(cute_cpp_cpu_tests)
endif()

# cute_cpp_add_cpu_test(<name> <sources>...): a GoogleTest program, labels cpu and cxx. .cu sources
# are built through cute_cpp_add_kernels, so they follow the same target rules as kernels.
function(cute_cpp_add_cpu_test name)
  add_executable(${name})
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cu$")
      cute_cpp_add_kernels(${name} ${src})
    else()
      target_sources(${name} PRIVATE ${src})
    endif()
  endforeach()
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE cute_cpp::cute_cpp cute_cpp::kernels GTest::gtest_main)
  cute_cpp_cpu_test_options(${name})
  add_dependencies(cute_cpp_cpu_tests ${name})
  gtest_discover_tests(${name} PROPERTIES LABELS cpu DISCOVERY_TIMEOUT 60)
  # NOTE: CMake 3.25's gtest_discover_tests splits a list in PROPERTIES, so the second label is set
  # on the discovered tests (their TEST_LIST, ${name}_TESTS) by a file ctest reads after them.
  set(labels "${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake")
  file(WRITE "${labels}" "if(${name}_TESTS)\n"
                         "  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"cpu;cxx\")\n"
                         "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels}")
endfunction()

# cute_cpp_add_gpu_test(<name> <sources>...): a GoogleTest program that needs a GPU, label gpu.
# It is built for CUTE_CPP_ARCHS and run only by scripts/gpu-check (ctest -L gpu).
function(cute_cpp_add_gpu_test name)
  add_executable(${name})
  cute_cpp_add_kernels(${name} ${ARGN})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE cute_cpp::cute_cpp cute_cpp::kernels GTest::gtest_main)
  add_test(NAME gpu.${name} COMMAND ${name})
  set_tests_properties(gpu.${name} PROPERTIES LABELS gpu)
endfunction()

# Reads "// <key>: a b c" from a test source; empty when absent.
function(_cute_cpp_annotation text key out)
  string(REGEX MATCH "// ${key}: ([^\n]*)" _ "${text}")
  string(STRIP "${CMAKE_MATCH_1}" value)
  separate_arguments(value UNIX_COMMAND "${value}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(_cute_cpp_test_name src prefix out)
  file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}/tests" "${src}")
  string(REGEX REPLACE "\\.[^.]*$" "" rel "${rel}")
  string(REGEX REPLACE "[/.]" "." rel "${rel}")
  string(REGEX REPLACE "^${prefix}\\." "" rel "${rel}")
  set(${out} "${prefix}.${rel}" PARENT_SCOPE)
endfunction()

# cute_cpp_add_compile_fail_test(<src>): the case must fail to compile with a message matching
# its `// expected-error {{"regex"}}` annotation; a case that compiles, or fails for another
# reason, fails the test. `// cute-cpp-arch: 100a` picks the target (default 90a);
# `// cute-cpp-flags: -arch=sm_80` replaces the target flags outright.
function(cute_cpp_add_compile_fail_test src)
  get_filename_component(src "${src}" ABSOLUTE)
  file(READ "${src}" text)
  string(REGEX MATCH "expected-error {{\"([^\"]+)\"}}" _ "${text}")
  if(NOT CMAKE_MATCH_1)
    message(FATAL_ERROR "${src}: missing // expected-error {{\"regex\"}} annotation")
  endif()
  set(expected "${CMAKE_MATCH_1}")
  _cute_cpp_annotation("${text}" "cute-cpp-arch" arch)
  _cute_cpp_annotation("${text}" "cute-cpp-flags" flags)
  if(NOT flags)
    if(NOT arch)
      set(arch 90a)
    endif()
    cute_cpp_arch_flags(${arch} flags)
  endif()
  _cute_cpp_test_name("${src}" compile_fail name)
  add_test(NAME ${name}
           COMMAND ${CUTE_CPP_NVCC_TEST_COMMAND} ${flags} -c ${src}
                   -o ${CMAKE_CURRENT_BINARY_DIR}/${name}.o)
  set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expected}"
                       LABELS compile_fail)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
endfunction()

# cute_cpp_add_compile_test(<src>): the case must compile, once per target named in its
# `// cute-cpp-archs: 90a 100a 120a` annotation (default: all three).
function(cute_cpp_add_compile_test src)
  get_filename_component(src "${src}" ABSOLUTE)
  file(READ "${src}" text)
  _cute_cpp_annotation("${text}" "cute-cpp-archs" archs)
  if(NOT archs)
    set(archs ${CUTE_CPP_SUPPORTED_ARCHS})
  endif()
  _cute_cpp_test_name("${src}" compile base)
  foreach(arch IN LISTS archs)
    cute_cpp_arch_flags(${arch} flags)
    add_test(NAME ${base}.sm${arch}
             COMMAND ${CUTE_CPP_NVCC_TEST_COMMAND} ${flags} -c ${src}
                     -o ${CMAKE_CURRENT_BINARY_DIR}/${base}.sm${arch}.o)
    set_tests_properties(${base}.sm${arch} PROPERTIES LABELS compile)
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
endfunction()

# Every compile and compile-fail case under a folder, by file name pattern.
function(cute_cpp_add_compile_fail_tests_in dir)
  file(GLOB_RECURSE cases CONFIGURE_DEPENDS "${dir}/*.cu" "${dir}/*.cpp")
  foreach(c IN LISTS cases)
    cute_cpp_add_compile_fail_test(${c})
  endforeach()
endfunction()
function(cute_cpp_add_compile_tests_in dir)
  file(GLOB_RECURSE cases CONFIGURE_DEPENDS "${dir}/*.cu")
  foreach(c IN LISTS cases)
    cute_cpp_add_compile_test(${c})
  endforeach()
endfunction()

# cute_cpp_add_sass_test(<src>): compiles the case for the target of its `// cute-cpp-arch: 100a`
# line (default 90a), or for each target of a `// cute-cpp-archs: 90a 100a` line, and checks its
# SASS against each `// expect-sass: {{"regex"}}` (must match) and `// reject-sass: {{"regex"}}`
# (must not) line. Label sass.
function(cute_cpp_add_sass_test src)
  get_filename_component(src "${src}" ABSOLUTE)
  file(READ "${src}" text)
  _cute_cpp_annotation("${text}" "cute-cpp-archs" archs)
  _cute_cpp_annotation("${text}" "cute-cpp-arch" arch)
  _cute_cpp_test_name("${src}" sass base)
  # One test per target: named with a .sm<arch> suffix when the case lists several.
  set(suffixed TRUE)
  if(NOT archs)
    set(suffixed FALSE)
    set(archs ${arch})
    if(NOT archs)
      set(archs 90a)
    endif()
  endif()
  foreach(target_arch IN LISTS archs)
    set(name ${base})
    if(suffixed)
      set(name ${base}.sm${target_arch})
    endif()
    add_test(NAME ${name}
             COMMAND ${CMAKE_COMMAND} -DCUOBJDUMP=${CUTE_CPP_CUOBJDUMP} -DARCH=${target_arch}
                     -DANNOTATIONS=${src} -DSOURCE=${src} -DNVCC=${CMAKE_CUDA_COMPILER}
                     -DINCLUDE=${PROJECT_SOURCE_DIR}/include -DKERNELS_INCLUDE=${PROJECT_BINARY_DIR}/kernels-include
                     -DOBJECT=${CMAKE_CURRENT_BINARY_DIR}/${name}.o
                     -P ${PROJECT_SOURCE_DIR}/cmake/sass_check.cmake)
    set_tests_properties(${name} PROPERTIES LABELS sass)
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
endfunction()
function(cute_cpp_add_sass_tests_in dir)
  file(GLOB_RECURSE cases CONFIGURE_DEPENDS "${dir}/*.cu")
  foreach(c IN LISTS cases)
    cute_cpp_add_sass_test(${c})
  endforeach()
endfunction()
