#!/usr/bin/env python3
"""The import graph: every Swift file imports only modules its target depends on.

Reads the targets and their dependencies from `swift package dump-package` (Package.swift as
SwiftPM itself reads it) and the `import` lines of every target's Swift files. A file that
imports a module of this package which its target does not depend on, directly or through
the targets it depends on, is an error: a module never imports one above its own, so the
graph stays one-way. Modules from outside the package (Foundation, Dispatch, Glibc) are not
checked.

A file in Sources outside the FFmpeg bindings folder that imports CFFmpeg is an error too: C
stays behind the one thin layer, so FFmpeg's types and pointers never reach the engine's logic.

Usage: scripts/check-imports.py [--package-dump FILE]   (exit 1 on a violation)
"""

import json
import os
import re
import subprocess
import sys

# The folder whose files are the FFmpeg bindings, the only ones meant to import CFFmpeg.
BINDINGS = os.environ.get("FRAMESEEK_BINDINGS_FOLDER", "Sources/FrameSeekFFmpeg/Bindings")

# `import M`, `@_exported import M`, `@preconcurrency internal import M`, `import struct M.T`.
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)"
)


def package_targets(dump):
    """Each target's name mapped to (its folder, the names of the targets it depends on)."""
    targets = {}
    for target in dump["targets"]:
        # SwiftPM's default folder when Package.swift names none.
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
        names = []
        for dependency in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    names.append(dependency[kind][0])
        targets[target["name"]] = (folder, names)
    return targets


def closure(name, targets, seen=None):
    """Every target `name` depends on, directly or transitively."""
    seen = set() if seen is None else seen
    for dependency in targets.get(name, (None, []))[1]:
        if dependency not in seen:
            seen.add(dependency)
            closure(dependency, targets, seen)
    return seen


def imports(path):
    """The modules a Swift file imports, each with its line number."""
    with open(path, encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            match = IMPORT.match(line)
            if match:
                yield number, match.group(1)


def swift_files(folder):
    for directory, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main(arguments):
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if len(arguments) == 2 and arguments[0] == "--package-dump":
        with open(arguments[1], encoding="utf-8") as file:
            dump = json.load(file)
    else:
        dump = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True).stdout)
    targets = package_targets(dump)
    violations, outside_bindings, files = [], [], 0
    for name, (folder, _) in sorted(targets.items()):
        if not os.path.isdir(folder):
            continue
        allowed = closure(name, targets)
        for path in swift_files(folder):
            files += 1
            for number, module in imports(path):
                if module in targets and module != name and module not in allowed:
                    violations.append(f"{path}:{number}: imports {module}, which target {name} does not depend on")
                if module == "CFFmpeg" and path.startswith("Sources/") and not path.startswith(BINDINGS + "/"):
                    outside_bindings.append(f"{path}:{number}: imports CFFmpeg outside {BINDINGS}")
    for line in violations + outside_bindings:
        print(line)
    print(f"check-imports: {files} files in {len(targets)} targets, {len(violations)} imports against the graph")
    print(f"check-imports: {len(outside_bindings)} files in Sources outside {BINDINGS} import CFFmpeg")
    return 1 if violations or outside_bindings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
