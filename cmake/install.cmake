# `cmake --install` and `cpack -G DEB` (docs/architecture.md, "Installed
# layout"). Components:
#   runtime  libshardbridge.so.N (the C API)            -> libshardbridge<N>.deb
#   dev      headers, static archives, libshardbridge.so,
#            CMake package, pkg-config files, .proto   -> libshardbridge-dev.deb
#   cli      the shardbridge command                   -> shardbridge.deb
include(CMakePackageConfigHelpers)

set(SB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/shardbridge)

# Headers: everything under include/shardbridge/ except what exposes
# protobuf's generated types, which are internal: the proto/pb/ folder, and
# any header that includes a generated `.pb.h` (before that folder existed
# these were proto/convert.h, proto/wire.h and proto/named_sharding_proto.h).
# The consumer tests compile every installed header against the installed
# tree alone, so a header that slips through fails them.
file(GLOB_RECURSE sb_public_headers CONFIGURE_DEPENDS
     RELATIVE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/include/shardbridge/*.h)
foreach(h ${sb_public_headers})
  if(h MATCHES "^shardbridge/proto/pb/")
    continue()
  endif()
  file(STRINGS ${PROJECT_SOURCE_DIR}/include/${h} sb_pb_includes REGEX "#include [<\"][^>\"]*\\.pb\\.h[>\"]")
  if(sb_pb_includes)
    continue()
  endif()
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/include/${h}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir} COMPONENT dev)
endforeach()

# The .proto files: the wire format, for consumers that generate their own
# bindings of it.
file(GLOB sb_install_protos CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/proto/*.proto)
install(FILES ${sb_install_protos} DESTINATION ${CMAKE_INSTALL_DATADIR}/shardbridge/proto
        COMPONENT dev)

# The C++ library: one static archive per floor, no ABI promise. They are
# exported as shardbridge::<floor target> and gathered by
# shardbridge::shardbridge, which consumers link.
get_property(sb_floors GLOBAL PROPERTY SB_FLOOR_TARGETS)
install(TARGETS ${sb_floors} shardbridge_lib EXPORT shardbridgeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

if(TARGET shardbridge_c)
  install(TARGETS shardbridge_c EXPORT shardbridgeTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
                  NAMELINK_COMPONENT dev)
endif()

install(TARGETS shardbridge RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)

install(EXPORT shardbridgeTargets NAMESPACE shardbridge:: DESTINATION ${SB_INSTALL_CMAKEDIR}
        COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/shardbridgeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/shardbridgeConfig.cmake
                              INSTALL_DESTINATION ${SB_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/shardbridgeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/shardbridgeConfig.cmake
              ${PROJECT_BINARY_DIR}/shardbridgeConfigVersion.cmake
        DESTINATION ${SB_INSTALL_CMAKEDIR} COMPONENT dev)

# pkg-config files, relocatable: the prefix is found from the file's own
# place, so any --prefix works.
file(RELATIVE_PATH sb_pc_to_prefix /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
string(REGEX REPLACE "/$" "" sb_pc_to_prefix "${sb_pc_to_prefix}")
set(SB_PC_PREFIX "\${pcfiledir}/${sb_pc_to_prefix}")
# Link order: a floor before the floors it depends on.
set(SB_PC_LIBS "")
foreach(floor sb_view sb_dump sb_module sb_convert sb_proto sb_proto_gen sb_hlo sb_sdy sb_base)
  if(TARGET ${floor})
    get_target_property(name ${floor} OUTPUT_NAME)
    string(APPEND SB_PC_LIBS " -l${name}")
  endif()
endforeach()
foreach(pc shardbridge shardbridge-c)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT dev)
endforeach()

# --- cpack -G DEB ---------------------------------------------------------------
set(CPACK_PACKAGE_NAME shardbridge)
set(CPACK_PACKAGE_VENDOR "shardbridge")
set(CPACK_PACKAGE_CONTACT "shardbridge maintainers <shardbridge@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Convert tensor shardings between Shardy (sdy) and XLA HloSharding, as OpenXLA does")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL runtime dev cli)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/shardbridge/shardbridge")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libshardbridge${SB_ABI_VERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "shardbridge C API: Shardy and XLA sharding conversions (shared library)")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libshardbridge-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "shardbridge headers, static C++ library, CMake package and pkg-config files")
# The static archives need protobuf's library at link time, and
# find_dependency(Protobuf) its headers (CMake's FindProtobuf requires only
# the library and the include dir; the exported targets name
# protobuf::libprotobuf, never protoc); the .so link needs the runtime
# package of the same build.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libshardbridge${SB_ABI_VERSION} (= ${PROJECT_VERSION}-1), libprotobuf-dev")
set(CPACK_DEBIAN_CLI_PACKAGE_NAME shardbridge)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_CLI_DESCRIPTION
    "shardbridge command: convert, list, explain and draw Shardy and XLA shardings")
include(CPack)
