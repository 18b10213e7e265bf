"""A page from another origin can neither change nor read anything (docs/threat-model.md),
tried in the real headless Chromium the UI tests use: an attacker page served on another
loopback port (and host name) fires the requests a browser lets any page send to the table app
running beside it, and the test checks from outside that nothing changed and that the page got
nothing back. Also here, in the same browser: a seat page whose link is reissued shows why and
hides the game; and `castillo run --allow-host` serves exactly the names it is given."""

from __future__ import annotations

import http.server
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.ui_browser import (
    PHONE,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
)

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
ALLOWED = "castillo.test"
ATTACK_PAGE = b"<!doctype html><title>a page on another origin</title><p>hello</p>"

# What any page may try: "simple" requests (no preflight), a JSON request (preflighted), reads,
# and WebSockets (the browser sends the page's Origin; there is no preflight for them).
ATTACK = """async ([app, legal]) => {
  const out = {fetches: [], sockets: []};
  const attempt = async (name, url, init) => {
    try {
      const r = await fetch(url, init);
      out.fetches.push({name, status: r.status, type: r.type, body: await r.text()});
    } catch (err) {
      out.fetches.push({name, error: String(err)});
    }
  };
  const text = {"Content-Type": "text/plain"};
  await attempt("reissue text/plain", app + "/api/seats/purple/reissue",
    {method: "POST", mode: "no-cors", headers: text, body: "{}"});
  await attempt("action text/plain", app + "/api/action",
    {method: "POST", mode: "no-cors", headers: text, body: JSON.stringify({text: legal})});
  await attempt("new game text/plain", app + "/api/games",
    {method: "POST", mode: "no-cors", headers: text,
     body: JSON.stringify({players: ["purple", "green"]})});
  await attempt("reissue, no body", app + "/api/seats/green/reissue",
    {method: "POST", mode: "no-cors"});
  await attempt("action JSON", app + "/api/action",
    {method: "POST", headers: {"Content-Type": "application/json"},
     body: JSON.stringify({text: legal})});
  await attempt("read state", app + "/api/state", {});
  await attempt("read state no-cors", app + "/api/state", {mode: "no-cors"});
  await attempt("read seats", app + "/api/seats", {});
  const ws = app.replace("http", "ws");
  for (const query of ["role=table", "seat=x"]) {
    out.sockets.push(await new Promise((resolve) => {
      const got = {query, messages: [], opened: false};
      const socket = new WebSocket(`${ws}/ws?${query}`);
      socket.onopen = () => {
        got.opened = true;
        socket.send(JSON.stringify({type: "action", text: legal, id: 1}));
        socket.send(JSON.stringify({type: "drop", cubes: ["green"], id: 2}));
      };
      socket.onmessage = (event) => got.messages.push(String(event.data));
      socket.onclose = (event) => resolve({...got, code: event.code});
      setTimeout(() => resolve({...got, code: "timeout"}), 5000);
    }));
  }
  return out;
}"""


class _AttackHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(ATTACK_PAGE)))
        self.end_headers()
        self.wfile.write(ATTACK_PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server(extra=("--allow-host", ALLOWED)) as base:
        yield base


@pytest.fixture(scope="module")
def attacker() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AttackHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:  # another port and another host name: another origin
        yield f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _table(app: str) -> dict[str, Any]:
    state = get_json(app + "/api/state")
    return {
        "rev": state["rev"],
        "game": state["game_id"],
        "seats": state["seats"],
        "log": len(state["log"]),
        "history": len(state["game"]["history"]) if "history" in state["game"] else None,
        "games": [g["id"] for g in get_json(app + "/api/games")["games"]],
    }


@browser
def test_a_page_from_another_origin_can_neither_change_nor_read_anything(
    app: str, attacker: str
) -> None:
    created = post_json(
        app + "/api/games", {"players": ["purple", "green", "blue"], "mode": "table"}
    )
    tokens = [s["token"] for s in created["seats"]]
    legal = get_json(app + "/api/state")["legal"][0]
    before = _table(app)
    with browser_context() as context:
        page = context.new_page()
        page.goto(attacker)
        result = page.evaluate(ATTACK, [app, legal])
    after = _table(app)
    assert after == before, "the attacker page changed the table"
    for fetch in result["fetches"]:
        # nothing readable: an opaque answer (no-cors), a refused preflight, or a refusal
        assert fetch.get("body", "") == "" or fetch["status"] >= 400, fetch
        assert fetch.get("type") in (None, "opaque"), fetch
        for token in tokens:
            assert token not in str(fetch)
    for socket in result["sockets"]:
        assert socket["code"] == 4403 and socket["messages"] == [], socket


@browser
def test_a_seat_page_shows_that_its_link_was_replaced_and_hides_the_game(app: str) -> None:
    created = post_json(app + "/api/games", {"players": ["purple", "green"], "mode": "dealer"})
    token = created["seats"][0]["token"]
    with browser_context(PHONE) as context:
        page = context.new_page()
        page.goto(f"{app}/seat/{token}")
        page.wait_for_function("document.querySelector('#hand').children.length > 0")
        post_json(app + "/api/seats/purple/reissue", {})
        page.wait_for_function("!document.querySelector('#conn').hidden", timeout=10000)
        assert "replaced" in page.inner_text("#conn")
        assert page.evaluate("document.querySelector('main').hidden") is True


def _status(app: str, host: str) -> int:
    request = urllib.request.Request(app + "/api/info", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def test_castillo_run_serves_the_names_it_is_given_and_no_other(app: str) -> None:
    port = app.rsplit(":", 1)[1]
    assert _status(app, f"{ALLOWED}:{port}") == 200
    assert _status(app, f"localhost:{port}") == 200
    assert _status(app, f"evil.example:{port}") == 421
