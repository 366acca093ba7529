"""The package as a whole (issues 23 and 30): no import cycle among python/effbench's modules,
counting imports inside functions, no file over 500 lines and no function over 100."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "effbench"
MAX_FILE_LINES, MAX_FUNCTION_LINES = 500, 100


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def import_statements(tree: ast.Module, in_functions: bool):
    """The import statements that run when the module is imported (those outside functions:
    module level, class bodies, if/try blocks), and with IN_FUNCTIONS those of functions."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif in_functions or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def import_graph(in_functions: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports when it is imported (IN_FUNCTIONS: or when
    one of its functions runs)."""
    known = modules()
    graph = {}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        edges = set()
        for node in import_statements(ast.parse(path.read_text()), in_functions):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = name.split(".")
                    anchor = anchor[:len(anchor) - node.level + (1 if is_package else 0)]
                    base = ".".join(anchor + ([base] if base else []))
                # `from X import y`: y is a submodule of X or a name defined in X
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                           for alias in node.names]
            edges.update(t for t in targets if t in known and t != name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of GRAPH as the list of its modules (first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    # the shape issue 30 found: a long cycle entered from a module outside it
    graph = {"cli": {"comparable"}, "comparable": {"simulate"}, "simulate": {"launcher"},
             "launcher": {"report"}, "report": {"history"}, "history": {"comparable"}}
    assert find_cycle(graph) == ["comparable", "simulate", "launcher", "report", "history",
                                 "comparable"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_graph_sees_relative_and_package_imports():
    graph = import_graph()
    assert {"effbench.records", "effbench.store.limits", "effbench.store.models"} \
        <= graph["effbench.store.db"]
    assert {"effbench.web.query", "effbench.web.deps"} <= graph["effbench.web.api"]
    assert graph["effbench.web"] == {"effbench.web.app"}
    # the migrations' environment imports the models with an absolute name
    assert "effbench.store.models" in graph["effbench.migrations.env"]


def test_the_graph_sees_imports_inside_functions():
    """cli imports compare only inside cmd_compare: an edge with in_functions, none without."""
    assert "effbench.compare" not in import_graph()["effbench.cli"]
    assert "effbench.compare" in import_graph(in_functions=True)["effbench.cli"]


def test_no_import_cycle():
    """Not even through an import inside a function: such an import only defers the cycle
    (comparable -> simulate -> launcher -> report -> report_history -> history -> comparable
    hid there until simulation_label moved to records, issue 30)."""
    assert find_cycle(import_graph(in_functions=True)) is None
    assert find_cycle(import_graph()) is None


def test_parsing_does_not_depend_on_the_store():
    """Records, their validation and the importers never import the store, not even inside a
    function: the store checks what its columns hold (store/limits.py)."""
    graph = import_graph(in_functions=True)
    parsing = [m for m in graph if m in ("effbench.records", "effbench.validate")
               or m.startswith("effbench.importers")]
    assert len(parsing) == 12  # records, validate and 10 modules of importers/
    assert {m: sorted(t for t in graph[m] if t.startswith("effbench.store"))
            for m in parsing} == {m: [] for m in parsing}


def test_no_file_over_500_lines_no_function_over_100():
    too_long = []
    for name, path in modules().items():
        text = path.read_text()
        if len(text.splitlines()) > MAX_FILE_LINES:
            too_long.append(f"{path.name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if node.end_lineno - first + 1 > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}.{node.name}: {node.end_lineno - first + 1} lines")
    assert too_long == []
