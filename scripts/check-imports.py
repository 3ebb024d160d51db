#!/usr/bin/env python3
"""Checks that every target imports only what Package.swift declares for it: its own targets and
products, and the system's modules. The compiler accepts any module it can find, and the build
puts every module of the package where each target finds it, so an undeclared import compiles
and hides the target's real dependencies (SwiftPM's own check passes transitive ones too).
`make test` runs this.

    python3 scripts/check-imports.py                      # asks `swift package describe`
    python3 scripts/check-imports.py --description FILE   # reads its JSON from FILE

Exit status 1, naming each file, line and module, when a target imports an undeclared module.
"""
import json
import pathlib
import re
import subprocess
import sys

from check_report import report

root = pathlib.Path(__file__).resolve().parent.parent

# What the toolchain and the system provide to every target.
SYSTEM = {"Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization",
          "Testing", "XCTest", "_Concurrency", "PackagePlugin"}
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?([A-Za-z_]\w*)", re.M)
CONDITIONAL = re.compile(r"#if\s+canImport\((\w+)\)")
# Multi-line string literals and comments may hold other languages' imports (a Python driver).
LITERAL = re.compile(r'"""(?:.|\n)*?"""|/\*(?:.|\n)*?\*/|//[^\n]*')


def describe(args):
    if "--description" in args:
        return json.loads(pathlib.Path(args[args.index("--description") + 1]).read_text())
    output = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root, capture_output=True, text=True, check=True)
    return json.loads(output.stdout)


def problems_in(target, declared, base=root):
    found = []
    for path in sorted((base / target["path"]).rglob("*.swift")):
        # Blanked, not removed, so that line numbers stay right.
        text = LITERAL.sub(lambda literal: re.sub(r"[^\n]", " ", literal.group(0)), path.read_text())
        # A module imported under `#if canImport(M)` is one the platform may lack: the system's.
        guarded = set(CONDITIONAL.findall(text))
        for match in IMPORT.finditer(text):
            module = match.group(1)
            if module in declared or module in SYSTEM or module in guarded or module == target["name"]:
                continue
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(base)}:{line}: {target['name']} imports {module}, which Package.swift does not declare for it")
    return found


def main(args):
    description = describe(args)
    problems = []
    checked = 0
    for target in description["targets"]:
        if target.get("type") in ("system-target", "plugin"):
            continue
        checked += 1
        declared = set(target.get("target_dependencies") or []) | set(target.get("product_dependencies") or [])
        problems += problems_in(target, declared)
    return report(
        problems, "declare each imported module in the target's dependencies (Package.swift)",
        lambda: f"check-imports: {checked} targets import only what Package.swift declares for them")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
