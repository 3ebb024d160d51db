#!/usr/bin/env python3
"""Checks what keeps `make test` from hanging silently: every Swift Testing suite under Tests/
has a `.timeLimit` trait (a stuck test is then named and failed), and every `@Test` sits inside
a type, so that a suite's limit reaches it. `make test` runs this after the tests.

Exit status 1, naming each file and line, when a suite has no limit or a test stands alone.
"""
import pathlib
import re
import sys

from check_report import report

root = pathlib.Path(__file__).resolve().parent.parent


def attribute_arguments(text, start):
    """The text between the parentheses that follow text[start:], or '' when none follow."""
    if start >= len(text) or text[start] != "(":
        return ""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:index]
    return text[start + 1:]


def problems_in(path):
    text = path.read_text()
    found = []
    for match in re.finditer(r"@Suite\b", text):
        if ".timeLimit(" not in attribute_arguments(text, match.end()):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(root)}:{line}: a suite without .timeLimit")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("@Test"):
            found.append(f"{path.relative_to(root)}:{number}: a @Test outside any suite type")
    return found


def main():
    files = sorted((root / "Tests").rglob("*.swift"))
    problems = [problem for path in files for problem in problems_in(path)]
    suites = sum(len(re.findall(r"@Suite\b", path.read_text())) for path in files)
    return report(
        problems, "every suite needs .timeLimit(.minutes(N)) (see scripts/check-test-suites.py)",
        lambda: f"check-test-suites: {suites} suites in {len(files)} files, each with a time limit")


if __name__ == "__main__":
    sys.exit(main())
