"""No module of the project imports itself back, directly or through others — counting
imports inside functions (grimp sees those). ``lint-imports`` checks the layers; this also
catches a package that imports one of its own modules which imports the package back."""

from __future__ import annotations

import grimp

PACKAGES = ("aceh_rag", "ingestion", "partner_events")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def imported(module: str) -> list[str]:
        return sorted(graph.find_modules_directly_imported_by(module))

    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(imported(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(imported(child))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_back() -> None:
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)

    assert _cycles(graph) == []


def test_the_check_finds_a_cycle_when_there_is_one() -> None:
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")

    assert _cycles(graph) == [["a.b", "a.c"]]
