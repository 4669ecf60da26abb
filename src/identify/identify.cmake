# Layout search and probe solver (include/swz/identify.hpp).
target_sources(swz PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/candidates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify.cpp
  ${CMAKE_CURRENT_LIST_DIR}/infer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/offset_search.cpp)
