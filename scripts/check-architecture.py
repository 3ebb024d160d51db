#!/usr/bin/env python3
"""Checks that what ARCHITECTURE.md says of the code still holds. `make test` runs this.

- Every reference of the form `Path/To/File.swift:LINE` `symbol` points at a line of Sources/
  that still has `symbol` there: its name followed by `(` on that line and, for a selector such as
  `submit(_:session:acknowledged:)`, each argument label in the declaration. `--fix` moves each
  stale line number to the nearest line that matches, for a reviewer to read in the diff.
- The daemon actor (every file declaring `actor BeaconDaemon` or `extension BeaconDaemon`) is no
  longer than the "daemon actor: N lines" ARCHITECTURE.md states: it may shrink, growing past it is
  a decision to write down.

Exit status 1, naming each stale reference, when one does not hold.
"""
import pathlib
import re
import sys

from check_report import report

root = pathlib.Path(__file__).resolve().parent.parent
sources = root / "Sources"
document = root / "ARCHITECTURE.md"

REFERENCE = re.compile(r"`([A-Za-z0-9_+/]+\.swift):(\d+)` `([^`]+)`")
SELECTOR = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*:)*$")
ACTOR_SIZE = re.compile(r"daemon actor: (\d+) lines")
# A declaration's labels may continue on the lines after its name.
DECLARATION_LINES = 4


def matches(lines, number, symbol):
    """Whether line `number` (1-based) of `lines` has `symbol`."""
    if not 1 <= number <= len(lines):
        return False
    name, _, rest = symbol.partition("(")
    if f"{name}(" not in lines[number - 1]:
        return False
    window = " ".join(lines[number - 1 : number - 1 + DECLARATION_LINES])
    arguments = rest.rstrip(")")
    if SELECTOR.match(arguments):
        labels = [label for label in arguments.split(":") if label and label != "_"]
        return all(re.search(rf"\b{re.escape(label)}[ :]", window) for label in labels)
    return arguments in window


def nearest(lines, number, symbol):
    candidates = [index for index in range(1, len(lines) + 1) if matches(lines, index, symbol)]
    return min(candidates, key=lambda index: abs(index - number)) if candidates else None


def check_references(text, fix):
    problems = []
    files = {}

    def checked(match):
        path, number, symbol = match.group(1), int(match.group(2)), match.group(3)
        file = sources / path
        if not file.is_file():
            problems.append(f"ARCHITECTURE.md: {path} does not exist under Sources/")
            return match.group(0)
        lines = files.setdefault(path, file.read_text().splitlines())
        if matches(lines, number, symbol):
            return match.group(0)
        moved = nearest(lines, number, symbol)
        if fix and moved:
            return f"`{path}:{moved}` `{symbol}`"
        where = f"; it is at line {moved} (scripts/check-architecture.py --fix)" if moved else ", nowhere in the file"
        problems.append(f"ARCHITECTURE.md: {path}:{number} does not have {symbol}{where}")
        return match.group(0)

    fixed = REFERENCE.sub(checked, text)
    return fixed, problems, len(REFERENCE.findall(text))


def actor_lines():
    declaring = re.compile(r"^(?:package |public )?(?:actor|extension) BeaconDaemon\b", re.M)
    files = [path for path in sources.rglob("*.swift") if declaring.search(path.read_text())]
    return sum(len(path.read_text().splitlines()) for path in files), len(files)


def main():
    fix = "--fix" in sys.argv[1:]
    text = document.read_text()
    fixed, problems, references = check_references(text, fix)
    if fix and fixed != text:
        document.write_text(fixed)
    size, files = actor_lines()
    stated = ACTOR_SIZE.search(text)
    if not stated:
        problems.append('ARCHITECTURE.md: no "daemon actor: N lines" to hold the actor to')
    elif size > int(stated.group(1)):
        problems.append(f"the daemon actor grew to {size} lines in {files} files, past the {stated.group(1)} ARCHITECTURE.md states")
    return report(
        problems, "ARCHITECTURE.md says what the code is: fix the reference, or the code",
        lambda: f"check-architecture: {references} references to the code hold; daemon actor: {size} lines in {files} files")


if __name__ == "__main__":
    sys.exit(main())
