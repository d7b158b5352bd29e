# What `make install` and `make deb` put where (issue #28 item 1). An installed arcs finds its data
# beside itself, in <prefix>/share/arcs (runner/suite.h DefaultSuiteRoot), so `arcs run` and
# `arcs validate` work from any folder without the source tree.
include(GNUInstallDirs)
set(ARCS_DATA_DIR ${CMAKE_INSTALL_DATADIR}/arcs)

install(TARGETS arcs RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The suite's data: every format's manifest and input files, and the catalogues and errata they
# name. The generators and their libraries stay in the source tree: they make the data.
install(DIRECTORY vectors/ DESTINATION ${ARCS_DATA_DIR}/vectors
        PATTERN "*.py" EXCLUDE PATTERN "*.mjs" EXCLUDE PATTERN "__pycache__" EXCLUDE
        PATTERN "CMakeLists.txt" EXCLUDE)
install(DIRECTORY conformance/ DESTINATION ${ARCS_DATA_DIR}/conformance
        FILES_MATCHING PATTERN "requirements.json" PATTERN "errata.md")
install(DIRECTORY schemas/ DESTINATION ${ARCS_DATA_DIR}/schemas FILES_MATCHING PATTERN "*.json")
install(DIRECTORY runner/adapters/ DESTINATION ${ARCS_DATA_DIR}/adapters
        USE_SOURCE_PERMISSIONS PATTERN "adapter_test.sh" EXCLUDE)
# The specs `arcs validate --explain` and SARIF's helpUri point into, when the build has them.
if(EXISTS ${PROJECT_SOURCE_DIR}/../shared/specs)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/../shared/specs/ DESTINATION ${ARCS_DATA_DIR}/specs
          FILES_MATCHING PATTERN "*.md")
endif()
install(FILES runner/PROTOCOL.md runner/README.md README.md CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES LICENSE NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Man pages, made from each command's --help by help2man (Debian's help2man): arcs(1) and one page
# a command, arcs-run(1) and so on.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(pages)
  foreach(command arcs run check-adapter validate fuzz report diff serve vectors formats rules)
    if(command STREQUAL "arcs")
      set(page ${CMAKE_BINARY_DIR}/man/arcs.1)
      set(program $<TARGET_FILE:arcs>)
    else()
      set(page ${CMAKE_BINARY_DIR}/man/arcs-${command}.1)
      set(program ${CMAKE_BINARY_DIR}/man/arcs-${command})
    endif()
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -DARCS=$<TARGET_FILE:arcs> -DSUBCOMMAND=${command}
              -DHELP2MAN=${HELP2MAN} -DPAGE=${page} -P ${PROJECT_SOURCE_DIR}/tools/cmake/man_page.cmake
      DEPENDS arcs ${PROJECT_SOURCE_DIR}/tools/cmake/man_page.cmake VERBATIM)
    list(APPEND pages ${page})
  endforeach()
  add_custom_target(arcs_man_pages ALL DEPENDS ${pages})
  install(FILES ${pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# `make deb`: a Debian package of the above, its dependencies found by dpkg-shlibdeps
# (tools/cmake/cpack_depends.cmake).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME arcs)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ARCS maintainers <arcs@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Agent Recording Conformance Suite: conformance tests and a linter for agent recordings")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/tools/cmake/cpack_depends.cmake)
set(CPACK_ARCS_BUILD_DIR ${CMAKE_BINARY_DIR})
set(CPACK_ARCS_BINARY ${CMAKE_BINARY_DIR}/arcs)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# cpack first makes the tree's `preinstall`, which by default walks every target to check that it
# is built: 4.8 s of the package test's 14 s, for a tree that `make deb` and ctest have just built.
# The build tree's own `install` target then builds nothing first either: the top Makefile's
# `make install` and `make deb` build before they install.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
# Only the binary: ON would run strip on each of the 2,000 data files, 30 times slower.
set(CPACK_STRIP_FILES ${CMAKE_INSTALL_BINDIR}/arcs)
include(CPack)

# The package, installed by dpkg into a root of its own, used from another folder.
add_test(NAME package COMMAND bash ${PROJECT_SOURCE_DIR}/tools/package_test.sh ${CMAKE_BINARY_DIR}
                                   ${PROJECT_SOURCE_DIR})

# The GitHub Action's script (action.yml), run as the Action runs it.
add_test(NAME github_action COMMAND bash ${PROJECT_SOURCE_DIR}/tools/action/run_test.sh
                                         $<TARGET_FILE:arcs> ${PROJECT_SOURCE_DIR})
