# cmake -DARCS=PATH -DSUBCOMMAND=NAME -DHELP2MAN=PATH -DPAGE=OUT -P man_page.cmake: the man page of
# `arcs` (SUBCOMMAND arcs) or of `arcs SUBCOMMAND`, made by help2man from its --help and --version. A
# command's page is made through a small script named arcs-SUBCOMMAND, the name the page takes.
get_filename_component(dir ${PAGE} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${ARCS} --version OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REPLACE "arcs " "" version "${version}")
if(SUBCOMMAND STREQUAL "arcs")
  set(program ${ARCS})
  set(name "the Agent Recording Conformance Suite")
  set(title "arcs ${version}")
else()
  set(program ${dir}/arcs-${SUBCOMMAND})
  file(WRITE ${program} "#!/bin/sh\nexec '${ARCS}' ${SUBCOMMAND} \"$@\"\n")
  file(CHMOD ${program} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(name "arcs ${SUBCOMMAND}, a command of the Agent Recording Conformance Suite (see arcs(1))")
  set(title "arcs-${SUBCOMMAND} ${version}")  # the page's name, not the program's
endif()
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --name ${name}
                        --version-string ${title} --output ${PAGE}
                        ${program}
                RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man ${program}: ${error}")
endif()
