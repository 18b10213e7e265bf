"""The phone and the second tablet of tests/app/test_lan_netns.py, run inside the client's
network namespace: `python -m tests.app.lan_client BASE CODE` prints a JSON report of what each
device saw. `BASE` is the address the server printed; nothing else is contacted.

- the tablet: `/api/info`, a wrong code (refused), Start without a token (refused), the right
  code, then Start, the saved games and a seat's code with its token;
- the phone: the seat URL the code carries, the seat page, and its private state over the
  WebSocket.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import httpx
from websockets.sync.client import connect

GAME = {"players": ["purple", "green", "blue", "orange"], "mode": "table", "short_game": True}


def wrong_code(code: str) -> str:
    return ("0" if code[0] != "0" else "1") + code[1:]


def tablet(http: httpx.Client, code: str) -> dict[str, Any]:
    report: dict[str, Any] = {"info": http.get("/api/info").json()}
    report["wrong_code"] = http.post("/api/pair", json={"code": wrong_code(code)}).status_code
    report["start_unpaired"] = http.post("/api/games", json=GAME).status_code
    paired = http.post("/api/pair", json={"code": code})
    report["pair"] = paired.status_code
    auth = {"Authorization": f"Bearer {paired.json().get('token', '')}"}
    started = http.post("/api/games", json=GAME, headers=auth)
    report["start"] = started.status_code
    report["seats"] = started.json().get("seats", [])
    report["games"] = http.get("/api/games", headers=auth).status_code
    qr = http.get("/api/seats/purple/qr.svg", headers=auth)
    report["qr_status"], report["qr_svg"] = qr.status_code, qr.text
    return report


def phone(seat_url: str) -> dict[str, Any]:
    """What a phone does after scanning: open the URL, then the page's WebSocket."""
    page = httpx.get(seat_url, timeout=10)
    token = seat_url.rsplit("/", 1)[1]
    ws_url = seat_url.split("/seat/", 1)[0].replace("http", "ws", 1) + f"/ws?seat={token}"
    with connect(ws_url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        state = json.loads(ws.recv(timeout=10))
    return {
        "page": page.status_code,
        "page_type": page.headers.get("content-type", ""),
        "hello": hello,
        "seat": state["state"]["seat"],
        "hand": state["state"]["game"].get("hand"),
    }


def main() -> None:
    base, code = sys.argv[1], sys.argv[2]
    with httpx.Client(base_url=base, timeout=10) as http:
        report = tablet(http, code)
    seat = next(s for s in report["seats"] if s["colour"] == "purple")
    report["phone"] = phone(seat["url"])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
