# Records the git commit the binary was built from (for /meta in every result file). Runs at every
# build, rewriting the generated source only when the commit or dirty state changed.
function(dse_git_version out_cpp)
  add_custom_target(dse_git_version_stamp
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DOUT=${out_cpp}
            -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/git_version.cmake
    BYPRODUCTS ${out_cpp}
    COMMENT "Recording git commit"
    VERBATIM)
endfunction()
