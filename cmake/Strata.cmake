# Helpers that let each pipeline stage own its folder: a module, its tests, its fuzzers and
# benchmarks are declared in their own CMakeLists.txt and picked up automatically.

set(STRATA_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Wunused -Woverloaded-virtual -Wimplicit-fallthrough)
if(STRATA_WERROR)
  list(APPEND STRATA_WARNINGS -Werror)
endif()

function(strata_warnings target)
  target_compile_options(${target} PRIVATE ${STRATA_WARNINGS})
endfunction()

# strata_module(<name> [DEPS targets...]) builds every .cpp of the current folder into the
# static library strata_<name>; headers are included as "<name>/header.hpp".
function(strata_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set_property(GLOBAL APPEND PROPERTY STRATA_MODULES strata_${name})
  if(NOT sources)  # a module of headers only (so far)
    add_library(strata_${name} INTERFACE)
    target_include_directories(strata_${name} INTERFACE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(strata_${name} INTERFACE ${ARG_DEPS} Threads::Threads)
    return()
  endif()
  add_library(strata_${name} STATIC ${sources})
  target_include_directories(strata_${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(strata_${name} PUBLIC ${ARG_DEPS} Threads::Threads)
  strata_warnings(strata_${name})
endfunction()

# strata_test(<name> [TIMEOUT seconds] [LIBS targets...]) builds every *_test.cpp of the current
# folder into one GoogleTest binary test_<name>, registered with ctest (TIMEOUT: each of its
# tests' limit, instead of ctest's --timeout). Tests find real data through the STRATA_SHARED
# environment variable or ../shared beside the checkout.
function(strata_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LIBS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
  if(NOT sources)
    return()
  endif()
  add_executable(test_${name} ${sources})
  target_link_libraries(test_${name} PRIVATE ${ARG_LIBS} strata_testing GTest::gtest_main GTest::gmock)
  strata_warnings(test_${name})
  set(timeout)
  if(ARG_TIMEOUT)
    set(timeout TIMEOUT ${ARG_TIMEOUT})
  endif()
  # TIMEOUT before ENVIRONMENT: gtest_discover_tests splits the ENVIRONMENT list into separate
  # arguments, so what follows it is not read as a property.
  gtest_discover_tests(test_${name} DISCOVERY_TIMEOUT 60
    PROPERTIES ${timeout}
    ENVIRONMENT "STRATA_SOURCE_DIR=${CMAKE_SOURCE_DIR};STRATA_BINARY_DIR=${CMAKE_BINARY_DIR}")
endfunction()

# strata_fuzzer(<name> <source> [LIBS targets...]) builds a libFuzzer target fuzz_<name>.
function(strata_fuzzer name source)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  add_executable(fuzz_${name} ${source})
  target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_${name} PRIVATE ${ARG_LIBS})
  set_property(GLOBAL APPEND PROPERTY STRATA_FUZZERS fuzz_${name})
endfunction()

# Adds every immediate subfolder of the current folder that has a CMakeLists.txt.
function(strata_add_subfolders)
  file(GLOB children RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT children)
  foreach(child ${children})
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()
