"""The layout is the architecture: which package may import which (docs/architecture.md).

Every import of every module is read from its syntax tree, lazy and
type-checking-only imports included, so a layer cannot reach up by hiding an
import inside a function.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("companion.rules", "companion.record", "companion.deduction", "companion.table")
# Each package and what it may import besides itself. ``companion`` alone is the
# top-level re-export of the engine's names, so it counts as the rules.
ALLOWED: dict[str, set[str]] = {
    "companion": {"companion.rules"},
    "companion.rules": set(),
    "companion.record": {"companion.rules"},
    "companion.deduction": {"companion.rules", "companion.record"},
    "companion.table": {"companion.rules", "companion.record", "companion.deduction"},
    "hardware": {"companion.rules", "companion.table"},
    "web": {"companion.rules", "companion.record", "companion.deduction", "companion.table"},
    "companion.cli": {*LAYERS, "hardware", "web"},
}
PACKAGES = sorted(ALLOWED, key=len, reverse=True)  # the longest prefix names a module's package


def _modules() -> Iterator[tuple[str, Path]]:
    for top in ("companion", "hardware", "web"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def _package(module: str) -> str | None:
    return next((p for p in PACKAGES if module == p or module.startswith(p + ".")), None)


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module) for every import of the project's own code."""
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") \
                if node.level else node.module or ""
            # ``from companion.table import prompts`` imports companion.table.prompts
            names = [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        else:
            continue
        for line, name in names:
            if name.split(".")[0] in ("companion", "hardware", "web"):
                yield line, name


def _edges() -> Iterator[tuple[str, str, str]]:
    """(importing package, imported package, where) for each import that crosses packages."""
    for module, path in _modules():
        mine = _package(module)
        assert mine is not None, f"{module} is in no package of docs/architecture.md's map"
        for line, name in _imports(module, path):
            theirs = _package(name)
            if theirs is None or theirs == mine:
                continue
            yield mine, "companion.rules" if theirs == "companion" else theirs, f"{path.relative_to(ROOT)}:{line}"


def test_every_import_follows_the_dependency_direction() -> None:
    wrong = [f"{where}: {mine} imports {theirs}" for mine, theirs, where in _edges()
             if theirs != mine and theirs not in ALLOWED[mine]]
    assert wrong == []


def test_the_packages_import_each_other_without_a_cycle() -> None:
    graph: dict[str, set[str]] = {package: set() for package in ALLOWED}
    for mine, theirs, _ in _edges():
        if theirs != mine:
            graph[mine].add(theirs)
    done: set[str] = set()

    def visit(package: str, path: tuple[str, ...]) -> None:
        assert package not in path, " -> ".join((*path, package))
        if package not in done:
            for imported in graph[package]:
                visit(imported, (*path, package))
            done.add(package)

    for package in graph:
        visit(package, ())


def test_the_rules_engine_needs_nothing_but_the_standard_library_and_itself() -> None:
    """companion.rules runs anywhere: no device, web or third-party import (Pillow only to draw, lazily)."""
    third_party = []
    for module, path in _modules():
        if _package(module) != "companion.rules":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
        for node in top_level:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if node.__dict__.get("level") or name.split(".")[0] in ("companion", "__future__"):
                    continue
                if name.split(".")[0] not in _stdlib():
                    third_party.append(f"{path.relative_to(ROOT)}: {name}")
    assert third_party == []


def _stdlib() -> frozenset[str]:
    import sys
    return frozenset(sys.stdlib_module_names)


MAP_ROW = re.compile(r"^\| `((?:companion|hardware|web)/[\w/]+\.py)` \|", re.M)


def test_the_tree_matches_the_map_in_docs_architecture() -> None:
    mapped = set(MAP_ROW.findall((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")))
    on_disk = {str(path.relative_to(ROOT)) for _, path in _modules()
               if path.name not in ("__init__.py", "__main__.py") or path.parent.name == "web"}
    assert sorted(on_disk - mapped) == [], "modules missing from docs/architecture.md"
    assert sorted(mapped - on_disk) == [], "docs/architecture.md names modules that do not exist"


@pytest.mark.parametrize("package", ["rules", "record", "deduction", "table", "cli"])
def test_the_tests_mirror_the_packages(package: str) -> None:
    assert any((ROOT / "tests" / "companion" / package).glob("test_*.py"))
