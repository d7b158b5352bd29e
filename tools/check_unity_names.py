#!/usr/bin/python3
"""Checks that a unity build compiles what each file would compile alone.

CMake's unity build (the default, see CMakeLists.txt) #includes a target's files into one unit.
A name two files each keep to themselves (an unnamed namespace, or `static`) then meets its twin:
for a type or a variable the compiler refuses the unit, but two functions of one name and different
parameters become overloads, and a call may silently pick the other file's. So no function name is
file-local to two files of one unit. Likewise a `using namespace` at namespace scope reaches every
file after it in the unit, so only a unit's last file may have one. Reads the units CMake generated in BUILD (passes when there
are none: a build with -DCMAKE_UNITY_BUILD=OFF). Not seen: a file-local function that overloads a
function of the same namespace that another file of the unit calls from a header; and, by design
of a line-by-line reading, declarations clang-format would not leave at column 0.

usage: /usr/bin/python3 tools/check_unity_names.py BUILD
"""

import pathlib
import re
import sys

# clang-format puts every declaration of namespace scope at column 0, and only those.
NAMESPACE_OPEN = re.compile(r"^(?:inline\s+)?namespace(\s+[\w:]+)?\s*\{")
NAMESPACE_CLOSE = re.compile(r"^\}\s*//\s*namespace")
NOT_A_FUNCTION = re.compile(
    r"^(?:return|if|for|while|switch|using|typedef|namespace|class|struct|enum|union|"
    r"template|friend|case|default|else|do)\b")
# A definition or declaration at column 0: a return type, then the name, then "(". Not a member
# defined out of its class ("Foo::Bar("), nor an operator.
FUNCTION = re.compile(r"^(?:[\w:<>,*&]+\s+|[\w:<>,*&]+\s*[*&]\s*)+(?<!::)\b([A-Za-z_]\w*)\(")
UNIT_INCLUDE = re.compile(r'^#include "(.+)"$')
USING_NAMESPACE = re.compile(r"^using namespace\b", re.MULTILINE)
# A raw string literal (tests embed Python and JSON in them): not C++ to read.
RAW_STRING = re.compile(r'R"([^()\\\s]{0,16})\((.*?)\)\1"', re.DOTALL)


def without_raw_strings(text):
    """`text` with each raw string's contents blanked, its lines kept (line numbers stay)."""
    return RAW_STRING.sub(lambda m: '""' + "\n" * m.group(0).count("\n"), text)


def file_local_functions(text):
    """The names of the functions `text` keeps to itself, each with its first line number."""
    names = {}
    scopes = []  # True for an unnamed namespace
    for number, line in enumerate(without_raw_strings(text).splitlines(), 1):
        opened = NAMESPACE_OPEN.match(line)
        if opened:
            scopes.append(opened.group(1) is None)
            continue
        if NAMESPACE_CLOSE.match(line):
            if scopes:
                scopes.pop()
            continue
        if not line or line[0] in " \t#/}{)" or NOT_A_FUNCTION.match(line):
            continue
        local = any(scopes) or line.startswith("static ")
        found = FUNCTION.match(line)
        if local and found:
            names.setdefault(found.group(1), number)
    return names


def unit_sources(unit, build=None):
    """The files `unit` includes, but for those generated in `build` (embedded text: no function
    of theirs is file-local)."""
    sources = []
    for line in unit.read_text(encoding="utf-8").splitlines():
        included = UNIT_INCLUDE.match(line)
        if included:
            source = pathlib.Path(included.group(1))
            if build is None or build.resolve() not in source.resolve().parents:
                sources.append(source)
    return sources


def clashes(sources):
    """(name, [(source, line)...]) for each function name file-local to two or more sources."""
    seen = {}
    for source in sources:
        text = source.read_text(encoding="utf-8")
        for name, number in file_local_functions(text).items():
            seen.setdefault(name, []).append((source, number))
    return [(name, places) for name, places in sorted(seen.items()) if len(places) > 1]


def leaking_directives(sources):
    """(source, line) for each namespace-scope `using namespace` with files after it in the unit."""
    found = []
    for source in sources[:-1]:
        text = without_raw_strings(source.read_text(encoding="utf-8"))
        for directive in USING_NAMESPACE.finditer(text):
            found.append((source, text.count("\n", 0, directive.start()) + 1))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    build = pathlib.Path(argv[1])
    units = sorted(build.glob("**/Unity/unity_*.cxx"))
    failed = 0
    for unit in units:
        sources = unit_sources(unit, build)
        for name, places in clashes(sources):
            failed += 1
            where = ", ".join(f"{source}:{number}" for source, number in places)
            print(f"FAIL: {name} is file-local to more than one file of {unit}: {where}")
        for source, number in leaking_directives(sources):
            failed += 1
            print(f"FAIL: {source}:{number}: `using namespace` reaches the files after it in {unit}")
    print(f"unity names: {len(units)} units, {failed} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
