"""The package's modules form layers: no import cycle, counting imports inside functions.

An import inside a function is still a dependency (it only defers the failure), so the graph
here holds every ``import`` and ``from ... import`` of a module of the package, at any depth,
except those under ``if TYPE_CHECKING:`` (types only, never run). A package's ``__init__``
importing its submodules is a dependency like any other; a submodule's implicit import of its
parent package is not counted (Python runs the parent first, whatever the submodule imports).
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "agreement_sql"


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                for sub in ast.walk(child):
                    skipped.add(id(sub))
    return skipped


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_blocks(tree)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            targets = [f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target
                       for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in known and t != name)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_cycle():
    found = cycles(graph())
    assert not found, "import cycles (each a set of modules that import each other): " + "; ".join(
        ", ".join(c) for c in found)


def test_the_checker_finds_a_cycle():
    # the detector itself: a -> b -> c -> a is one component, d alone is none
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_inside_functions_count():
    # an import deferred into a function is an edge of the graph (it only hides a cycle)
    edges = graph()
    assert "agreement_sql.errors" in edges["agreement_sql.registry"] or any(
        "registry" in t for t in edges["agreement_sql.metrics.coefficients"])


def test_the_registry_is_pure_data():
    # registry entries are data: the registry imports no module that runs SQL or shapes results
    allowed = {"agreement_sql.results", "agreement_sql.errors"}
    assert graph()["agreement_sql.registry"] <= allowed, graph()["agreement_sql.registry"]
