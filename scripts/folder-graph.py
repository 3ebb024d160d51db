#!/usr/bin/env python3
"""The folders of Sources/ as a graph of type references: which folder names a type declared in
another. Prints every two-way pair and every longer cycle, and exits 1 when there is one, so that
`make test` keeps the architecture's arrows pointing one way (ARCHITECTURE.md draws them).

    python3 scripts/folder-graph.py            # cycles, if any
    python3 scripts/folder-graph.py --edges    # every arrow, with the types behind it
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
DECLARATION = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
                         r"(?:struct|enum|class|actor|protocol|typealias)\s+([A-Z]\w*)", re.M)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def folders():
    """Each folder holding Swift files, named `Target/Folder` (or `Target` for a flat target)."""
    found = {}
    for directory, _, names in os.walk(ROOT):
        files = [os.path.join(directory, name) for name in names if name.endswith(".swift")]
        if files:
            found[os.path.relpath(directory, ROOT)] = files
    return found


def main():
    by_folder = folders()
    texts = {}
    declared = {}
    for folder, files in by_folder.items():
        for path in files:
            with open(path, encoding="utf-8") as handle:
                text = STRING.sub('""', COMMENT.sub("", handle.read()))
            texts[path] = (folder, text)
            for name in DECLARATION.findall(text):
                # A nested type shares its name with others (`Key`, `State`): only top-level
                # names are unambiguous, and a name declared in two folders is left out.
                declared.setdefault(name, set()).add(folder)
    owner = {name: next(iter(places)) for name, places in declared.items() if len(places) == 1}
    edges = {}
    for path, (folder, text) in texts.items():
        for word in set(re.findall(r"\b[A-Z]\w*\b", text)):
            target = owner.get(word)
            if target and target != folder:
                edges.setdefault((folder, target), set()).add(word)
    if "--edges" in sys.argv:
        for (source, target), names in sorted(edges.items()):
            print(f"{source} -> {target}: {', '.join(sorted(names))}")
    graph = {}
    for source, target in edges:
        graph.setdefault(source, set()).add(target)
    cycles = strongly_connected(graph)
    for component in cycles:
        print("cycle:", " <-> ".join(sorted(component)))
        for source in sorted(component):
            for target in sorted(graph.get(source, ())):
                if target in component:
                    print(f"  {source} -> {target}: {', '.join(sorted(edges[(source, target)]))}")
    if not cycles:
        print(f"{len(by_folder)} folders, {len(edges)} arrows, no cycle")
    return 1 if cycles else 0


def strongly_connected(graph):
    """Tarjan's algorithm: the components with more than one folder are the cycles."""
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in graph.get(node, ()):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                result.append(component)

    for node in list(graph):
        if node not in index:
            visit(node)
    return result


if __name__ == "__main__":
    sys.exit(main())
