"""The rules core stays pure: no web framework, no OpenAPI generator, no storage, no app layer and
no global ``random`` below service/rules/; no import cycle anywhere in service/, counting the
imports inside functions (a cycle hidden in a function is a cycle all the same); and each room of
service/ (``ROOMS``) imports only the rooms listed for it, the web framework only in ``WEB_ROOMS``.

Every import is resolved to an absolute module name: ``import x``,
``from x import y``, relative ``from ..store import CombatStore`` and
``from . import x``, at module level or inside a function. The mutants at the
bottom prove the checker catches what the first version of this test missed.
"""

import ast
import importlib.metadata
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

import service.rules

RULES_PACKAGE = "service.rules"
RULES_DIR = Path(service.rules.__file__).parent
PROJECT_ROOT = RULES_DIR.parent.parent
PLUGIN_DIR = PROJECT_ROOT / "tests" / "plugin_ruleset" / "melee_coin_duel"

# Module prefixes the rules core must not import (a prefix matches itself and
# its submodules). The rulesets' sheet and action schemas live in the core,
# written with marshmallow (a schema library, allowed); the HTTP layer alone
# publishes them (apispec) and serves them (flask, flask-smorest).
FORBIDDEN = (
    "flask",
    "flask_smorest",
    "werkzeug",
    "apispec",
    "redis",
    "fakeredis",
    "rq",
    "gevent",
    "gunicorn",
    "random",  # dice come from service.rules.dice, seeded per combat
    "service.api",
    "service.store",
    "service.app",
    "service.observability",
    "service.jobs",
    "service.web",
)

