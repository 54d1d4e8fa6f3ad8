"""The rules core stays pure: no web framework and no storage below it."""

import ast
from pathlib import Path

import service.rules

FORBIDDEN = {"flask", "flask_smorest", "werkzeug", "redis", "fakeredis", "random", "gunicorn"}
RULES_DIR = Path(service.rules.__file__).parent


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_core_imports_no_web_storage_or_global_random():
    offenders = {
        str(path.relative_to(RULES_DIR)): sorted(imported_roots(path) & FORBIDDEN)
        for path in RULES_DIR.rglob("*.py")
        if imported_roots(path) & FORBIDDEN
    }
    assert offenders == {}


def test_the_check_sees_imports():
    # Guard against a scan that silently finds nothing.
    assert "marshmallow" in imported_roots(RULES_DIR / "schemas.py")
