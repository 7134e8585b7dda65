"""The package's imports run one way (docs/architecture.md, "Layers").

The installed package is parsed, not imported: every ``import`` and ``from
... import`` of a usmarray module, at module level or in a function body,
becomes an edge of the import graph. The checks:

- no import circle among usmarray modules;
- no import of a usmarray module inside a function body (third-party
  imports such as scipy, dask and torch may stay lazy);
- nothing in ``usmarray._core`` imports a module outside the core.

The checker is tested too, on small packages written to a temporary
directory, so that a check that could not fail would be caught.
"""

import ast
import os
import textwrap

import pytest

import usmarray

CORE = "usmarray._core"


def package_modules(pkg_dir, name):
    """{module name: source path, or None for an extension module} of the
    package in `pkg_dir` (its top-level name `name`)."""
    mods = {}
    for root, dirs, files in os.walk(pkg_dir):
        dirs[:] = [d for d in dirs if os.path.exists(os.path.join(root, d, "__init__.py"))]
        rel = os.path.relpath(root, pkg_dir)
        prefix = name if rel == "." else name + "." + rel.replace(os.sep, ".")
        for f in files:
            if f.endswith(".py"):
                m = prefix if f == "__init__.py" else prefix + "." + f[:-3]
                mods[m] = os.path.join(root, f)
            elif f.endswith(".so"):
                mods[prefix + "." + f.split(".")[0]] = None
    return mods


def _target(mods, name):
    """The module an import of `name` loads: `name` itself, or the nearest
    package or module above it (``from m import attribute``)."""
    while name not in mods and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in mods else None


def import_edges(mods, name):
    """(importer, imported, line, in a function body) for every import of a
    module of the package `name`."""
    edges = []
    for mod, path in mods.items():
        if path is None:
            continue
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        is_pkg = path.endswith("__init__.py")

        def visit(node, in_function):
            for child in ast.iter_child_nodes(node):
                targets = []
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    if child.level:
                        parts = mod.split(".")
                        base = parts if is_pkg else parts[:-1]
                        base = base[:len(base) - (child.level - 1)]
                        module = ".".join(base + ([child.module] if child.module else []))
                    else:
                        module = child.module or ""
                    targets = [module + "." + a.name for a in child.names]
                for t in targets:
                    if t.split(".")[0] != name:
                        continue
                    t = _target(mods, t)
                    if t is not None and t != mod:
                        edges.append((mod, t, child.lineno, in_function))
                visit(child, in_function or isinstance(
                    child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(tree, False)
    return edges


def import_cycles(edges):
    """The import circles: strongly connected sets of more than one module."""
    graph = {}
    for a, b, _, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def connect(v):   # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def layer_violations(edges, core):
    """Imports from inside the package `core` of modules outside it."""
    inside = lambda m: m == core or m.startswith(core + ".")  # noqa: E731
    return [(a, b, line) for a, b, line, _ in edges if inside(a) and not inside(b)]


def body_imports(edges):
    return [(a, b, line) for a, b, line, in_function in edges if in_function]


# ------------------------------------------------------------------ the package
@pytest.fixture(scope="module")
def edges():
    pkg_dir = os.path.dirname(usmarray.__file__)
    mods = package_modules(pkg_dir, "usmarray")
    assert CORE in mods and "usmarray._core._array" in mods and "usmarray.creation" in mods
    assert "usmarray._core._engine" in mods   # the compiled engine is part of the core
    return import_edges(mods, "usmarray")


def test_no_import_cycle(edges):
    assert import_cycles(edges) == []


def test_no_import_in_function_bodies(edges):
    assert body_imports(edges) == []


def test_core_imports_only_the_core(edges):
    assert layer_violations(edges, CORE) == []
    # the array module is the core's and builds on the core alone
    assert {b for a, b, _, _ in edges if a == "usmarray._core._array"} <= {
        "usmarray._core._dtypes", "usmarray._core._engine", "usmarray._core._suai",
        "usmarray._core._device", "usmarray._core._layout"}


def test_edges_are_found(edges):
    # the graph is not empty by accident: known imports are in it
    pairs = {(a, b) for a, b, _, _ in edges}
    assert ("usmarray.creation", "usmarray._core._array") in pairs
    assert ("usmarray", "usmarray.methods") in pairs
    assert ("usmarray.linalg._composite", "usmarray.linalg._lapack") in pairs


# ------------------------------------------------------------------ the checker
def _package(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return import_edges(package_modules(str(tmp_path / "pkg"), "pkg"), "pkg")


def test_checker_finds_a_cycle(tmp_path):
    edges = _package(tmp_path, {
        "__init__.py": "from . import a\n",
        "a.py": "from .b import f\n",
        "b.py": "import pkg.c\n",
        "c.py": "from pkg import a\n",
        "d.py": "from . import a\n"})
    assert import_cycles(edges) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert body_imports(edges) == []


def test_checker_finds_body_imports_and_core_violations(tmp_path):
    edges = _package(tmp_path, {
        "__init__.py": "",
        "api.py": "from ._core import arr\n\ndef f():\n    from . import other\n    import json\n",
        "other.py": "",
        "_core/__init__.py": "",
        "_core/arr.py": "from .. import api\nfrom . import low\n",
        "_core/low.py": "import numpy\n"})
    assert body_imports(edges) == [("pkg.api", "pkg.other", 4)]
    assert layer_violations(edges, "pkg._core") == [("pkg._core.arr", "pkg.api", 1)]
    assert import_cycles(edges) == [["pkg._core.arr", "pkg.api"]]
