# Embeds the shipped configs/ (GPU specs, accelerator templates, example experiments) into the
# binary, so the embedded default runs with nothing but the `dse` executable.
function(dse_embed_configs out_cpp)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
       ${PROJECT_SOURCE_DIR}/configs/*.yaml)
  list(SORT files)
  string(REPLACE ";" "|" file_list "${files}")  # a ';' would split the shell command
  list(TRANSFORM files PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE absolute_files)
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} "-DFILES=${file_list}" -DOUT=${out_cpp}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake ${absolute_files}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Embedding configs/ into the dse binary"
    VERBATIM)
endfunction()
