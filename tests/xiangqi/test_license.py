"""pyffish (Fairy-Stockfish, GPL) is a test oracle only: no module of the MIT package imports
it, and pyproject lists it only in the `dev` extra."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import ball

SRC = Path(ball.__file__).parent
ROOT = SRC.parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call):  # importlib.import_module("pyffish"), __import__(...)
            names.update(
                a.value.split(".")[0]
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            )
    return names


def test_no_package_module_imports_pyffish() -> None:
    offenders = [
        str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if "pyffish" in imported_modules(p)
    ]
    assert offenders == []


def test_pyffish_is_a_dev_dependency_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not any(dep.startswith("pyffish") for dep in project["dependencies"])
    assert any(dep.startswith("pyffish") for dep in project["optional-dependencies"]["dev"])
