# sb_add_floor(TARGET DIR [DEPS...]): the floor DIR from src/DIR/*.cc (and
# subfolders), public headers under include/. Skipped while DIR has no sources.
#
# Each floor is compiled once, as the position-independent OBJECT library
# TARGET_obj; its objects make both the static archive TARGET (what the
# tests, the CLI and the installed C++ package link) and, through
# sb_floor_objects, the shared C library and the Python module. DEPS are
# other floors (or sb_proto_gen); TARGET_obj takes their usage requirements
# (include dirs, protobuf) from DEPS_obj, TARGET links DEPS.
function(sb_add_floor target dir)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.cc)
  if(NOT srcs)
    return()
  endif()
  add_library(${target}_obj OBJECT ${srcs})
  set_target_properties(${target}_obj PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # Unity batches halve a floor's compile time (parsing the standard and
  # protobuf headers again per file was most of it). The floors in
  # SB_PER_FILE_FLOORS stay one translation unit per file in the release
  # build: batched, the module floor's pipelines ran 3-5 % more instructions
  # and proto's fromProto of a V2 partial-replicate 4 % more, while the other
  # floors' benchmarks did not move (docs/development.md, "Tests").
  if(SB_UNITY_FLOORS GREATER 0 AND NOT dir IN_LIST SB_PER_FILE_FLOORS)
    set_target_properties(${target}_obj PROPERTIES UNITY_BUILD ON
                                                   UNITY_BUILD_BATCH_SIZE ${SB_UNITY_FLOORS})
  endif()
  target_include_directories(${target}_obj PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                            PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${target}_obj PRIVATE ${SB_WARNINGS})
  target_link_libraries(${target}_obj PUBLIC Threads::Threads)

  add_library(${target} STATIC $<TARGET_OBJECTS:${target}_obj>)
  # Installed as lib/libshardbridge_<floor>.a.
  set_target_properties(${target} PROPERTIES OUTPUT_NAME shardbridge_${dir})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  foreach(dep ${ARGN})
    if(TARGET ${dep})
      target_link_libraries(${target}_obj PUBLIC ${dep}_obj)
      target_link_libraries(${target} PUBLIC ${dep})
    endif()
  endforeach()
  target_link_libraries(${target} PUBLIC Threads::Threads)
  set_property(GLOBAL APPEND PROPERTY SB_FLOOR_TARGETS ${target})
endfunction()

# sb_floor_objects(VAR): the object files of every floor added so far, in
# dependency order, for a library that bundles them all.
function(sb_floor_objects var)
  get_property(floors GLOBAL PROPERTY SB_FLOOR_TARGETS)
  set(objs "")
  foreach(floor ${floors})
    list(APPEND objs $<TARGET_OBJECTS:${floor}_obj>)
  endforeach()
  set(${var} ${objs} PARENT_SCOPE)
endfunction()
