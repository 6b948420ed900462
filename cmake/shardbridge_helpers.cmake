# sb_add_floor(TARGET DIR [DEPS...]): a static library from src/DIR/*.cc (and
# subfolders), public headers under include/. Skipped while DIR has no sources.
function(sb_add_floor target dir)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.cc)
  if(NOT srcs)
    return()
  endif()
  add_library(${target} STATIC ${srcs})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/include
                                        PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${target} PRIVATE ${SB_WARNINGS})
  foreach(dep ${ARGN})
    if(TARGET ${dep})
      target_link_libraries(${target} PUBLIC ${dep})
    endif()
  endforeach()
  target_link_libraries(${target} PUBLIC Threads::Threads)
endfunction()
