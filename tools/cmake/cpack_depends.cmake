# Read by cpack at package time (CPACK_PROJECT_CONFIG_FILE): the package's Depends, from
# dpkg-shlibdeps on the one binary it holds. CPack's own CPACK_DEBIAN_PACKAGE_SHLIBDEPS runs
# `file` on each of the 2,000 data files first, which takes most of a minute.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(dir ${CPACK_ARCS_BUILD_DIR}/shlibdeps)
  file(MAKE_DIRECTORY ${dir}/debian)
  file(WRITE ${dir}/debian/control "Source: arcs\n\nPackage: arcs\nArchitecture: any\n")
  execute_process(COMMAND dpkg-shlibdeps -O ${CPACK_ARCS_BINARY} WORKING_DIRECTORY ${dir}
                  OUTPUT_VARIABLE depends RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "dpkg-shlibdeps ${CPACK_ARCS_BINARY}: ${error}")
  endif()
  string(REGEX REPLACE "^shlibs:Depends=" "" depends "${depends}")
  string(STRIP "${depends}" CPACK_DEBIAN_PACKAGE_DEPENDS)
endif()
