# SIMD kernels: Highway (runtime dispatch over targets) and xsimd.
# Included by the top-level CMakeLists.txt when SWZ_SIMD=ON.
# Debian 12: libhwy-dev 1.0.3, libxsimd-dev 8.1 (needs xtl-dev: xsimd's
# CMake target links a target named `xtl`, so find xtl first).
find_package(hwy QUIET)
find_package(xtl QUIET)
if(xtl_FOUND)
  find_package(xsimd QUIET)
endif()

if(NOT hwy_FOUND)
  message(WARNING "swz: Highway (libhwy-dev) not found; building without SIMD kernels")
elseif(NOT xsimd_FOUND)
  message(WARNING "swz: xsimd (libxsimd-dev + xtl-dev) not found; building without SIMD kernels")
else()
  message(STATUS "swz: SIMD kernels: Highway ${hwy_VERSION}, xsimd ${xsimd_VERSION}")
  target_sources(swz PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/highway_copy.cpp
    ${CMAKE_CURRENT_LIST_DIR}/xsimd_copy.cpp)
  target_link_libraries(swz PRIVATE hwy::hwy xsimd)
  # A static swz exports these link dependencies: find_package(swz) must find them.
  list(APPEND SWZ_CONFIG_DEPS hwy xtl xsimd)
  target_compile_definitions(swz PRIVATE SWZ_HAVE_SIMD=1)
  set(SWZ_HAVE_SIMD ON)

  if(SWZ_TESTS AND EXISTS ${PROJECT_SOURCE_DIR}/tests/test_simd.cpp)
    find_package(GTest REQUIRED)
    enable_testing()
    add_executable(swz_test_simd ${PROJECT_SOURCE_DIR}/tests/test_simd.cpp)
    target_link_libraries(swz_test_simd PRIVATE swz GTest::gtest_main hwy::hwy)  # the test calls Highway itself
    target_include_directories(swz_test_simd PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_compile_definitions(swz_test_simd PRIVATE SWZ_HAVE_SIMD=1)
    add_test(NAME swz_test_simd COMMAND swz_test_simd)
  endif()
endif()
