"""The app in small pieces (issue 22): `create_app` only builds the shared `AppContext`, the
middleware and the error handlers and includes one router per concern from `host.app.routes`;
no route is defined in `host/app/server.py` any more. The API is the one it was: the same
paths and methods in the OpenAPI schema, the WebSocket and the mounted folders still served.
And no function over 100 lines and no class over 500 lines anywhere in host/ (the session in
its pieces, host/app/session, included)."""

from __future__ import annotations

import ast
from pathlib import Path

from fastapi.testclient import TestClient

from engine import registry
from host.app.server import Access, create_app
from host.games import adapter_for
from tests.app.conftest import Table

REPO = Path(__file__).resolve().parents[2]
MAX_FUNCTION_LINES = 100
MAX_CLASS_LINES = 500

# The shell's API (docs/table-api.md), as it was before the split (commit 205adf9): path and
# methods. Each game's own routes come on top (`adapter.routes()`, all GET).
SHELL_API = {
    "/api/info": {"get"},
    "/api/pairing": {"get"},
    "/api/wifi": {"get"},
    "/api/wifi/qr.svg": {"get"},
    "/api/pair": {"post"},
    "/games/{game}/i18n/{lang}.json": {"get"},
    "/api/catalogue": {"get"},
    "/api/games": {"get", "post"},
    "/api/games/import": {"post"},
    "/api/games/{game_id}/continue": {"post"},
    "/api/games/{game_id}/record": {"get"},
    "/api/games/{game}/verbs": {"get"},  # a game's verb table (added by issue 22)
    "/api/state": {"get"},
    "/api/seat/{token}/state": {"get"},
    "/api/seats": {"get"},
    "/api/seats/{colour}/qr.svg": {"get"},
    "/api/seats/{colour}/reissue": {"post"},
    "/api/action": {"post"},
    "/api/undo": {"post"},
    "/api/hint": {"post"},
    "/api/confirm": {"post"},
    "/api/resolve": {"post"},
    "/api/sim/drop": {"post"},
    "/api/sim/gate": {"post"},
    "/api/seat/{token}/action": {"post"},
    "/api/seat/{token}/undo": {"post"},
    "/api/seat/{token}/hint": {"post"},
    "/api/preview": {"get"},  # what an action would do (added by issue 22)
    "/api/seat/{token}/preview": {"get"},
}


def test_the_openapi_schema_has_the_same_paths_and_methods(client: TestClient) -> None:
    expected = {path: set(methods) for path, methods in SHELL_API.items()}
    for spec in registry.specs():
        for path, _handler in adapter_for(spec).routes():
            expected.setdefault(path, set()).add("get")
    schema = client.get("/openapi.json").json()
    got = {path: set(operations) for path, operations in schema["paths"].items()}
    assert got == expected


def test_no_route_is_defined_in_the_server_module(table: Table) -> None:
    """Every shell endpoint lives in a module of host/app/routes (a game's in its adapter)."""
    from host.app.routes.context import AppContext  # here: the old layout fails this test only

    app = create_app(table.session, Access())
    assert isinstance(app.state.context, AppContext)
    schema = app.openapi()
    assert schema["paths"]  # the walk below is not vacuous
    modules: dict[str, str] = {}

    def walk(routes: list[object]) -> None:
        for route in routes:
            inner = getattr(route, "original_router", None)  # an included router
            if inner is not None:
                walk(list(inner.routes))
                continue
            endpoint = getattr(route, "endpoint", None)
            path = getattr(route, "path", "")
            if endpoint is not None and path != "/openapi.json":
                modules[path] = getattr(endpoint, "__module__", "")

    walk(list(app.router.routes))
    for path in [*SHELL_API, "/", "/seat/{token}", "/ws"]:
        assert modules.get(path, "").startswith("host.app.routes."), (path, modules.get(path))


def test_the_websocket_and_the_mounted_folders_are_still_served(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        assert socket.receive_json()["type"] == "hello"
    assert client.get("/static/seat.html").status_code == 200
    spec = registry.get(registry.DEFAULT)
    # the bundle route comes before the game's folder, which would otherwise answer 404
    bundle = client.get(f"/games/{spec.id}/i18n/en.json")
    assert bundle.status_code == 200 and isinstance(bundle.json(), dict)
    folder = adapter_for(spec).static_dir()
    assert folder is not None
    name = sorted(p.name for p in folder.iterdir() if p.is_file())[0]
    assert client.get(f"/games/{spec.id}/{name}").status_code == 200


def _sizes(paths: list[Path], kinds: tuple[type, ...]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, kinds):
                assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                end = node.end_lineno or node.lineno
                where = f"{path.relative_to(REPO)}:{node.lineno} {node.name}"
                sizes[where] = end - node.lineno + 1
    return sizes


def _host_files() -> list[Path]:
    return sorted((REPO / "host").rglob("*.py"))


def test_no_function_over_100_lines_in_host() -> None:
    sizes = _sizes(_host_files(), (ast.FunctionDef, ast.AsyncFunctionDef))
    assert len(sizes) > 500  # the walk found the code: the app, the tower, the games
    assert any(where.startswith("host/games/") for where in sizes)
    too_long = {where: n for where, n in sizes.items() if n > MAX_FUNCTION_LINES}
    assert not too_long


def test_no_class_over_500_lines_in_host() -> None:
    sizes = _sizes(_host_files(), (ast.ClassDef,))
    for name in ("SerialTowerLink", "Session", "Checks", "GameAdapter"):
        assert any(where.endswith(f" {name}") for where in sizes), name
    too_long = {where: n for where, n in sizes.items() if n > MAX_CLASS_LINES}
    assert not too_long


def test_the_session_is_a_thin_front_over_its_pieces() -> None:
    """Issue 22: the hub only hands each call to the piece whose job it is."""
    folder = REPO / "host" / "app" / "session"
    sizes = _sizes(sorted(folder.glob("*.py")), (ast.ClassDef,))
    (session_size,) = [n for where, n in sizes.items() if where.endswith(" Session")]
    assert session_size <= 200
    assert not (REPO / "host" / "app" / "session.py").exists()
    assert all(n <= 250 for n in sizes.values()), sizes


def test_create_app_is_small() -> None:
    sizes = _sizes([REPO / "host" / "app" / "server.py"], (ast.FunctionDef,))
    (create_app_size,) = [n for where, n in sizes.items() if where.endswith(" create_app")]
    assert create_app_size <= 60
