# The Vulkan compute path (included from the top CMakeLists when SWZ_GPU=ON).
# Needs the Vulkan headers + loader and glslc; without them the GPU part is
# left out with a message and the CPU library builds as usual.
find_package(Vulkan QUIET)
find_program(SWZ_GLSLC glslc)
if(NOT Vulkan_FOUND OR NOT SWZ_GLSLC)
  message(STATUS "swz: GPU compute path disabled (Vulkan found: ${Vulkan_FOUND}; glslc: ${SWZ_GLSLC}). "
                 "Install libvulkan-dev and glslc, or pass -DSWZ_GPU=OFF to silence this.")
  set(SWZ_HAVE_GPU OFF)
  return()
endif()
message(STATUS "swz: GPU compute path enabled (glslc: ${SWZ_GLSLC})")
# Extra shader defines for benchmark variants (bench/bench_gpu.cpp), e.g.
# -DSWZ_GLSLC_DEFINES="-DBATCH=8"; empty for every build that ships.
set(SWZ_GLSLC_DEFINES "" CACHE STRING "Extra glslc -D flags for the swizzle shader (benchmark variants)")
separate_arguments(SWZ_GLSLC_DEFINES)
set(SWZ_HAVE_GPU ON)

set(_swz_gpu_dir ${CMAKE_CURRENT_LIST_DIR})
set(_swz_gpu_out ${CMAKE_CURRENT_BINARY_DIR}/generated/gpu)
file(MAKE_DIRECTORY ${_swz_gpu_out})
set(_swz_spv_files "")
foreach(_kind swizzle copy)
  foreach(_w 1 2 4 8 16)
    set(_spv ${_swz_gpu_out}/${_kind}_w${_w}.spv)
    add_custom_command(
      OUTPUT ${_spv}
      COMMAND ${SWZ_GLSLC} -O --target-env=vulkan1.1 -DWORD_BYTES=${_w} ${SWZ_GLSLC_DEFINES} -o ${_spv}
              ${_swz_gpu_dir}/shaders/${_kind}.comp
      DEPENDS ${_swz_gpu_dir}/shaders/${_kind}.comp
      COMMENT "glslc ${_kind}.comp (WORD_BYTES=${_w})"
      VERBATIM)
    list(APPEND _swz_spv_files ${_spv})
  endforeach()
endforeach()
# The host path's paired copy (16-byte words only).
set(_spv ${_swz_gpu_out}/copy2_w16.spv)
add_custom_command(
  OUTPUT ${_spv}
  COMMAND ${SWZ_GLSLC} -O --target-env=vulkan1.1 -o ${_spv} ${_swz_gpu_dir}/shaders/copy2.comp
  DEPENDS ${_swz_gpu_dir}/shaders/copy2.comp
  COMMENT "glslc copy2.comp"
  VERBATIM)
list(APPEND _swz_spv_files ${_spv})
set(_swz_spv_cpp ${_swz_gpu_out}/gpu_shaders.cpp)
add_custom_command(
  OUTPUT ${_swz_spv_cpp}
  COMMAND ${CMAKE_COMMAND} -DOUT=${_swz_spv_cpp} "-DINPUTS=${_swz_spv_files}" -DNAMESPACE=swz::gpu::detail
          -DFUNCTION=embedded_spirv -DKIND=spirv -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
  DEPENDS ${_swz_spv_files} ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
  COMMENT "Embedding SPIR-V"
  VERBATIM)

target_sources(swz PRIVATE
  ${_swz_gpu_dir}/gpu_plan.cpp
  ${_swz_gpu_dir}/context.cpp
  ${_swz_gpu_dir}/copy_pool.cpp
  ${_swz_spv_cpp})
# The loader is a private dependency (cmake/install.cmake links an installed
# static swz to the runtime libvulkan.so.1 by path); users of swz/gpu.hpp get
# the Vulkan headers.
target_link_libraries(swz PRIVATE Vulkan::Vulkan)
if(TARGET Vulkan::Headers)
  target_link_libraries(swz PUBLIC Vulkan::Headers)
else()
  target_include_directories(swz SYSTEM PUBLIC $<BUILD_INTERFACE:${Vulkan_INCLUDE_DIRS}>)
endif()
target_compile_definitions(swz PUBLIC SWZ_HAVE_GPU=1)

if(SWZ_BENCH)
  # The benchmark's plain-copy reference shader, as SPIR-V words to #include.
  set(_swz_plain_inc ${_swz_gpu_out}/bench_plain_copy.inc)
  add_custom_command(
    OUTPUT ${_swz_plain_inc}
    COMMAND ${SWZ_GLSLC} -O --target-env=vulkan1.1 -mfmt=num -o ${_swz_plain_inc} ${PROJECT_SOURCE_DIR}/bench/plain_copy.comp
    DEPENDS ${PROJECT_SOURCE_DIR}/bench/plain_copy.comp
    COMMENT "glslc bench/plain_copy.comp"
    VERBATIM)
  add_executable(swz_bench_gpu ${PROJECT_SOURCE_DIR}/bench/bench_gpu.cpp ${_swz_plain_inc})
  target_include_directories(swz_bench_gpu PRIVATE ${_swz_gpu_out} ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(swz_bench_gpu PRIVATE swz Vulkan::Vulkan)
  target_compile_options(swz_bench_gpu PRIVATE ${SWZ_WARN})
  set(_swz_plain2_inc ${_swz_gpu_out}/bench_plain_copy2.inc)
  add_custom_command(
    OUTPUT ${_swz_plain2_inc}
    COMMAND ${SWZ_GLSLC} -O --target-env=vulkan1.1 -mfmt=num -o ${_swz_plain2_inc} ${PROJECT_SOURCE_DIR}/bench/plain_copy2.comp
    DEPENDS ${PROJECT_SOURCE_DIR}/bench/plain_copy2.comp
    COMMENT "glslc bench/plain_copy2.comp"
    VERBATIM)
  add_executable(swz_bench_bus ${PROJECT_SOURCE_DIR}/bench/bus_duplex.cpp ${_swz_plain_inc} ${_swz_plain2_inc})
  target_include_directories(swz_bench_bus PRIVATE ${_swz_gpu_out})
  target_link_libraries(swz_bench_bus PRIVATE Vulkan::Vulkan)
endif()
