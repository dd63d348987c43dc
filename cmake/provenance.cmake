# The git commit is read at build time, so a rebuild after a commit records the new one.
set(LEVELFORGE_PROVENANCE_CPP ${PROJECT_BINARY_DIR}/generated/provenance.cpp)
add_custom_target(levelforge_provenance_gen
  COMMAND ${CMAKE_COMMAND}
    -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DOUTPUT=${LEVELFORGE_PROVENANCE_CPP}
    -DVERSION=${PROJECT_VERSION}
    -P ${PROJECT_SOURCE_DIR}/cmake/write_provenance.cmake
  BYPRODUCTS ${LEVELFORGE_PROVENANCE_CPP}
  COMMENT "Recording the git commit")