SERVICE_DIR = RULES_DIR.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def resolve_base(module: str, package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` reads from."""
    if node.level == 0:
        return node.module or ""
    anchor = module.split(".") if package else module.split(".")[:-1]
    if node.level - 1 > len(anchor) - 1:
        raise ImportError(f"{module}: relative import beyond the top-level package")
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join(anchor + ([node.module] if node.module else []))


def imports_of(
    module: str,
    package: bool,
    source: str,
    *,
    module_level_only: bool = False,
    runtime: bool = False,
    modules: frozenset[str] = frozenset(),
) -> set[str]:
    """Every absolute module name ``source`` imports. ``from base import name``
    yields both ``base`` and ``base.name`` (name may be a submodule).

    With ``module_level_only`` (the import-time graph), imports inside
    functions and ``if TYPE_CHECKING:`` blocks are skipped: they do not run
    when the module is imported. With ``runtime``, only ``if TYPE_CHECKING:``
    blocks are: every import that may run, now or when a function is called.
    In both, ``from . import sibling``, where every name is a submodule in
    ``modules``, yields only the submodules, not the package: the package is
    already mid-import as the importer's parent, and only the submodules are read."""
    tree = ast.parse(source)
    if module_level_only:
        nodes: Iterable[ast.AST] = _module_level_imports(tree.body)
    elif runtime:
        nodes = _runtime_imports(tree)
    else:
        nodes = ast.walk(tree)
    graph_edges = module_level_only or runtime
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve_base(module, package, node)
            names = {f"{base}.{alias.name}" for alias in node.names if alias.name != "*"}
            found.update(names)
            only_submodules_of_an_ancestor = (
                graph_edges and names and names <= modules and module.startswith(base + ".")
            )
            if not only_submodules_of_an_ancestor:
                found.add(base)
    return found


def _module_level_imports(body: list[ast.stmt]):
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _is_type_checking(node.test):
            yield from _module_level_imports(node.body)
            yield from _module_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _module_level_imports(block)
        elif isinstance(node, ast.With):
            yield from _module_level_imports(node.body)


def _runtime_imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import under ``node`` but those of ``if TYPE_CHECKING:`` blocks (only a type checker reads them)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            yield from _runtime_imports(ast.Module(body=child.orelse, type_ignores=[]))
        else:
            yield from _runtime_imports(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def forbidden_in(imported: set[str]) -> list[str]:
    return sorted(name for name in imported if any(name == p or name.startswith(p + ".") for p in FORBIDDEN))


def rules_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(RULES_DIR.rglob("*.py"))}


def service_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SERVICE_DIR.rglob("*.py"))}


def import_graph() -> dict[str, set[str]]:
    """Edges between modules of service/: every import that may run, at import time or inside a function."""
    modules = service_modules()
    names = frozenset(modules)
    return {
        name: {
            target
            for target in imports_of(name, is_package(path), path.read_text(), runtime=True, modules=names)
            if target in modules and target != name
        }
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Every elementary cycle reachable by a depth-first search, each rotated
    to start at its smallest module so the same cycle reads the same way."""
    found = set()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                cycle = path[path.index(target) :]
                start = cycle.index(min(cycle))
                found.add(tuple(cycle[start:] + cycle[:start]))
            elif target not in state:
                visit(target)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_rules_core_imports_no_web_storage_app_layer_or_global_random():
    offenders = {}
    for name, path in rules_modules().items():
        bad = forbidden_in(imports_of(name, is_package(path), path.read_text()))
        if bad:
            offenders[name] = bad
    assert offenders == {}


def test_service_has_no_import_cycle_even_through_imports_inside_functions():
    found = cycles(import_graph())
    assert not found, "import cycles in service/: " + "; ".join(" -> ".join(c + c[:1]) for c in sorted(found))


def test_the_plugin_ruleset_imports_none_of_it_either():
    # The contract for ruleset authors (docs/rulesets.md): a plugin writes its schemas with marshmallow, and no more.
    offenders = {}
    for path in sorted(PLUGIN_DIR.rglob("*.py")):
        name = ".".join(path.relative_to(PLUGIN_DIR.parent).with_suffix("").parts).removesuffix(".__init__")
        bad = forbidden_in(imports_of(name, is_package(path), path.read_text()))
        if bad:
            offenders[name] = bad
    assert offenders == {}


def test_the_scan_sees_imports():
    # Guard against a scan that silently finds nothing.
    schemas = RULES_DIR / "schemas.py"
    assert "service.rules.dice" in imports_of("service.rules.schemas", False, schemas.read_text())
    assert "service.rules.ruleset" in imports_of("melee_coin_duel", True, (PLUGIN_DIR / "__init__.py").read_text())
    assert len(rules_modules()) > 50
    graph = import_graph()
    assert "service.rules.ruleset" in graph["service.rules.duel_2d6"]
    assert "service.api.combats" in graph and len(graph) > 200


# Mutants: each synthetic module is what a careless commit could add to
# service/rules/dice.py (or a ruleset package); the checker must catch it.


def test_mutant_relative_import_of_the_store_is_caught():
    source = "from ..store import CombatStore\n"
    assert forbidden_in(imports_of("service.rules.dice", False, source)) == [
        "service.store",
        "service.store.CombatStore",
    ]


def test_mutant_relative_package_import_is_caught():
    source = "from .. import api\n"
    assert forbidden_in(imports_of("service.rules.dice", False, source)) == ["service.api"]
    # From a ruleset package's __init__, ``...`` is service/.
    source = "from ... import app\n"
    assert forbidden_in(imports_of("service.rules.duel_2d6", True, source)) == ["service.app"]


def test_mutant_function_level_import_is_caught():
    source = "def roll():\n    import random\n    from flask import g\n    return random.random()\n"
    assert forbidden_in(imports_of("service.rules.dice", False, source)) == ["flask", "flask.g", "random"]


def test_mutant_absolute_imports_are_caught():
    source = (
        "import redis.client\nfrom werkzeug.exceptions import NotFound\nfrom service.observability import metrics\n"
    )
    assert forbidden_in(imports_of("service.rules.dice", False, source)) == [
        "redis.client",
        "service.observability",
        "service.observability.metrics",
        "werkzeug.exceptions",
        "werkzeug.exceptions.NotFound",
    ]


def test_mutant_the_http_layers_schema_tools_in_a_rulesets_schemas_are_caught():
    # The core declares marshmallow schemas; publishing them (apispec) and serving them (flask-smorest) is the API's.
    source = "from flask_smorest import Blueprint\nfrom marshmallow import Schema, fields\n"
    assert forbidden_in(imports_of("service.rules.sistema_2d6.schemas", False, source)) == [
        "flask_smorest",
        "flask_smorest.Blueprint",
    ]
    source = "def later():\n    from apispec.ext.marshmallow import MarshmallowPlugin\n"
    assert forbidden_in(imports_of("service.rules.registry", False, source)) == [
        "apispec.ext.marshmallow",
        "apispec.ext.marshmallow.MarshmallowPlugin",
    ]


def test_allowed_imports_are_not_flagged():
    source = (
        "import random_words\nfrom .random_table import roll\nfrom marshmallow import fields\n"
        "import marshmallow.validate\nimport redisish\nimport apispecish\n"
    )
    assert forbidden_in(imports_of("service.rules.dice", False, source)) == []


def test_mutant_cycle_is_caught_and_named():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == {("a", "b", "c")}


def test_function_level_and_type_checking_imports_are_not_import_time_edges():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .engine import Combat\n"
        "def later():\n    from .gm.legal import awaited\n"
        "from .errors import InvalidAction\n"
    )
    imported = imports_of("service.rules.ruleset", False, source, module_level_only=True)
    assert "service.rules.errors" in imported
    assert "service.rules.engine" not in imported
    assert "service.rules.gm.legal" not in imported


def test_sibling_import_is_an_edge_to_the_sibling_not_to_the_parent_package():
    modules = frozenset({"service.rules.duel_2d6", "service.rules.duel_2d6.tables"})
    imported = imports_of(
        "service.rules.duel_2d6.messages", False, "from . import tables\n", module_level_only=True, modules=modules
    )
    assert imported == {"service.rules.duel_2d6.tables"}
    # Reading a name defined by the package's __init__ is a real edge to it.
    imported = imports_of(
        "service.rules.duel_2d6.messages", False, "from . import LABELS\n", module_level_only=True, modules=modules
    )
    assert imported == {"service.rules.duel_2d6", "service.rules.duel_2d6.LABELS"}


def test_mutant_cycle_through_an_import_inside_a_function_is_caught():
    # The shape of the three circles issue 28 found: b imports a at module
    # level, a imports b inside a function.
    modules = frozenset({"service.a", "service.b"})
    a = "def later():\n    from .b import thing\n    return thing\n"
    b = "from .a import later\n"
    graph = {
        "service.a": imports_of("service.a", False, a, runtime=True, modules=modules) & modules,
        "service.b": imports_of("service.b", False, b, runtime=True, modules=modules) & modules,
    }
    assert cycles(graph) == {("service.a", "service.b")}


def test_type_checking_imports_are_no_runtime_edge_but_function_level_ones_are():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .engine import Combat\n"
        "def later():\n    from .gm.legal import awaited\n"
    )
    imported = imports_of("service.rules.ruleset", False, source, runtime=True)
    assert "service.rules.gm.legal" in imported
    assert "service.rules.engine" not in imported


# The rooms of service/ (a package or a top-level module) and the rooms each may import, every import that may
# run counted: the layers of docs/architecture.md point down. A new room has no place until it is listed here.
ROOMS: dict[str, frozenset[str]] = {
    # the rules core and what only reads it
    "service.rules": frozenset(),
    "service.simulation": frozenset({"service.rules"}),
    "service.i18n": frozenset({"service.rules", "service.simulation"}),
    "service.codec": frozenset(),
    # the use cases: the rules and their own ports (the store's errors are the ports', usecases/port_errors.py)
    "service.usecases": frozenset({"service.rules", "service.simulation", "service.i18n", "service.codec"}),
    # the adapters of the ports: they import the use cases' types, never HTTP
    "service.store": frozenset({"service.codec", "service.usecases"}),
    "service.crypto": frozenset({"service.codec", "service.usecases"}),
    "service.adapters": frozenset({"service.crypto", "service.store", "service.usecases"}),
    "service.jobs": frozenset(
        {"service.observability", "service.settings", "service.simulation", "service.store", "service.usecases"}
    ),
    "service.settings": frozenset({"service.usecases"}),
    # around HTTP
    "service": frozenset(),  # the package itself: __version__
    "service.proxied": frozenset(),
    "service.observability": frozenset(
        {"service", "service.codec", "service.proxied", "service.rules", "service.settings", "service.store"}
        | {"service.usecases"}
    ),
    "service.web": frozenset(),
    "service.api": frozenset(
        {"service", "service.adapters", "service.codec", "service.i18n", "service.jobs", "service.observability"}
        | {"service.proxied", "service.rules", "service.simulation", "service.store", "service.usecases"}
    ),
    # the process: the app factory and what starts it
    "service.embedded_guard": frozenset(),
    "service.gunicorn_errors": frozenset(),
    "service.app": frozenset(
        {"service.adapters", "service.api", "service.codec", "service.embedded_guard", "service.observability"}
        | {"service.settings", "service.store", "service.web"}
    ),
    "service.openapi": frozenset({"service.app", "service.settings", "service.store"}),
}
# The web framework, and the rooms that may import it: HTTP (api/, web/), the app factory, and what hooks into
# the request (observability/: logs, metrics, /version; proxied.py). The use cases and every adapter are
# written without it.
WEB_FRAMEWORK = ("flask", "flask_smorest", "flask_cors", "flask_limiter", "werkzeug")
WEB_ROOMS = frozenset({"service.api", "service.web", "service.app", "service.observability", "service.proxied"})


def room_of(module: str) -> str | None:
    """The room ``module`` (or a name in it) is in: the longest entry of ROOMS it is or is under, ``service``
    itself only for the package's own module (a name read from it, ``service.__version__``, is in none)."""
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        if ".".join(parts[:end]) in ROOMS:
            return ".".join(parts[:end])
    return module if module in ROOMS else None


def misplaced_imports(module: str, package: bool, source: str, modules: frozenset[str]) -> list[str]:
    """``"<module>: <what is wrong>"`` for a module in no room, each import of a room its own may not import, and
    each import of the web framework outside WEB_ROOMS (at module level, inside a function or for types only)."""
    room = room_of(module)
    if room is None:
        return [f"{module}: in no room of ROOMS"]
    found = []
    for name in sorted(imports_of(module, package, source, runtime=True, modules=modules)):
        target = room_of(name) if name == "service" or name.startswith("service.") else None
        if target is not None and target != room and target not in ROOMS[room]:
            found.append(f"{module}: imports {name} ({target})")
    if room not in WEB_ROOMS:
        found += [
            f"{module}: imports {name}"
            for name in sorted(imports_of(module, package, source))
            if name.split(".")[0] in WEB_FRAMEWORK
        ]
    return found


def test_every_module_of_service_is_in_a_room_and_imports_only_the_rooms_below_it():
    modules = service_modules()
    names = frozenset(modules)
    found = [
        use
        for name, path in modules.items()
        for use in misplaced_imports(name, is_package(path), path.read_text(), names)
    ]
    assert found == []
    assert {room_of(name) for name in modules} == set(ROOMS)  # no room listed for nothing


def test_no_two_packages_of_service_may_import_each_other_even_through_others():
    # With every import checked against ROOMS (above), a cycle-free ROOMS means no package of service/ reaches
    # back into one that imports it, at module level or inside a function (typing-only imports aside).
    rooms = {room: set(allowed) for room, allowed in ROOMS.items()}
    found = cycles(rooms)
    assert not found, "rooms that import each other: " + "; ".join(" -> ".join(c + c[:1]) for c in sorted(found))


def test_mutant_two_rooms_importing_each_other_are_caught():
    rooms = {room: set(allowed) for room, allowed in ROOMS.items()}
    rooms["service.usecases"].add("service.store")
    assert ["service.store", "service.usecases"] in [sorted(cycle) for cycle in cycles(rooms)]


def test_mutant_an_adapter_reaching_for_flask_or_the_api_is_caught():
    modules = frozenset({"service.adapters.sealing", "service.api.requests"})
    source = (
        "from ..api.requests import store\ndef settings():\n    from flask import current_app\n    return current_app\n"
    )
    assert misplaced_imports("service.adapters.sealing", False, source, modules) == [
        "service.adapters.sealing: imports service.api.requests (service.api)",
        "service.adapters.sealing: imports service.api.requests.store (service.api)",
        "service.adapters.sealing: imports flask",
        "service.adapters.sealing: imports flask.current_app",
    ]


def test_mutant_the_use_cases_importing_an_adapter_or_werkzeug_are_caught():
    source = "from werkzeug.datastructures import LanguageAccept\nfrom ..adapters import fanout\n"
    modules = frozenset({"service.adapters", "service.adapters.fanout"})
    assert misplaced_imports("service.usecases.views", False, source, modules) == [
        "service.usecases.views: imports service.adapters (service.adapters)",
        "service.usecases.views: imports service.adapters.fanout (service.adapters)",
        "service.usecases.views: imports werkzeug.datastructures",
        "service.usecases.views: imports werkzeug.datastructures.LanguageAccept",
    ]


def test_mutant_a_module_in_no_room_is_caught_and_the_api_may_import_flask():
    assert misplaced_imports("service.newroom.thing", False, "import os\n", frozenset()) == [
        "service.newroom.thing: in no room of ROOMS"
    ]
    assert misplaced_imports("service.api.views", False, "from flask import request\n", frozenset()) == []


# Declared runtime dependencies that no module of service/ imports, each with why it is declared.
USED_WITHOUT_AN_IMPORT = {
    "hiredis": "redis-py's C reply parser: redis-py loads it by itself when it is installed",
}
TEST_FRAMEWORKS = ("pytest", "_pytest", "hypothesis", "schemathesis")


def service_imports() -> set[str]:
    found: set[str] = set()
    for name, path in service_modules().items():
        found |= imports_of(name, is_package(path), path.read_text())
    return found


def test_the_runtime_package_imports_no_test_framework():
    # Test support lives in melee_testing/, outside service/ (issue 28, item 5).
    assert [name for name in sorted(service_imports()) if name.split(".")[0] in TEST_FRAMEWORKS] == []


def normalized(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()  # PEP 503


def test_every_declared_runtime_dependency_is_imported_or_said_why_not():
    declared = {
        normalized(re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0])
        for requirement in tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    distributions = importlib.metadata.packages_distributions()
    imported = {
        normalized(distribution)
        for top in {name.split(".")[0] for name in service_imports()}
        for distribution in distributions.get(top, ())
    }
    assert declared - imported == set(USED_WITHOUT_AN_IMPORT)


# Framework internals: no module of service/ reaches into a private name
# (one leading underscore) of these packages, except the places listed in
# FRAMEWORK_PRIVATE_ALLOWED, each kept for a measured gain of at least 5 % of
# the action path and guarded by a test that fails when the framework
# underneath changes (docs/performance.md, "Framework patches: what each buys").
FRAMEWORKS = ("flask", "werkzeug", "flask_cors", "flask_smorest", "gunicorn", "redis", "marshmallow")
# "<module>: <expression>" -> (measured gain, guard test "path::name").
_PROXIED_GAIN = "0.149 million instructions of an action's 2.863 million, 5.2 % (cachegrind, both together)"
FRAMEWORK_PRIVATE_ALLOWED: dict[str, tuple[str, str]] = {
    "service.proxied: request._get_current_object": (
        _PROXIED_GAIN,
        "tests/api/test_proxied.py::test_current_request_is_the_object_behind_flask_request",
    ),
    "service.proxied: g._get_current_object": (
        _PROXIED_GAIN,
        "tests/api/test_proxied.py::test_current_g_is_the_object_behind_flask_g",
    ),
}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _framework(module: str) -> bool:
    return module.split(".")[0] in FRAMEWORKS


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _expression(node: ast.Attribute) -> str:
    return ast.unparse(node)


def framework_private_uses(module: str, package: bool, source: str) -> list[str]:
    """``"<module>: <expression>"`` for each reach into a framework's private name.

    Counted: ``from flask import _x``, ``import redis._parsers``, ``x._y`` where
    ``x`` was imported from a framework (``request._get_current_object()``),
    and, in a class deriving from a framework's class, ``self._y``,
    ``cls._y`` or ``super()._y`` where the class itself defines no ``_y``
    (``self._app`` of Flask's JSON provider). Not counted: a class's own
    private names, and private names of other libraries or of Python
    (``os._exit``).
    """
    tree = ast.parse(source)
    found: list[str] = []
    bound: set[str] = set()  # names that hold a framework module or object
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _framework(alias.name):
                    if any(_is_private(part) for part in alias.name.split(".")):
                        found.append(f"{module}: import {alias.name}")
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = resolve_base(module, package, node)
            if _framework(base):
                if any(_is_private(part) for part in base.split(".")):
                    found.append(f"{module}: from {base} import")
                for alias in node.names:
                    if _is_private(alias.name):
                        found.append(f"{module}: from {base} import {alias.name}")
                    bound.add(alias.asname or alias.name)
    framework_classes = {
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(_root_name(base) in bound for base in node.bases)
    }
    own: dict[ast.ClassDef, set[str]] = {}
    for klass in framework_classes:
        names = own[klass] = set()
        for node in ast.walk(klass):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not klass:
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    names.add(node.attr)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
            continue
        if _root_name(node.value) in bound:
            found.append(f"{module}: {_expression(node)}")
    for klass in framework_classes:
        for node in ast.walk(klass):
            if not (isinstance(node, ast.Attribute) and _is_private(node.attr)) or node.attr in own[klass]:
                continue
            value = node.value
            is_super = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"
            if is_super or (isinstance(value, ast.Name) and value.id in ("self", "cls")):
                found.append(f"{module}: {_expression(node)}")
    return found


def service_framework_private_uses() -> list[str]:
    found = []
    for path in sorted((PROJECT_ROOT / "service").rglob("*.py")):
        found += framework_private_uses(module_name(path), is_package(path), path.read_text())
    return found


def test_service_reaches_into_no_private_name_of_a_framework_but_the_allowed_ones():
    found = service_framework_private_uses()
    assert [use for use in found if use not in FRAMEWORK_PRIVATE_ALLOWED] == []
    assert [use for use in FRAMEWORK_PRIVATE_ALLOWED if use not in found] == []  # an exception no longer needed
    for use, (gain, guard) in FRAMEWORK_PRIVATE_ALLOWED.items():
        path, _, test_name = guard.partition("::")
        assert gain and f"def {test_name}(" in (PROJECT_ROOT / path).read_text(), use


def test_mutant_reaches_into_framework_private_names_are_caught():
    source = (
        "import redis._parsers\n"
        "from flask import request, _cv_app\n"
        "from werkzeug.datastructures import Headers\n"
        "from flask.json.provider import DefaultJSONProvider\n"
        "from marshmallow import Schema, fields\n"
        "from .. import codec\n"
        "import os\n"
        "def hook(response):\n"
        "    req = request._get_current_object()\n"
        "    return Headers._list, codec._private, os._exit\n"
        "class Provider(DefaultJSONProvider):\n"
        "    _own = 1\n"
        "    def __init__(self, app):\n"
        "        self._cache = {}\n"
        "    def response(self, *args):\n"
        "        self._cache, self._own, self._helper()\n"
        "        return self._app, super()._prepare_response_obj(args, {})\n"
        "    def _helper(self):\n"
        "        return 1\n"
        "class Plain:\n"
        "    def go(self):\n"
        "        return self._elsewhere\n"
        "class Dice(fields.String):\n"
        "    def _deserialize(self, value, attr, data, **kwargs):\n"
        "        return super()._deserialize(value, attr, data, **kwargs), Schema._declared_fields\n"
    )
    assert sorted(framework_private_uses("service.api.mutant", False, source)) == sorted(
        [
            "service.api.mutant: import redis._parsers",
            "service.api.mutant: from flask import _cv_app",
            "service.api.mutant: request._get_current_object",
            "service.api.mutant: Headers._list",
            "service.api.mutant: self._app",
            "service.api.mutant: super()._prepare_response_obj",
            "service.api.mutant: Schema._declared_fields",
        ]
    )
