# The C API (include/swz/swz.h) and the whole-surface calls it forwards to
# (include/swz/surface.hpp). Included from the top-level CMakeLists.txt.
target_sources(swz PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/swz_c.cpp
  ${CMAKE_CURRENT_LIST_DIR}/swz_c_copy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/swz_c_clear.cpp
  ${CMAKE_CURRENT_LIST_DIR}/swz_c_decode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/swz_c_identify.cpp
  ${PROJECT_SOURCE_DIR}/src/core/surface.cpp)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/swz_c.cpp ${CMAKE_CURRENT_LIST_DIR}/swz_c_copy.cpp PROPERTIES
  COMPILE_DEFINITIONS "SWZ_VERSION_STRING=\"${PROJECT_VERSION}\";SWZ_BUILDING_LIBRARY=1")
