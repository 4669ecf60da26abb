# Hardware layout families (include/swz/vendor.hpp, include/swz/canonicalize.hpp): pattern
# data in patterns/vendor/*.json is embedded through SWZ_EMBED_JSON.
target_sources(swz PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/adreno.cpp
  ${CMAKE_CURRENT_LIST_DIR}/amd_gfx9_mips.cpp
  ${CMAKE_CURRENT_LIST_DIR}/amd_mips.cpp
  ${CMAKE_CURRENT_LIST_DIR}/canonicalize.cpp
  ${CMAKE_CURRENT_LIST_DIR}/consoles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data.cpp
  ${CMAKE_CURRENT_LIST_DIR}/families.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nvidia.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mali.cpp
  ${CMAKE_CURRENT_LIST_DIR}/xbox360.cpp)
