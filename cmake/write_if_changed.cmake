# write_if_changed(PATH CONTENT): the build-time generators' last step. A generated source is
# rewritten only when its content changes, so that a build with nothing new recompiles nothing.
function(write_if_changed path content)
  set(old "")
  if(EXISTS ${path})
    file(READ ${path} old)
  endif()
  if(NOT "${old}" STREQUAL "${content}")
    file(WRITE ${path} "${content}")
  endif()
endfunction()
