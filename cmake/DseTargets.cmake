# Helpers for the per-folder library targets.
#
# Implementations register themselves by name from static initialisers (see models/base/registry.h).
# A static library drops object files nobody references, so every link to a dse library goes through
# WHOLE_ARCHIVE; using the same feature on every edge keeps CMake's link-feature rules consistent.
function(dse_link target scope)
  foreach(lib IN LISTS ARGN)
    target_link_libraries(${target} ${scope} "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
  endforeach()
endfunction()

function(dse_library name)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
