"""How the source checks of `make test` (check-*.py) end: each problem on its own line, then the
rule that was broken and exit status 1; or one line saying what holds, and 0."""
import sys


def report(problems, rule, holds):
    """Prints `problems` and `rule` to stderr and returns 1, or prints `holds()` and returns 0."""
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"error: {rule}", file=sys.stderr)
        return 1
    print(holds())
    return 0
