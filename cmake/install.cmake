# Shared-library settings, installation and packages (find_package(swz),
# pkg-config swz). Included at the end of the top-level CMakeLists.txt, after
# every target exists.
#
# Components: lib (libswz.so / libswz.a's runtime part: the shared library),
# dev (headers, static library, CMake package, swz.pc, pattern data), cli (the
# swz command), python (the Python module). `cmake --install build` installs
# all of them; a component that was not built is skipped (OPTIONAL), so an
# install after building only the library works.
#
# Private dependencies: Highway, xsimd/xtl and nlohmann-json are compiled into
# swz and never exported; the Vulkan loader is linked privately. A static
# libswz.a needs the runtime libraries (libhwy.so.1, libvulkan.so.1) at link
# time: they are exported by absolute path of the runtime file (found in the
# runtime packages, not the -dev ones), so consumers need no -dev package and
# no find_package of them.

set(SWZ_LIBRARY_KIND static)
get_target_property(_swz_type swz TYPE)
if(_swz_type STREQUAL "SHARED_LIBRARY")
  set(SWZ_LIBRARY_KIND shared)
  # SONAME libswz.so.MAJOR.MINOR while the major version is 0 (no ABI promise
  # between 0.x releases), libswz.so.MAJOR from 1.0 on.
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(_swz_soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  else()
    set(_swz_soversion ${PROJECT_VERSION_MAJOR})
  endif()
  set_target_properties(swz PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${_swz_soversion}
    LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/libswz.map)
  # Export only the API (swz_* and namespace swz); see cmake/libswz.map.
  target_link_options(swz PRIVATE "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/libswz.map" "LINKER:--no-undefined")
  target_compile_definitions(swz PUBLIC SWZ_SHARED=1)
endif()

# The runtime file of an imported shared library target: <dir>/<SONAME>
# (libhwy.so.1, not the -dev package's libhwy.so). Empty when not found.
function(_swz_runtime_file target out)
  set(${out} "" PARENT_SCOPE)
  if(NOT TARGET ${target})
    return()
  endif()
  get_target_property(_type ${target} TYPE)
  if(NOT _type STREQUAL "SHARED_LIBRARY" AND NOT _type STREQUAL "UNKNOWN_LIBRARY")
    return()
  endif()
  get_target_property(_cfgs ${target} IMPORTED_CONFIGURATIONS)
  set(_loc "")
  set(_soname "")
  foreach(_cfg IN LISTS _cfgs)
    get_target_property(_loc ${target} IMPORTED_LOCATION_${_cfg})
    get_target_property(_soname ${target} IMPORTED_SONAME_${_cfg})
    if(_loc)
      break()
    endif()
  endforeach()
  if(NOT _loc)
    get_target_property(_loc ${target} IMPORTED_LOCATION)
  endif()
  if(NOT _loc)
    return()
  endif()
  get_filename_component(_dir "${_loc}" DIRECTORY)
  if(_soname AND EXISTS "${_dir}/${_soname}")
    set(${out} "${_dir}/${_soname}" PARENT_SCOPE)
    return()
  endif()
  get_filename_component(_real "${_loc}" REALPATH)
  get_filename_component(_name "${_real}" NAME)
  if(_name MATCHES "^(.+\\.so\\.[0-9]+)" AND EXISTS "${_dir}/${CMAKE_MATCH_1}")
    set(${out} "${_dir}/${CMAKE_MATCH_1}" PARENT_SCOPE)
  elseif(EXISTS "${_real}")
    set(${out} "${_real}" PARENT_SCOPE)
  endif()
endfunction()

# Rewrite swz's interface: every dependency but Threads becomes build-tree
# only; a static swz gets the runtime files of the shared ones instead.
get_target_property(_swz_iface swz INTERFACE_LINK_LIBRARIES)
set(_swz_new_iface "")
set(SWZ_PC_LIBS_PRIVATE "")
if(_swz_iface)
  foreach(_item IN LISTS _swz_iface)
    set(_dep "${_item}")
    if(_item MATCHES "^\\$<LINK_ONLY:(.+)>$")
      set(_dep "${CMAKE_MATCH_1}")
    endif()
    if(_dep STREQUAL "Threads::Threads" OR _item MATCHES "^\\$<(BUILD|INSTALL)_INTERFACE:")
      list(APPEND _swz_new_iface "${_item}")
      continue()
    endif()
    list(APPEND _swz_new_iface "$<BUILD_INTERFACE:${_item}>")
    if(SWZ_LIBRARY_KIND STREQUAL "static")
      _swz_runtime_file(${_dep} _file)
      if(_file)
        list(APPEND _swz_new_iface "$<INSTALL_INTERFACE:${_file}>")
        string(APPEND SWZ_PC_LIBS_PRIVATE " ${_file}")
      endif()
    endif()
  endforeach()
  set_target_properties(swz PROPERTIES INTERFACE_LINK_LIBRARIES "${_swz_new_iface}")
endif()
# A shared swz: private link dependencies stay out of the export entirely.
# Imported shared libraries (hwy::hwy) are linked by file, with their usage
# requirements copied, since the export would otherwise list the target in
# IMPORTED_LINK_DEPENDENT_LIBRARIES and consumers would need to find it.
if(SWZ_LIBRARY_KIND STREQUAL "shared")
  get_target_property(_swz_links swz LINK_LIBRARIES)
  set(_swz_new_links "")
  foreach(_item IN LISTS _swz_links)
    if(_item STREQUAL "Threads::Threads" OR _item MATCHES "^\\$<")
      list(APPEND _swz_new_links "${_item}")
      continue()
    endif()
    set(_file "")
    if(TARGET ${_item})
      get_target_property(_t ${_item} TYPE)
      if(_t STREQUAL "SHARED_LIBRARY")
        _swz_runtime_file(${_item} _file)
      endif()
    endif()
    if(_file)
      list(APPEND _swz_new_links "$<BUILD_INTERFACE:${_file}>")
      target_include_directories(swz SYSTEM PRIVATE $<TARGET_PROPERTY:${_item},INTERFACE_INCLUDE_DIRECTORIES>)
      target_compile_definitions(swz PRIVATE $<TARGET_PROPERTY:${_item},INTERFACE_COMPILE_DEFINITIONS>)
    else()
      list(APPEND _swz_new_links "$<BUILD_INTERFACE:${_item}>")
    endif()
  endforeach()
  set_target_properties(swz PROPERTIES LINK_LIBRARIES "${_swz_new_links}")
else()
  string(APPEND SWZ_PC_LIBS_PRIVATE " -lstdc++ -lm")
endif()
string(APPEND SWZ_PC_LIBS_PRIVATE " -pthread")
string(STRIP "${SWZ_PC_LIBS_PRIVATE}" SWZ_PC_LIBS_PRIVATE)
# swz.pc: a static-only package lists what libswz.a needs under Libs, so that
# `pkg-config --libs swz` links with or without --static; a shared one lists
# them under Libs.private.
if(SWZ_LIBRARY_KIND STREQUAL "static")
  set(SWZ_PC_LIBS " ${SWZ_PC_LIBS_PRIVATE}")
  set(SWZ_PC_LIBS_PRIVATE "")
else()
  set(SWZ_PC_LIBS "")
endif()

# Installed executables and the Python module find a shared libswz next to
# them in the prefix.
if(SWZ_LIBRARY_KIND STREQUAL "shared")
  if(TARGET swz_cli)
    file(RELATIVE_PATH _rel "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
    set_target_properties(swz_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${_rel}")
  endif()
  if(TARGET swz_python AND DEFINED SWZ_PYTHON_INSTALL_DIR AND NOT IS_ABSOLUTE "${SWZ_PYTHON_INSTALL_DIR}")
    file(RELATIVE_PATH _rel "/${SWZ_PYTHON_INSTALL_DIR}/swz" "/${CMAKE_INSTALL_LIBDIR}")
    set_target_properties(swz_python PROPERTIES INSTALL_RPATH "$ORIGIN/${_rel}")
  endif()
endif()

install(TARGETS swz EXPORT swzTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT lib)
install(DIRECTORY include/swz DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(DIRECTORY patterns/ DESTINATION ${CMAKE_INSTALL_DATADIR}/swz/patterns COMPONENT dev)
install(EXPORT swzTargets NAMESPACE swz:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/swz COMPONENT dev)
include(CMakePackageConfigHelpers)
configure_package_config_file(cmake/swzConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/swzConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/swz)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/swzConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/swzConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/swzConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/swz COMPONENT dev)

# pkg-config: relocatable (the prefix is found from the .pc file's folder, so
# cmake --install --prefix DIR works), unless the install dirs are absolute.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SWZ_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _rel "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" _rel "${_rel}")
  set(SWZ_PC_PREFIX "\${pcfiledir}/${_rel}")
endif()
foreach(_kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_kind}}")
    set(SWZ_PC_${_kind} "${CMAKE_INSTALL_${_kind}}")
  else()
    set(SWZ_PC_${_kind} "\${prefix}/${CMAKE_INSTALL_${_kind}}")
  endif()
endforeach()
# A shared libswz installed outside the linker's implicit directories gets
# -Wl,-rpath,${libdir} in Libs, so that a program linked through pkg-config
# runs without LD_LIBRARY_PATH. The choice is made at install time, when the
# prefix (cmake --install --prefix) is known: swz-rpath.pc is installed as
# swz.pc then.
set(SWZ_PC_RPATH "")
configure_file(cmake/swz.pc.in ${CMAKE_CURRENT_BINARY_DIR}/swz.pc @ONLY)
if(SWZ_LIBRARY_KIND STREQUAL "shared")
  set(SWZ_PC_RPATH " -Wl,-rpath,\${libdir}")
  configure_file(cmake/swz.pc.in ${CMAKE_CURRENT_BINARY_DIR}/swz-rpath.pc @ONLY)
  set(_swz_system_libdirs ${CMAKE_C_IMPLICIT_LINK_DIRECTORIES} ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES}
    ${CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES})
  list(REMOVE_DUPLICATES _swz_system_libdirs)
  install(CODE "
    set(_swz_libdir \"${CMAKE_INSTALL_LIBDIR}\")
    if(NOT IS_ABSOLUTE \"\${_swz_libdir}\")
      set(_swz_libdir \"\${CMAKE_INSTALL_PREFIX}/\${_swz_libdir}\")
    endif()
    get_filename_component(_swz_libdir \"\${_swz_libdir}\" ABSOLUTE)
    set(_swz_pc \"${CMAKE_CURRENT_BINARY_DIR}/swz-rpath.pc\")
    foreach(_swz_dir IN ITEMS ${_swz_system_libdirs})
      get_filename_component(_swz_dir \"\${_swz_dir}\" ABSOLUTE)
      if(_swz_dir STREQUAL _swz_libdir)
        set(_swz_pc \"${CMAKE_CURRENT_BINARY_DIR}/swz.pc\")
      endif()
    endforeach()
    file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\" TYPE FILE
         RENAME swz.pc FILES \"\${_swz_pc}\")
  " COMPONENT dev)
else()
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/swz.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endif()
