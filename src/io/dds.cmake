target_sources(swz PRIVATE ${CMAKE_CURRENT_LIST_DIR}/dds.cpp)
